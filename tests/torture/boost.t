#!/bin/bash
# Priority boosting and reader preemption through the rcutorture program
# (torture/boost.c, torture/preempt.c; the library's boosting itself:
# tests/rcu/boost.c).  Where this process may make threads SCHED_FIFO
# and switch real-time throttling off (root), the boost test runs and
# passes on the rcu type with rcutree.rcu_boost=1, catches a run without
# boosting (the kernel's BUSTED-BOOST: test_boost=2), preemption episodes
# happen, and the throttling setting is put back, even after kill -9 of
# the run or of its process group, by the last of two runs side by side,
# and by the next run after one killed with its watcher (which says so);
# a run that finds throttling switched back on mid-test says so.
# Where SCHED_FIFO is refused (no CAP_SYS_NICE: dropped by setpriv as
# root) the boost test and reader preemption are SKIPPED naming why:
# --check says skip, a run is refused (exit 2) and nothing runs.  The
# other obstacles (RCU threads below priority 2, throttling that cannot
# be switched off) make the run INCOMPLETE, naming them: those checks run
# wherever they can be set up.
. "$(dirname "$0")/../lib/torture_prog.sh"

RT=/proc/sys/kernel/sched_rt_runtime_us
RT0=$(cat "$RT" 2>/dev/null)
COMMON="rcutorture.torture_type=rcu nr_cpus=4 rcutorture.stat_interval=1 rcutorture.onoff_interval=0
	rcutorture.fwd_progress=0 rcutorture.test_boost_interval=1 rcutorture.test_boost_duration=2"
BOOST="rcutree.rcu_boost=1 rcutree.kthread_prio=2"

# Can threads here be SCHED_FIFO (the program's own test: it tries)?
if chrt -f 1 true 2>/dev/null; then CAN_RT=1; else CAN_RT=; fi
# May the throttling be switched off (or is it off)?
if [ "$RT0" = -1 ] || { [ -n "$CAN_RT" ] && [ -w "$RT" ]; }; then CAN_THROTTLE=1; else CAN_THROTTLE=; fi

# incomplete NAME PATTERN: the last run ended INCOMPLETE (exit 6) with
# PATTERN in its reason, and summary.json says so.
incomplete() {
	if [ "$RC" = 6 ] && tail -n 1 "$OUT" | grep -q "End of test: INCOMPLETE: .*$2" &&
	   jq -e '.result == "INCOMPLETE" and (.unhonoured | length) > 0' "$DIR/summary.json" >/dev/null; then
		ok 0 "$1: INCOMPLETE, naming why"
	else
		ok 1 "$1: INCOMPLETE naming '$2' (status $RC)"
		show
	fi
}

# skipped NAME TOKEN WHY ARGS...: where SCHED_FIFO is refused (under the
# prefix in T_WRAP), --check says skip naming TOKEN and WHY, and a run
# with ARGS is refused: exit 2, the reason on stderr, nothing run.
skipped() {
	local name=$1 tok=$2 why=$3 out
	shift 3
	out=$("${T_WRAP[@]}" "$RCUTORTURE" --check "$@" 2>/dev/null | grep -v '^note ')
	[[ $out =~ ^skip\ [0-9]+:\ "rcutorture.$tok: $why"$ ]]
	ok $? "$name: --check says skip, naming $tok ($out)"
	run "$name" "$@" rcutorture.shutdown_secs=1
	[ "$RC" = 2 ] && grep -qxF "rcutorture: rcutorture.$tok: $why" "$OUT" &&
		! grep -q "Start of test" "$OUT" && [ ! -e "$DIR/summary.json" ]
	ok $? "$name: a run is refused naming why, nothing run (status $RC)"
}
FIFO_BOOST="the boost test's threads need SCHED_FIFO, refused here (CAP_SYS_NICE: run as root)"
FIFO_PREEMPT="preempting readers takes SCHED_FIFO, refused here (CAP_SYS_NICE: run as root)"

switched_off() {	# switched_off LOG: wait (30 s at most) until the run says it switched throttling off
	local i
	for ((i = 0; i < 300; i++)); do
		grep -q "real-time throttling off for the run" "$1" 2>/dev/null && return
		sleep 0.1
	done
}

