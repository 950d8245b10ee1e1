#!/bin/bash
# The RCU Tasks Trace torture types: tasks-tracing passes with every
# thread kind enabled (readers that never registered, sleeping in their
# sections, nesting rcu_read_lock_trace() and handing off between nesting
# levels, signal-handler reads, two forward-progress threads flooding
# call_rcu_tasks_trace()), also with heavyweight readers
# (rcupdate.rcu_tasks_trace_read_mb=1, CONFIG_TASKS_TRACE_RCU_READ_MB);
# tasks-tracing-busted (trace readers, rcu grace periods) must be caught;
# refscale and rcuscale measure it.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.stutter=1 rcutorture.fwd_progress=2
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1
	rcutorture.read_exit_burst=4 rcutorture.shuffle_interval=1"

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi

passes tasks-tracing
LOG=$T_TMP/pass-tasks-tracing.log
jq -e 'select(.final) | .barrier_ok > 0 and .barrier_errors == 0 and .nt > 0 and .gps > 0' \
	"$T_TMP/pass-tasks-tracing/stats.jsonl" >/dev/null
ok $? "tasks-tracing: barriers, grace periods and signal-handler reads happened"
grep -q "Tree SRCU g-\?[0-9]* state [0-2] (rcu_tasks_trace) per-thread(idx=[01]): T(" "$LOG"
ok $? "tasks-tracing: its grace periods are the rcu_tasks_trace domain's"
[ "$(grep -c "rcu_torture_fwd_progress task started" "$LOG")" = 2 ]
ok $? "tasks-tracing: fwd_progress=2 runs two forward-progress threads"
jq -e '(.ignored | length) == 0 and (.unhonoured | length) == 0' \
	"$T_TMP/pass-tasks-tracing/summary.json" >/dev/null
ok $? "tasks-tracing: no parameter ignored or not honoured"

passes_as tasks-tracing-mb tasks-tracing rcupdate.rcu_tasks_trace_read_mb=1

caught tasks-tracing-busted tasks-tracing-busted

# The perf programs: refscale under the kernel's refscale name (rcu-trace),
# rcuscale under rcutorture's (the kernel's rcuscale TRACE01).
"$BUILD_DIR/refscale" refscale.scale_type=rcu-trace refscale.nreaders=1 refscale.nruns=1 \
	refscale.loops=200 >"$T_TMP/ref.out" 2>&1 &&
	grep -q "^tasks-tracing  *nreaders=1" "$T_TMP/ref.out"
ok $? "refscale.scale_type=rcu-trace (the kernel's refscale name) measures tasks-tracing"
"$BUILD_DIR/rcuscale" rcuscale.scale_type=tasks-tracing rcuscale.nruns=1 >"$T_TMP/rcus.out" 2>&1 &&
	grep -q "^tasks-tracing " "$T_TMP/rcus.out"
ok $? "rcuscale.scale_type=tasks-tracing measures its grace periods"

done_testing
