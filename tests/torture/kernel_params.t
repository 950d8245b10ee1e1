#!/bin/bash
# The accept list is the kernel's: every parameter of the kernel's
# rcutorture (tests/fixtures/torture/kernel-rcutorture-params) is accepted
# at its kernel default and has its row in docs/parameters.md; every
# rcutorture.* name of the program's own that the kernel lacks is marked
# "ours" there; a made-up name is an error.
. "$(dirname "$0")/../lib/torture_prog.sh"

LIST=${TOP:-.}/tests/fixtures/torture/kernel-rcutorture-params
DOC=${TOP:-.}/docs/parameters.md

# The kernel's, each at its default: no error finding.
bad=
while read -r name def; do
	case $name in '#'* | '') continue ;; esac
	[[ $name == *.* ]] || name=rcutorture.$name
	out=$("$RCUTORTURE" --check "$name=$def" 2>&1)
	[ $? = 0 ] && ! grep -q "^error" <<<"$out" || bad+=" $name=$def (${out//$'\n'/ })"
done <"$LIST"
[ -z "$bad" ]; ok $? "every kernel rcutorture parameter is accepted at its default${bad:+:$bad}"

# Each has a row in docs/parameters.md (a row may list several:
# "`rcutorture.gp_sync`, `gp_exp`").
missing=
while read -r name def; do
	case $name in '#'* | '') continue ;; esac
	short=${name#torture.}
	grep -q "\`\(rcutorture\.\|torture\.\)\?$short\*\?\`" "$DOC" || missing+=" $name"
done <"$LIST"
[ -z "$missing" ]; ok $? "docs/parameters.md has a row for each${missing:+; missing:$missing}"

# The program's own names that the kernel lacks are documented as ours.
kernel=" $(awk '!/^#/ && NF { print $1 }' "$LIST" | tr '\n' ' ') "
notours=
for name in $("$RCUTORTURE" --help | sed -n 's/^  \([a-z_]*\)=.*/\1/p'); do
	[[ $kernel == *" $name "* || $name == torture_type || $name == maxcpus ]] && continue
	grep -q "^| \`rcutorture\.$name\` .*| ours" "$DOC" || notours+=" $name"
done
[ -z "$notours" ]; ok $? "the program's other rcutorture parameters are marked ours${notours:+; not:$notours}"

# A made-up name under rcutorture. is an error, not "ignored".
"$RCUTORTURE" --check rcutorture.nreaders_exp=1 >"$T_TMP/madeup.out" 2>&1
[ $? = 2 ] && grep -q "unknown parameter 'rcutorture.nreaders_exp'" "$T_TMP/madeup.out"
ok $? "a made-up rcutorture parameter is an error (exit 2)"

done_testing