rt_restored() {	# rt_restored WHAT [SECONDS]: the throttling setting is as it was (within SECONDS)
	local now i
	for ((i = 0; i < ${2:-0} * 10; i++)); do
		[ "$(cat "$RT" 2>/dev/null)" = "$RT0" ] && break
		sleep 0.1
	done
	now=$(cat "$RT" 2>/dev/null)
	[ "$now" = "$RT0" ]
	ok $? "$1: sched_rt_runtime_us back to $RT0 (now $now)" && return
	echo "$RT0" >"$RT" 2>/dev/null	# not left off for the tests after this one
}

# 1. The boost test on a boosting RCU (where it may run).
if [ -n "$CAN_RT" ]; then
	# shellcheck disable=SC2086
	run boost $COMMON $BOOST rcutorture.shutdown_secs=$(short_secs 6 6)
fi
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ]; then
	if [ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" &&
	   grep -q "rcu_torture_boost started" "$OUT" &&
	   jq -e '.result == "SUCCESS" and .boost_tests >= 1 and .readers_boosted > 0' \
		"$DIR/summary.json" >/dev/null; then
		ok 0 "boost test on rcu with rcu_boost=1: SUCCESS, $(jq .boost_tests "$DIR/summary.json") intervals ($ELAPSED s)"
		diag "readers boosted: $(jq .readers_boosted "$DIR/summary.json")"
	else
		ok 1 "boost test on rcu with rcu_boost=1: SUCCESS (status $RC)"
		show
	fi
	rt_restored "after the boost test"
elif [ -n "$CAN_RT" ]; then
	incomplete "boost test, throttling not writable" "real-time throttling is on"
	skip "sched_rt_runtime_us put back" "$RT is not writable here"
else
	skip "boost test on rcu with rcu_boost=1" "no SCHED_FIFO here (run as root)"
	skip "sched_rt_runtime_us put back" "no SCHED_FIFO here (run as root)"
fi

# 2. A run without boosting fails the forced boost test (BUSTED-BOOST).
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ]; then
	# shellcheck disable=SC2086
	run busted $COMMON rcutree.kthread_prio=2 rcutorture.test_boost=2 rcutorture.stop_on_error=1 \
		rcutorture.shutdown_secs=30 nr_cpus=6
	if [ "$RC" = 1 ] && tail -n 1 "$OUT" | grep -q "End of test: FAILURE: boost failure" &&
	   grep -q "Boost inversion" "$OUT" && jq -e '.result == "FAILURE"' "$DIR/summary.json" >/dev/null; then
		ok 0 "test_boost=2 without rcu_boost: FAILURE rtbf ($ELAPSED s)"
	else
		ok 1 "test_boost=2 without rcu_boost: FAILURE rtbf (status $RC)"
		show
	fi
	rt_restored "after the busted run"
else
	skip "test_boost=2 without rcu_boost fails" "no SCHED_FIFO or throttling control here (run as root)"
	skip "sched_rt_runtime_us put back" "no SCHED_FIFO here (run as root)"
fi

# 3. RCU threads below priority 2 cannot be tested (the kernel warns).
if [ -n "$CAN_RT" ]; then
	# shellcheck disable=SC2086
	run lowprio $COMMON rcutree.rcu_boost=1 rcutree.kthread_prio=1 rcutorture.shutdown_secs=1
	incomplete "kthread_prio=1" "the RCU's threads run at real-time priority 1"
else
	skip "kthread_prio=1: INCOMPLETE" "no SCHED_FIFO here (run as root)"
fi

# 4. Without CAP_SYS_NICE (dropped by setpriv where we have it, or
# missing): the boost test, asked for (test_boost=2) or by a boosting RCU
# (test_boost=1 with rcu_boost=1), and reader preemption are SKIPPED.
NOCAP=()
if [ -n "$CAN_RT" ]; then
	nocap_prefix
else
	NOCAP=(env)
