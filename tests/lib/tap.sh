# tap.sh - TAP helpers for the library's shell tests (tests/rcu/*.t),
# sourced after they set TOP.  Gives BUILD_DIR (make check sets it), a
# scratch folder $tmp removed at exit, ok STATUS DESCRIPTION,
# skip REASON, and done_testing (the plan, and the exit status).
BUILD_DIR=${BUILD_DIR:-$TOP/build}
n=0
fails=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
done_testing() { echo "1..$n"; [ "$fails" -eq 0 ]; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rcu-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
