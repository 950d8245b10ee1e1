#!/bin/sh
# tests/scripts/show_failures.t: tests/lib/show-failures, which .ci/run
# calls after a failed `make check`, prints what prove leaves out: a failed test's "not ok"
# lines with their "#" diagnostics, the last lines of a test that died,
# and nothing for tests that passed.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'ok 1 - fine\nnot ok 2 - broken\n# why it broke\n#   | detail\nok 3 - fine again\n# not this one\n1..3\n' >"$tmp/failed.tap"
echo 1 >"$tmp/failed.tap.rc"
printf 'ok 1 - all good\n# a note\n1..1\n' >"$tmp/passed.tap"
echo 0 >"$tmp/passed.tap.rc"
printf 'ok 1 - started\nlast words\n' >"$tmp/died.tap"
echo 134 >"$tmp/died.tap.rc"
printf 'not ok 1 - said so, exit 0\n# its reason\n' >"$tmp/quiet.tap"
echo 0 >"$tmp/quiet.tap.rc"

out=$("$TOP/tests/lib/show-failures" "$tmp")
echo "1..5"
check() {	# N TEST DESCRIPTION
	if eval "$2"; then echo "ok $1 - $3"; else echo "not ok $1 - $3"; printf '%s\n' "$out" | sed 's/^/#   | /'; fi
}
check 1 'printf "%s\n" "$out" | grep -qx -- "--- failed: exit status 1"' \
	"a failed test is named with its exit status"
check 2 'printf "%s\n" "$out" | grep -qx "not ok 2 - broken" &&
	 printf "%s\n" "$out" | grep -qx "# why it broke" &&
	 printf "%s\n" "$out" | grep -qx "#   | detail" &&
	 ! printf "%s\n" "$out" | grep -q "not this one\|fine again"' \
	"its not-ok line and that line's diagnostics, nothing of the passing tests after it"
check 3 'printf "%s\n" "$out" | grep -qx -- "--- died: exit status 134" &&
	 printf "%s\n" "$out" | grep -qx "last words"' \
	"a test that died without a not-ok line: its last lines"
check 4 '! printf "%s\n" "$out" | grep -q "passed\|all good\|a note"' \
	"a test that passed prints nothing"
check 5 'printf "%s\n" "$out" | grep -qx -- "--- quiet: exit status 0" &&
	 printf "%s\n" "$out" | grep -qx "# its reason"' \
	"a not-ok line counts even when the test exited 0"