fi
if [ ${#NOCAP[@]} -gt 0 ]; then
	T_WRAP=("${NOCAP[@]}")
	# shellcheck disable=SC2086
	skipped nocap-boost2 "test_boost=2" "$FIFO_BOOST" $COMMON rcutorture.test_boost=2
	# shellcheck disable=SC2086
	skipped nocap-boost1 "test_boost=1" "$FIFO_BOOST" $COMMON $BOOST
	# shellcheck disable=SC2086
	skipped nocap-preempt "preempt_duration=10" "$FIFO_PREEMPT" $COMMON rcutorture.preempt_duration=10
	T_WRAP=()
else
	for t in "test_boost=2 --check" "test_boost=2 run" "test_boost=1 --check" "test_boost=1 run" \
		"preempt_duration --check" "preempt_duration run"; do
		skip "no CAP_SYS_NICE: $t" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
	done
fi

# 5. Throttling that cannot be switched off: the file read-only in a mount
# namespace of the run's own.
if [ -n "$CAN_RT" ] && [ "$(id -u)" = 0 ] && [ "$RT0" != -1 ] &&
   unshare -m sh -c "mount --bind $RT $RT && mount -o remount,bind,ro $RT && ! echo $RT0 >$RT" 2>/dev/null; then
	# shellcheck disable=SC2016
	T_WRAP=(unshare -m sh -c "mount --bind $RT $RT && mount -o remount,bind,ro $RT && exec \"\$0\" \"\$@\"")
	# shellcheck disable=SC2086
	run rothrottle $COMMON $BOOST rcutorture.shutdown_secs=1
	T_WRAP=()
	incomplete "read-only sched_rt_runtime_us" "real-time throttling is on"
	rt_restored "after the read-only run"
else
	skip "read-only sched_rt_runtime_us" "needs root, unshare -m and throttling on (sched_rt_runtime_us=$RT0)"
	skip "sched_rt_runtime_us unchanged" "needs root, unshare -m and throttling on"
fi

# 6. kill -9 in the middle of a boost test: the watcher puts the
# throttling back.
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ] && [ "$RT0" != -1 ]; then
	OUT=$T_TMP/killed.log
	# shellcheck disable=SC2086
	"$RCUTORTURE" --out "$T_TMP/killed" $COMMON $BOOST rcutorture.shutdown_secs=60 >"$OUT" 2>&1 &
	pid=$!
	switched_off "$OUT"
	off=$(cat "$RT")
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ "$off" = -1 ]
	ok $? "a boost run switches real-time throttling off (sched_rt_runtime_us was $off)"
	rt_restored "after kill -9" 10
else
	skip "throttling off during a boost run" "needs SCHED_FIFO and a writable $RT, throttling on"
	skip "sched_rt_runtime_us put back after kill -9" "needs SCHED_FIFO and a writable $RT"
fi

# 6b. kill -9 of the run's whole process group (timeout -s KILL, a
# cancelled CI job): the watcher, in a session of its own, survives it.
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ] && [ "$RT0" != -1 ]; then
	OUT=$T_TMP/grpkilled.log
	set -m	# the run in a process group of its own
	# shellcheck disable=SC2086
	"$RCUTORTURE" --out "$T_TMP/grpkilled" $COMMON $BOOST rcutorture.shutdown_secs=60 >"$OUT" 2>&1 &
	pid=$!
	set +m
	switched_off "$OUT"
	kill -9 -- "-$pid"
	wait "$pid" 2>/dev/null
	rt_restored "after kill -9 of the run's process group" 10
else
	skip "sched_rt_runtime_us put back after kill -9 of the process group" "needs SCHED_FIFO and a writable $RT"
fi

# 6c. A value recorded by a run killed together with its watcher (a
# cgroup's kill), throttling left off: the next run says so and puts the
# value back at its end.  Only when no run holds the lock file.
LOCK=/run/lock/rcutorture-rt-throttle
[ -d /run/lock ] || LOCK=/tmp/rcutorture-rt-throttle
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ] && [ "$RT0" != -1 ] &&
   [ "$(id -u)" = 0 ] && flock -n -x "$LOCK" true; then
	echo "$RT0" >"$LOCK"
	echo -1 >"$RT"
	# shellcheck disable=SC2086
	run stale $COMMON $BOOST rcutorture.shutdown_secs=2
	[ "$RC" = 0 ] && grep -q "a run killed earlier left real-time throttling off (sched_rt_runtime_us was $RT0" "$OUT"
	ok $? "a value left by a killed run: the next run says so (status $RC)" || show
	rt_restored "after the run that found it"
