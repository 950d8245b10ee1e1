#!/bin/bash
# Deliberate stalls: with stall_cpu the RCU must warn and name the reader
# that stalls, with stall_gp_kthread say that its grace-period thread
# starved, and then the warnings are not a failure, while a stall no
# warning showed, or a warning nobody asked for, is a failure.
. "$(dirname "$0")/../lib/torture_prog.sh"

# A deliberate stall: the RCU must warn and name the stalled reader
# (a 3 s stall, a 1 s timeout); the warnings are counted, not a failure.
run stall rcutorture.torture_type=rcu rcutorture.stall_cpu=3 rcutorture.stall_cpu_holdoff=0 \
	rcupdate.rcu_cpu_stall_timeout=1 rcutorture.shutdown_secs=5 rcutorture.stat_interval=1 \
	rcutorture.stutter=0
tid=$(sed -n 's/.*rcu_torture_stall begin CPU stall interval 3 secs (P\([0-9]*\)).*/\1/p' "$OUT")
[ "$RC" = 0 ] && [ -n "$tid" ] && grep -q "detected .*stalls on CPUs/tasks:" "$OUT" &&
	grep -q "^rcu: .* P$tid rcu_torture_sta: in a read-side critical section for at least" "$OUT" &&
	grep -q "rcu_torture_stall_nf: rcu_preempt .*stall for [0-9]* ms, .*the stalled reader" "$OUT" &&
	jq -e '.rcu_stalls > 0 and .stalls >= .rcu_stalls and .result == "SUCCESS"' \
		"$DIR/summary.json" >/dev/null
ok $? "stall_cpu: a warning names the stalled reader (P$tid), counted in stalls, SUCCESS ($ELAPSED s)"
[ "$RC" = 0 ] || show

# A stall the RCU's timeout is too long to see: nothing named it, FAILURE.
run stall_unseen rcutorture.torture_type=rcu rcutorture.stall_cpu=1 rcutorture.stall_cpu_holdoff=0 \
	rcutorture.shutdown_secs=2 rcutorture.stat_interval=1 rcutorture.stutter=0
[ "$RC" = 1 ] && grep -q "is not longer than the RCU's stall timeout" "$OUT" &&
	tail -n 1 "$OUT" | grep -q "End of test: FAILURE: stall_cpu: no RCU CPU stall warning named the stalled reader"
ok $? "stall_cpu with no warning naming the reader: FAILURE"

# stall_gp_kthread: the RCU's grace-period thread sleeps 3 s in a grace
# period (a 1 s timeout): a warning must say it starved; the warnings are
# counted, not a failure.  Its sched flavor's too.
for t in rcu sched; do
	run "stall_gp_$t" rcutorture.torture_type=$t rcutorture.stall_gp_kthread=3 \
		rcutorture.stall_cpu_holdoff=0 rcupdate.rcu_cpu_stall_timeout=1 rcutorture.shutdown_secs=8 \
		rcutorture.stat_interval=1 rcutorture.stutter=0
	flavor=rcu_preempt
	[ $t = rcu ] || flavor=rcu_sched
	[ "$RC" = 0 ] && grep -q "rcu_torture_stall begin GP kthread stall interval 3 secs" "$OUT" &&
		grep -q "^rcu: $flavor kthread starved for [0-9]* jiffies!" "$OUT" &&
		grep -q "rcu_torture_stall_nf: $flavor stall for .*, the grace-period kthread starved" "$OUT" &&
		jq -e '.rcu_stalls > 0 and .result == "SUCCESS" and .unhonoured == []' "$DIR/summary.json" >/dev/null
	ok $? "stall_gp_kthread ($t): a warning says $flavor's grace-period kthread starved, counted, SUCCESS ($ELAPSED s)"
	[ "$RC" = 0 ] || show
done
# The same when every updater polls (rcutorture's gp_poll writers): no
# thread waits in synchronize_*(), and the polls must notice.
run stall_gp_poll rcutorture.torture_type=rcu rcutorture.stall_gp_kthread=3 rcutorture.gp_poll=1 \
	rcutorture.stall_cpu_holdoff=0 rcupdate.rcu_cpu_stall_timeout=1 rcutorture.shutdown_secs=8 \
	rcutorture.stat_interval=1 rcutorture.stutter=0
[ "$RC" = 0 ] && grep -q "^rcu: rcu_preempt kthread starved for [0-9]* jiffies!" "$OUT" &&
	jq -e '.result == "SUCCESS"' "$DIR/summary.json" >/dev/null
