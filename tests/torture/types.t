#!/bin/bash
# Correct RCUs pass: our types (rcu, rcu_bh, sched, sched-free, trivial,
# trivial-preempt) with every
# thread kind enabled, each liburcu flavor, the lib: example plugin.  A
# harness that flags a correct RCU is as broken as one that misses a
# broken one.  Also: object_debug.  (The stall tests: stall.t.)
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=30 rcutorture.stutter=1
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1 rcutorture.read_exit_burst=4
	rcutorture.fqs_duration=2000 rcutorture.fqs_holdoff=200 rcutorture.fqs_stutter=1
	rcutorture.shuffle_interval=1"

for t in rcu rcu_bh sched sched-free trivial trivial-preempt; do
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

tsan_skip="skip 1: torture_type=urcu-memb is not run under ThreadSanitizer: its library is not instrumented, so TSan cannot see its ordering (its reports would be false)"
if ! "$RCUTORTURE" --list-types | grep -qx urcu-memb; then
	skip "liburcu flavors" "liburcu-dev not installed (torture.mk did not build the urcu-* types)"
elif [ "${SAN:-}" = thread ]; then
	# Not run under TSan: --check finds it a skip (torture.sh: SKIPPED).
	[ "$("$RCUTORTURE" --check rcutorture.torture_type=urcu-memb)" = "$tsan_skip" ]
	ok $? "under ThreadSanitizer, an uninstrumented library's type is refused as a skip, naming why"
else
	# The plain build checks a KCSAN scenario's plan as the TSan build
	# would run it (bin/lib/scenario.sh), and only then refuses.
	[ "$("$RCUTORTURE" --check=tsan rcutorture.torture_type=urcu-memb)" = "$tsan_skip" ] &&
		! "$RCUTORTURE" --check rcutorture.torture_type=urcu-memb | grep -q '^skip' &&
		! "$RCUTORTURE" --check=tsan rcutorture.torture_type=rcu | grep -q '^skip'
	ok $? "--check=tsan: the plain build refuses an uninstrumented library's type as the TSan build does (not ours, not without =tsan)"
	for t in urcu-memb urcu-mb urcu-signal urcu-qsbr; do
		passes "$t"
	done
	# Under ASan too: liburcu-bp's misaligned reader (its own arena) is
	# left out of UBSan's alignment check for that adapter (torture.mk).
	passes urcu-bp
fi

passes "lib:$PLUGIN"
grep -q "^example-rwlock-torture:--- End of test: SUCCESS" "$OUT"
ok $? "the plugin's own name prefixes the console"
! grep -q "nesting of .* is not tested" "$OUT"
ok $? "the example plugin lists its lock twice: nesting is tested, no warning"
# A plugin with its own reader slots (torture/examples/plugin_slots.c):
# correct, so SUCCESS; its readers register in a seeded order among
# fillers and move over the registry during the run (torture/regorder.c).
passes "lib:$(dirname "$PLUGIN")/libtorture_slots.so" rcutorture.onoff_interval=0
grep -qE "^slots-torture: regorder: slots registers its own slots: readers registered readers (first|last|interleaved) \([0-9]+ fillers\)" "$OUT" &&
	grep -qE "^slots-torture: regorder: readers registered again, readers (first|last|interleaved), [0-9]+ fillers" "$OUT"
ok $? "the slot plugin: its readers register in a seeded order at start and again during the run" || show
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

done_testing
