# torture_prog.sh - TAP helpers for the rcutorture program's tests
# (tests/torture/*.t).  Needs BUILD_DIR (make check sets it); SAN
# (thread/address) scales durations.
RCUTORTURE=${BUILD_DIR:-build}/rcutorture
PLUGIN=${BUILD_DIR:-build}/torture/libtorture_example.so
T_N=0
T_FAIL=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/torture-test.XXXXXX")
trap 'rm -rf "$T_TMP"' EXIT

ok() {	# ok COND-STATUS DESCRIPTION: fails as the check did (ok ... || show)
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAIL=$((T_FAIL + 1))
		return 1
	fi
}

skip() {	# skip DESCRIPTION REASON
	T_N=$((T_N + 1))
	echo "ok $T_N - $1 # SKIP $2"
}

diag() { echo "# $*"; }

done_testing() {
	echo "1..$T_N"
	[ "$T_FAIL" -eq 0 ]
}

# run NAME ARGS...: run rcutorture with --out $T_TMP/NAME (under the
# command in the array T_WRAP, if any); sets RC, OUT (console file),
# ELAPSED (seconds); dumps the console tail on failure of the caller's
# checks via show.
run() {
	local name=$1 t0 t1
	shift
	OUT=$T_TMP/$name.log
	DIR=$T_TMP/$name
	t0=$(date +%s.%N)
	timeout -k 5 300 "${T_WRAP[@]}" "$RCUTORTURE" --out "$DIR" "$@" >"$OUT" 2>&1
	RC=$?
	t1=$(date +%s.%N)
	ELAPSED=$(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }')
}

show() {	# the last run's error lines and last lines, as diagnostics
	grep -E '!!!|\?\?\?|rcu_torture_fwd_prog:|Cookie check|rtbe|rtmbkf:|WARNING|BUG|ERROR|torture_onoff' "$OUT" |
		head -n 10 | cut -c1-200 | sed 's/^/#   /'
	tail -n "${1:-15}" "$OUT" | cut -c1-200 | sed 's/^/#   /'
}

# caught NAME TYPE ARGS...: the broken TYPE ends in FAILURE (a too-short
# grace period, Reader Pipe errors) within 30 s; stop_on_error ends it early.
caught() {
	local name=$1 t=$2
	shift 2
	run "$name" rcutorture.torture_type="$t" rcutorture.shutdown_secs=30 \
		rcutorture.stop_on_error=1 rcutorture.stat_interval=1 rcutorture.stutter=0 "$@"
	if [ "$RC" = 1 ] && tail -n 1 "$OUT" | grep -q "End of test: FAILURE: too-short grace period" &&
	   grep -q "^$t-torture: !!! Reader Pipe:" "$OUT" &&
	   jq -e '.result == "FAILURE"' "$DIR/summary.json" >/dev/null; then
		ok 0 "$name caught in $ELAPSED s: too-short grace period"
	else
		ok 1 "$name caught within 30 s (status $RC, $ELAPSED s)"
		show
	fi
}

# passes TYPE ARGS...: one TAP test that a run of TYPE with the caller's
# $ALL parameters and ARGS ends clean: SUCCESS, no error line, and a
# summary.json with grace periods, reads and no error counted.
passes() {
	local t=$1
	shift
	passes_as "${t//[:\/]/_}" "$t" "$@"
}

# passes_as NAME TYPE ARGS...: the same, the run's files (and the test's
# name) NAME: several runs of one type.
passes_as() {
	local name=$1 t=$2
	shift 2
	# shellcheck disable=SC2086
	run "pass-$name" rcutorture.torture_type="$t" $ALL "$@"
	if [ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" &&
	   ! grep -q '!!!\|???' "$OUT" &&
	   jq -e '.result == "SUCCESS" and .ver > 0 and .reads > 0 and (.errors | add) == 0 and .close_calls <= 1' \
		"$DIR/summary.json" >/dev/null; then
		ok 0 "$name passes ($ELAPSED s)"
	else
		ok 1 "$name passes (status $RC)"
		show
	fi
}

# Seconds for a "short run" of a correct type: longer without sanitizers.
short_secs() {
	if [ -n "${SAN:-}" ]; then echo "${1:-3}"; else echo "${2:-4}"; fi
}

# nocap_prefix: NOCAP becomes a command prefix that runs a program
# without CAP_SYS_NICE and with RLIMIT_RTPRIO 0, where SCHED_FIFO is then
# refused (setpriv and prlimit, as root); empty if it cannot be dropped so.
nocap_prefix() {
	NOCAP=()
	if [ "$(id -u)" = 0 ] && setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice \
		prlimit --rtprio=0 sh -c '! chrt -f 1 true' 2>/dev/null; then
		NOCAP=(setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice prlimit --rtprio=0)
	fi
}
