#!/bin/bash
# rcutorture.test_srcu_lockdep=DNNL, the kernel's srcu_lockdep.sh matrix
# in short form, on a CONFIG_PROVE_LOCKING build (make DEBUG=1, built
# here if missing): for each scenario NN (0 SRCU, 1 SRCU/mutex, 2
# SRCU/rwsem, 3 SRCU/Tasks Trace) the cycle through two locks, open (D=0:
# SUCCESS, no splat) and closed (D=1: exactly one kernel-style lockdep
# splat, the run not a success), and the one-step self-deadlocks (reported,
# then stopped instead of hanging) and a three-way cycle.  As the kernel's
# script, also reader flavors on the run's own domain: one flavor passes,
# mixed ones are reported.  Without lock-dependency checking (the plain
# build) the parameter is not honoured.
# SAN: plain build only
. "$(dirname "$0")/../lib/torture_prog.sh"

if [ -n "${SAN:-}" ]; then
	echo "1..0 # SKIP the lockdep runs need a DEBUG=1 build, not the SAN=$SAN one"
	exit 0
fi
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
DBG=$BUILD_DIR/debug
if ! make -s -C "$TOP" -j2 DEBUG=1 BUILD="$DBG" "$DBG/rcutorture" >"$T_TMP/make.log" 2>&1; then
	echo "Bail out! make DEBUG=1 failed: $(grep -m1 'error' "$T_TMP/make.log")"
	exit 1
fi

ARGS="rcutorture.torture_type=srcud rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
	rcutorture.nreaders=1 rcutorture.nfakewriters=1 rcutorture.fwd_progress=0 nr_cpus=4"

# lockdep_run VAL [ARGS...]: in the background, $T_TMP/ld-VAL.{log,rc};
# VAL is written with four digits here, passed as a decimal number (a
# leading 0 would make it octal, for the kernel's parser as for ours).
lockdep_run() {
	local v=$1
	shift
	# shellcheck disable=SC2086
	(timeout -k 5 120 "$DBG/rcutorture" --out "$T_TMP/ld-$v" $ARGS \
		rcutorture.test_srcu_lockdep="$((10#$v))" "$@" >"$T_TMP/ld-$v.log" 2>&1
	 echo $? >"$T_TMP/ld-$v.rc") 2>/dev/null &
}

NAMES=(SRCU SRCU/mutex SRCU/rwsem "SRCU and Tasks Trace RCU")
CASES="0002 0012 0022 0032 1002 1012 1022 1032 1001 1011 1031 1003"
for v in $CASES; do
	lockdep_run "$v"
done
wait

for v in $CASES; do
	d=$((10#$v / 1000)) t=$((10#$v / 10 % 100)) c=$((10#$v % 10))
	log=$T_TMP/ld-$v.log
	rc=$(cat "$T_TMP/ld-$v.rc")
	splats=$(grep -c "^WARNING: possible .* detected$" "$log")
	intro="rcu_torture_init_srcu_lockdep: test_srcu_lockdep = $(printf %05d $((10#$v))): ${NAMES[t]} $c-way $([ "$d" = 1 ] || echo non-)deadlock."
	if ! grep -qxF "$intro" "$log"; then
		ok 1 "test_srcu_lockdep=$v: the kernel's line '$intro'"
		tail -5 "$log" | sed 's/^/#   /'
		continue
	fi
	if [ "$d" = 0 ]; then
		[ "$rc" = 0 ] && [ "$splats" = 0 ] && tail -n 1 "$log" | grep -q "End of test: SUCCESS"
		st=$?
		ok $st "test_srcu_lockdep=$v: ${NAMES[t]} $c-way chain, no cycle: SUCCESS, no splat (exit $rc)"
	elif [ "$c" = 1 ] && [ "$t" != 1 ]; then
		# The step waits for the domain it reads: the real deadlock.
		[ "$rc" != 0 ] && [ "$splats" = 1 ] &&
			grep -q "^WARNING: possible recursive locking detected$" "$log" &&
			grep -q "^rcu: BUG: .* inside its own read-side critical section" "$log"
		st=$?
		ok $st "test_srcu_lockdep=$v: ${NAMES[t]} self-deadlock: one recursive-locking splat, then stopped instead of hanging (exit $rc)"
	else
		[ "$rc" = 1 ] && [ "$splats" = 1 ] &&
			grep -q "^WARNING: possible circular locking dependency detected$" "$log" &&
			grep -q "^ \*\*\* DEADLOCK \*\*\*$" "$log" &&
			tail -n 1 "$log" | grep -q "End of test: FAILURE: RCU reported misuse"
		st=$?
		ok $st "test_srcu_lockdep=$v: ${NAMES[t]} $c-way cycle: one circular-dependency splat, FAILURE (exit $rc)"
	fi
	[ "$st" = 0 ] || tail -n 8 "$log" | cut -c1-160 | sed 's/^/#   /'
done
grep -q "Chain exists of:" "$T_TMP/ld-1003.log" &&
	grep -A1 "Chain exists of:" "$T_TMP/ld-1003.log" | grep -qx "   srcu0 --> srcu1 --> srcu2 --> srcu0"
ok $? "the 3-way splat names the chain: srcu0 --> srcu1 --> srcu2 --> srcu0"
grep -A1 "Chain exists of:" "$T_TMP/ld-1032.log" | grep -q "rcu_tasks_trace"
ok $? "the Tasks Trace cycle names the rcu_tasks_trace domain"

# A value that selects no scenario says so, as the kernel's, and runs on.
lockdep_run 2001
wait
grep -q "test_srcu_lockdep = 02001 does nothing." "$T_TMP/ld-2001.log" &&
	[ "$(cat "$T_TMP/ld-2001.rc")" = 0 ]
ok $? "test_srcu_lockdep=2001 (D not 0 or 1): does nothing, said; the run succeeds"

# The kernel's script's reader-flavor part: one flavor on the run's domain
# passes, all four mixed on it are reported (srcu_check_read_flavor()).
ARGS="rcutorture.torture_type=srcu rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
	rcutorture.nreaders=1 rcutorture.fwd_progress=0 rcutorture.n_up_down=0 nr_cpus=4"
lockdep_run 0 rcutorture.reader_flavor=0x1
wait
[ "$(cat "$T_TMP/ld-0.rc")" = 0 ]
ok $? "reader_flavor=0x1: SUCCESS"
mv "$T_TMP/ld-0.log" "$T_TMP/ld-0x1.log"
lockdep_run 0 rcutorture.reader_flavor=0xf
wait
[ "$(cat "$T_TMP/ld-0.rc")" = 1 ]
ok $? "reader_flavor=0xf (four flavors on one domain): FAILURE"

# Without lock-dependency checking it cannot be honoured.
run plain rcutorture.shutdown_secs=1 rcutorture.stat_interval=0 rcutorture.test_srcu_lockdep=1002
[ "$RC" = 6 ] && tail -n 1 "$OUT" | grep -q "INCOMPLETE: not honoured: rcutorture.test_srcu_lockdep=1002 (.*CONFIG_PROVE_LOCKING"
ok $? "plain build: test_srcu_lockdep=1002 is not honoured (INCOMPLETE, exit 6), naming CONFIG_PROVE_LOCKING"

done_testing
