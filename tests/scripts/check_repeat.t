#!/bin/sh
# tests/scripts/check_repeat.t: tests/lib/check-repeat, behind `make
# check-repeat N=...`: every test run N times, a test that failed in some
# rounds and passed in others named FLAKY (with where its logs are), one
# that failed in every round FAILING, a "not ok" line a failure even when
# the test exited 0, a "# TODO" one not; exit 1 when any failed.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t"
printf '#!/bin/sh\necho "ok 1 - fine"; echo 1..1\n' >"$tmp/t/good.t"
# Fails in its second round only (a counter in a file).
printf '#!/bin/sh\nn=$(($(cat %s/n 2>/dev/null || echo 0) + 1)); echo $n >%s/n\n[ $n -ne 2 ] && echo "ok 1 - lucky" || echo "not ok 1 - unlucky"; echo 1..1\n' "$tmp" "$tmp" >"$tmp/t/flaky.t"
printf '#!/bin/sh\necho "not ok 1 - always"; echo 1..1\n' >"$tmp/t/bad.t"
printf '#!/bin/sh\necho "not ok 1 - known # TODO not yet"; echo "ok 2 - fine"; echo 1..2\n' >"$tmp/t/todo.t"
chmod +x "$tmp"/t/*.t

st=0
out=$(REPEAT_LOG_DIR=$tmp/logs "$TOP/tests/lib/check-repeat" 60 3 "$tmp/t/good.t" "$tmp/t/flaky.t" "$tmp/t/bad.t" "$tmp/t/todo.t") || st=$?
echo "1..5"
check() {	# N TEST DESCRIPTION
	if eval "$2"; then echo "ok $1 - $3"; else echo "not ok $1 - $3"; printf '%s\n' "$out" | sed 's/^/#   | /'; fi
}
check 1 'printf "%s\n" "$out" | grep -qx "FLAKY   $tmp/t/flaky.t: failed in 1 of 3 rounds (logs: $tmp/logs/ROUND/t-flaky.tap)" &&
	 grep -q "^not ok 1 - unlucky" "$tmp/logs/2/t-flaky.tap"' \
	"a test that failed in one round of three is FLAKY, its round's log kept"
check 2 'printf "%s\n" "$out" | grep -qx "FAILING $tmp/t/bad.t: failed in every round (3 of 3)"' \
	"a test that failed in every round is FAILING (a not-ok line, though it exited 0)"
check 3 '! printf "%s\n" "$out" | grep -q "good.t\|todo.t"' \
	"a passing test, and one whose only not-ok line is a TODO, are not named"
check 4 'printf "%s\n" "$out" | tail -n1 | grep -qx "check-repeat: 3 rounds of 4 tests: 1 flaky, 1 always failing" && [ "$st" -eq 1 ]' \
	"the closing line counts them; exit 1"
st=0
# shellcheck disable=SC2034  # st is read in check's eval
out=$(REPEAT_LOG_DIR=$tmp/logs2 "$TOP/tests/lib/check-repeat" 60 2 "$tmp/t/good.t" "$tmp/t/todo.t") || st=$?
check 5 '[ "$st" -eq 0 ] && printf "%s\n" "$out" | tail -n1 | grep -qx "check-repeat: 2 rounds of 2 tests: 0 flaky, 0 always failing"' \
	"no failure in any round: exit 0"
