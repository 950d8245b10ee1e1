#!/bin/bash
# Correct RCUs pass: our types (rcu, rcu_bh, sched, sched-free, trivial) with every
# thread kind enabled, each liburcu flavor, the lib: example plugin.  A
# harness that flags a correct RCU is as broken as one that misses a
# broken one.  Also: object_debug, and stall_cpu: a deliberate stall the
# RCU must warn about (naming the reader), which is then not a failure,
# while a warning nobody asked for is.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=30 rcutorture.stutter=1
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1 rcutorture.read_exit_burst=4
	rcutorture.fqs_duration=2000 rcutorture.fqs_holdoff=200 rcutorture.fqs_stutter=1
	rcutorture.shuffle_interval=1"

for t in rcu rcu_bh sched sched-free trivial; do
	passes "$t"
done
jq -e 'select(.final) | .barrier_ok > 0 and .barrier_errors == 0 and .onoff.off_ok > 0
	and .onoff.on_ok > 0 and .rtmbkf_try > 0 and .nt > 0' "$T_TMP/pass-sched/stats.jsonl" >/dev/null
ok $? "sched: barrier rounds, onoff transitions, mailbox checks, irq reads all happened"
grep -q "rcu_torture_fwd_prog n_max_cbs: [0-9]" "$T_TMP/pass-rcu.log"
ok $? "rcu: a forward-progress callback flood ran"
jq -e 'select(.final) | .read_exits > 0' "$T_TMP/pass-rcu/stats.jsonl" >/dev/null &&
	grep -q "read-exits: [1-9]" "$T_TMP/pass-rcu.log"
ok $? "rcu: read-exit bursts ran"

if ! "$RCUTORTURE" --list-types | grep -qx urcu-memb; then
	skip "liburcu flavors" "liburcu-dev not installed (torture.mk did not build the urcu-* types)"
elif [ "${SAN:-}" = thread ]; then
	skip "liburcu flavors" "liburcu is not built with ThreadSanitizer (false reports)"
else
	for t in urcu-memb urcu-mb urcu-signal urcu-qsbr; do
		passes "$t"
	done
	if [ "${SAN:-}" = address ]; then
		# liburcu 0.13's own code: urcu/static/urcu-bp.h:171 "member access
		# within misaligned address ... struct urcu_bp_reader, which
		# requires 128 byte alignment" (its registry arena).
		skip "urcu-bp passes" "UBSan reports misaligned access inside liburcu-bp itself"
	else
		passes urcu-bp
	fi
fi

passes "lib:$PLUGIN"
grep -q "^example-rwlock-torture:--- End of test: SUCCESS" "$OUT"
ok $? "the plugin's own name prefixes the console"
! grep -q "nesting of .* is not tested" "$OUT"
ok $? "the example plugin lists its lock twice: nesting is tested, no warning"
run nonest rcutorture.torture_type=rcu rcutorture.extendables=1 rcutorture.shutdown_secs=1 \
	rcutorture.stat_interval=0
grep -q "rcu_torture_reader: nesting of rcu's read-side sections is not tested" "$OUT"
ok $? "extendables leaving one lock: the untested nesting is said once"

# object_debug: our library reports the duplicate call_rcu() with
# debug_objects=1; the run still succeeds (the misuse was on purpose).
run objdebug rcutorture.torture_type=rcu rcutorture.object_debug=1 debug_objects=1 \
	rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && grep -q "rcu_test_debug_objects: duplicated callback was detected" "$OUT" &&
	grep -q "ODEBUG: activate active" "$OUT"
ok $? "object_debug=1 debug_objects=1: the duplicate call_rcu() is reported, SUCCESS"
run objdebug_off rcutorture.torture_type=rcu rcutorture.object_debug=1 debug_objects=0 \
	rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && grep -q "rcu_test_debug_objects: Not testing" "$OUT"
ok $? "object_debug=1 without debug objects: not tested (a duplicate would corrupt)"

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
