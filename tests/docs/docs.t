#!/bin/bash
# tests/docs/docs.t: the documentation holds together.  Every relative
# link of the markdown pages resolves (the file exists; an #anchor into a
# page names one of its headings, with GitHub's slugs); README.md is a map
# of at most 250 lines; no page carries a run label (internal history).
# Each check is first shown to fail on a planted page.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

# slugs PAGE: the anchors of its headings (outside code fences), one a line.
slugs() {
	awk '/^```/ { fence = !fence; next }
	     fence || !/^#+[ \t]/ { next }
	     { s = tolower($0); sub(/^#+[ \t]+/, "", s); sub(/[ \t#]+$/, "", s)
	       gsub(/[^a-z0-9_ -]/, "", s); gsub(/ /, "-", s)
	       n = seen[s]++; print (n ? s "-" n : s) }' "$1"
}

# broken PAGE...: "PAGE:LINE: TARGET: why" for each relative link that
# does not resolve.
broken() {
	local page line target path anchor dir
	for page in "$@"; do
		dir=$(dirname "$page")
		awk '/^```/ { fence = !fence; next }
		     fence { next }
		     { s = $0
		       while (match(s, /\]\([^) \t]+\)/)) {
			print FNR "\t" substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, RSTART + RLENGTH) } }' "$page" |
		while IFS=$'\t' read -r line target; do
			case $target in
			http://* | https://* | mailto:*) continue ;;
			esac
			path=${target%%#*}
			anchor=
			[ "$path" = "$target" ] || anchor=${target#*#}
			[ -n "$path" ] && path=$dir/$path || path=$page
			if [ ! -e "$path" ]; then
				echo "$page:$line: $target: no such file"
			elif [ -n "$anchor" ] && [ "${path%.md}" != "$path" ] &&
				! slugs "$path" | grep -qxF "$anchor"; then
				echo "$page:$line: $target: no such heading"
			fi
		done
	done
}

# labels PAGE...: lines naming a run label (s19, s26 ...).
labels() {
	grep -nE '(^|[^A-Za-z0-9_.-])s[0-9]{2}([^0-9A-Za-z]|$)' "$@"
}

pages=("$TOP/README.md" "$TOP"/docs/*.md "$TOP"/docs/design/*.md "$TOP/tests/README.md"
	"$TOP"/torture/*.md "$TOP/analysis/README.md" "$TOP/rcu/formal/README.md")

# The checks, first on planted pages.
mkdir -p "$tmp/p/sub"
printf '# A page\n\n## Two words\n\n[ok](sub/b.md#other-heading) [ok](#two-words) [web](https://example.org/x)\n[bad](nosuch.md) [bad](sub/b.md#nosuch)\n```\n[in a fence](nosuch2.md)\n```\nthe s24 run\n' >"$tmp/p/a.md"
printf '# Other heading\n' >"$tmp/p/sub/b.md"
out=$(cd "$tmp" && broken p/a.md p/sub/b.md)
[ "$out" = "$(printf 'p/a.md:6: nosuch.md: no such file\np/a.md:6: sub/b.md#nosuch: no such heading')" ]
ok $? "a planted page: its two broken links named, nothing else ($(echo "$out" | tr '\n' ' '))"
[ "$(labels "$tmp/p/a.md" | cut -d: -f1)" = 10 ]
ok $? "a planted page: its run label named"

out=$(cd "$TOP" && broken "${pages[@]#"$TOP"/}")
[ -z "$out" ]
ok $? "every relative link of the ${#pages[@]} pages resolves$(printf '%s' "$out" | head -5 | sed 's/^/; /' | tr '\n' ' ')"
lines=$(wc -l <"$TOP/README.md")
[ "$lines" -le 250 ]
ok $? "README.md is a map: $lines lines (at most 250)"
out=$(labels "${pages[@]}")
[ -z "$out" ]
ok $? "no run labels in the documentation$(printf '%s' "$out" | head -3 | sed 's/^/; /' | tr '\n' ' ')"
done_testing