else
	skip "a value left by a killed run: the next run says so" "needs root, SCHED_FIFO, a writable $RT, throttling on, $LOCK free"
	skip "sched_rt_runtime_us after it" "needs root, SCHED_FIFO, a writable $RT, throttling on, $LOCK free"
fi

# 7. Throttling switched back on by someone else during the run: the rest
# of the test would prove nothing, and the run says so.
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ] && [ "$RT0" != -1 ]; then
	OUT=$T_TMP/lost.log DIR=$T_TMP/lost
	# shellcheck disable=SC2086
	"$RCUTORTURE" --out "$DIR" $COMMON $BOOST rcutorture.test_boost_holdoff=1 \
		rcutorture.shutdown_secs=$(short_secs 6 6) >"$OUT" 2>&1 &
	pid=$!
	switched_off "$OUT"
	echo "$RT0" >"$RT"
	wait "$pid"
	RC=$?
	incomplete "throttling switched back on mid-run" "real-time throttling was switched back on during the run"
	rt_restored "after the run that lost it"
else
	skip "throttling switched back on mid-run" "needs SCHED_FIFO and a writable $RT, throttling on"
	skip "sched_rt_runtime_us after it" "needs SCHED_FIFO and a writable $RT"
fi

# 8. Two boost runs side by side (bin/nightly.sh's slots, two make checks):
# the one that ends first leaves throttling off under the other, whose
# boost test stays whole; the last to end puts it back.  The long run's
# boost intervals start after the short run has ended (holdoff): that is
# when throttling switched back on would show, and two runs' real-time
# threads competing for 2 CPUs could not fail its grace periods.
if [ -n "$CAN_RT" ] && [ -n "$CAN_THROTTLE" ] && [ "$RT0" != -1 ]; then
	LONG_OUT=$T_TMP/long.log LONG_DIR=$T_TMP/long
	# shellcheck disable=SC2086
	"$RCUTORTURE" --out "$LONG_DIR" $COMMON $BOOST rcutorture.shutdown_secs=10 \
		rcutorture.test_boost_holdoff=5 >"$LONG_OUT" 2>&1 &
	pid=$!
	switched_off "$LONG_OUT"
	# shellcheck disable=SC2086
	run beside $COMMON $BOOST rcutorture.shutdown_secs=2
	mid=$(cat "$RT")
	[ "$RC" = 0 ] && [ "$mid" = -1 ] && kill -0 "$pid" 2>/dev/null &&
		! grep -q "real-time throttling off for the run" "$OUT"
	ok $? "two boost runs side by side: the first to end ($RC) leaves throttling off under the other (now $mid)" || show
	wait "$pid"
	RC=$?
	OUT=$LONG_OUT DIR=$LONG_DIR
	[ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" && ! grep -q "switched back on" "$OUT" &&
		jq -e '.boost_tests >= 1' "$DIR/summary.json" >/dev/null
	ok $? "two boost runs side by side: the other's boost test, after the first ended, stays whole: SUCCESS (status $RC)" || show
	rt_restored "after the last of two boost runs side by side"
else
	skip "two boost runs side by side: throttling stays off" "needs SCHED_FIFO and a writable $RT, throttling on"
	skip "two boost runs side by side: SUCCESS" "needs SCHED_FIFO and a writable $RT, throttling on"
	skip "sched_rt_runtime_us after them" "needs SCHED_FIFO and a writable $RT"
fi

# 9. Reader preemption: episodes happen and are counted.
if [ -n "$CAN_RT" ]; then
	# shellcheck disable=SC2086
	run preempt $COMMON rcutorture.preempt_duration=10 rcutorture.preempt_interval=100 \
		rcutorture.stall_cpu_holdoff=0 rcutorture.shutdown_secs=$(short_secs 3 3)
	if [ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" &&
	   jq -e '.result == "SUCCESS" and .preemptions > 0' "$DIR/summary.json" >/dev/null; then
		ok 0 "preempt_duration=10: SUCCESS, $(jq .preemptions "$DIR/summary.json") preemptions"
	else
		ok 1 "preempt_duration=10: SUCCESS with preemptions (status $RC)"
		show
	fi
else
	skip "preempt_duration=10: SUCCESS with preemptions" "no SCHED_FIFO here (run as root): SKIPPED above"
fi

done_testing