ok $? "stall_gp_kthread with only polling updaters (gp_poll=1): the polls say it starved, SUCCESS ($ELAPSED s)" || show
# A sleep the RCU's timeout is too long to see: no warning said so, FAILURE.
run stall_gp_unseen rcutorture.torture_type=rcu rcutorture.stall_gp_kthread=1 \
	rcutorture.stall_cpu_holdoff=0 rcutorture.shutdown_secs=4 rcutorture.stat_interval=1 rcutorture.stutter=0
[ "$RC" = 1 ] && grep -q "stall_gp_kthread=1 s is not longer than the RCU's stall timeout" "$OUT" &&
	tail -n 1 "$OUT" | grep -q "End of test: FAILURE: stall_gp_kthread: no RCU CPU stall warning said the grace-period kthread starved"
ok $? "stall_gp_kthread with no warning saying the kthread starved: FAILURE"
# A type that cannot stall a grace-period thread: not honoured, INCOMPLETE.
run stall_gp_na rcutorture.torture_type=srcu rcutorture.stall_gp_kthread=2 rcutorture.shutdown_secs=1 \
	rcutorture.stat_interval=0
[ "$RC" = 6 ] && grep -q "rcutorture.stall_gp_kthread=2: not honoured: srcu has no grace-period thread to stall" "$OUT" &&
	! grep -q "rcu_torture_stall begin" "$OUT" &&
	tail -n 1 "$OUT" | grep -q "End of test: INCOMPLETE: not honoured: rcutorture.stall_gp_kthread=2 (srcu has no grace-period thread to stall)" &&
	jq -e '.unhonoured == [{"param": "rcutorture.stall_gp_kthread=2", "why": "srcu has no grace-period thread to stall"}]' \
		"$DIR/summary.json" >/dev/null
ok $? "stall_gp_kthread on a type without a grace-period thread to stall: not honoured, INCOMPLETE (exit 6)"

# A stall warning nobody asked for (the grace-period thread sleeps 1 s in
# every grace period, the timeout is 0.2 s): FAILURE.  Normal grace
# periods only, driven by the GP thread (not by synchronize_rcu()'s
# caller: rcutree.gp_caller_drives=0), so that it is the GP thread that
# starves.
run stall_unasked rcutorture.torture_type=rcu rcutorture.shutdown_secs=3 rcutorture.stat_interval=1 \
	rcupdate.rcu_cpu_stall_timeout=0.2 rcutree.gp_preinit_delay=1000 rcutorture.stutter=0 \
	rcutorture.gp_sync=1 rcutorture.gp_normal=1 rcutree.gp_caller_drives=0
[ "$RC" = 1 ] && grep -q "rcu_preempt kthread starved for" "$OUT" &&
	tail -n 1 "$OUT" | grep -q "End of test: FAILURE: " &&
	jq -e '.errors.rcu_stalls > 0 and .result == "FAILURE"' "$DIR/summary.json" >/dev/null
ok $? "a stall warning in a run without stall_cpu: FAILURE"
[ "$RC" = 1 ] || show

# The writer stalls behind a long stall_cpu: reported (???), deliberate.
if [ -n "${SAN:-}" ]; then
	skip "stall_cpu: writer stall" "long test, run without sanitizers"
else
	run stall_long rcutorture.torture_type=rcu rcutorture.stall_cpu=12 rcutorture.stall_cpu_holdoff=0 \
		rcupdate.rcu_cpu_stall_timeout=2 rcutorture.shutdown_secs=14 rcutorture.stat_interval=1 \
		rcutorture.stutter=0 rcutorture.stall_cpu_irqsoff=1
	[ "$RC" = 0 ] && grep -q "??? Writer stall state RTWS_" "$OUT" &&
		grep -q "rcu_torture_stall end" "$OUT" && grep -q "signals blocked" "$OUT" &&
		[ "$(grep -c "detected .*stalls on CPUs/tasks:" "$OUT")" -ge 2 ] &&
		jq -e '.stalls > .rcu_stalls and .result == "SUCCESS"' "$DIR/summary.json" >/dev/null
	st=$?
	ok $st "stall_cpu=12: writer stall and repeated warnings reported, not a failure ($ELAPSED s)"
	if [ $st != 0 ]; then
		show 30
		jq -c '{stalls, rcu_stalls, result, reason}' "$DIR/summary.json" | sed 's/^/#   /'
	fi
fi

done_testing
