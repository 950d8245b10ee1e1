#!/bin/bash
# The SRCU torture types: srcu (static domain), srcud (dynamic, re-created
# every second), srcum (300 domains at once) pass with every thread kind
# enabled, readers sleeping in their sections and signal-handler reads;
# srcu_busted (rcu_read_lock() counted as SRCU protection) must be caught.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=30 rcutorture.stutter=1
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1
	rcutorture.read_exit_burst=4 rcutorture.shuffle_interval=1"

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi

for t in srcu srcud srcum; do
	passes "$t"
done
jq -e 'select(.final) | .barrier_ok > 0 and .barrier_errors == 0 and .nt > 0 and .gps > 0' \
	"$T_TMP/pass-srcud/stats.jsonl" >/dev/null &&
	grep -q "srcud: generation [0-9]*, [1-9][0-9]* re-creations" "$T_TMP/pass-srcud.log"
ok $? "srcud: re-created while running; barriers, grace periods and signal-handler reads by unregistered readers happened"
grep -q "Tree SRCU g-\?[0-9]* state [0-2] (srcu_ctl) per-thread(idx=[01]): T(" "$T_TMP/pass-srcu.log"
ok $? "srcu: the SRCU stats line"
grep -q "srcum: 300 domains (ids [0-9]*\.\.[0-9]*)" "$T_TMP/pass-srcum.log"
ok $? "srcum: 300 domains"

run srcu_busted rcutorture.torture_type=srcu_busted rcutorture.shutdown_secs=30 \
	rcutorture.stop_on_error=1 rcutorture.stat_interval=1 rcutorture.stutter=0
if [ "$RC" = 1 ] && tail -n 1 "$OUT" | grep -q "End of test: FAILURE: too-short grace period" &&
   grep -q "^srcu_busted-torture: !!! Reader Pipe:" "$OUT" &&
   jq -e '.result == "FAILURE"' "$DIR/summary.json" >/dev/null; then
	ok 0 "srcu_busted caught in $ELAPSED s: too-short grace period"
else
	ok 1 "srcu_busted caught within 30 s (status $RC, $ELAPSED s)"
	show
fi
grep -q "Failure/close-call rcutorture reader segments: (failure" "$OUT" &&
	grep -A12 "Failure/close-call rcutorture reader segments: (failure" "$OUT" | grep -q "RCU"
ok $? "srcu_busted: the failing read's segments are dumped (an RCU-only segment among them)"

done_testing
