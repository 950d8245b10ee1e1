#!/bin/bash
# The RCU Tasks torture types: tasks (readers without markers, that must
# not block) and tasks-rude (Rude regions) pass with every thread kind
# enabled (barriers, forward progress, read-exit, signal-handler reads);
# their busted variants (grace periods that end at once) are caught; a
# reader that stalls (stall_cpu: spins without blocking, or in a Rude
# region) gets a stall warning naming it after rcupdate.rcu_task_stall_timeout.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.stutter=1 rcutorture.fwd_progress_holdoff=1
	rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1 rcutorture.read_exit_burst=4
	rcutorture.shuffle_interval=1 rcupdate.rcu_task_enqueue_lim=2"

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi

for t in tasks tasks-rude; do
	passes "$t"
	jq -e 'select(.final) | .barrier_ok > 0 and .barrier_errors == 0 and .nt > 0 and .gps > 0' \
		"$T_TMP/pass-$t/stats.jsonl" >/dev/null
	ok $? "$t: barriers, grace periods and signal-handler reads happened"
done

caught tasks-busted tasks-busted rcutorture.fwd_progress=0
caught tasks-rude-busted tasks-rude-busted rcutorture.fwd_progress=0

# stalled TYPE FLAVOR: stall_cpu=2 against a 500 ms stall timeout.
stalled() {
	run "stall-$1" rcutorture.torture_type="$1" rcutorture.shutdown_secs=5 \
		rcutorture.stall_cpu=2 rcutorture.stall_cpu_holdoff=1 rcutorture.stat_interval=1 \
		rcutorture.fwd_progress=0 rcupdate.rcu_task_stall_timeout=500
	if [ "$RC" = 0 ] && tail -n 1 "$OUT" | grep -q "End of test: SUCCESS" &&
	   grep -q "^rcu: INFO: $2 detected stalls on CPUs/tasks:" "$OUT" &&
	   grep -q "rcu_torture_stall_nf: $2 stall for [0-9]* ms, [0-9]* holdouts\?, the stalled reader among them" "$OUT"; then
		ok 0 "$1: the stalled reader is named by a $2 stall warning"
	else
		ok 1 "$1: the stalled reader is named by a $2 stall warning (status $RC)"
		show
	fi
}
stalled tasks rcu_tasks
stalled tasks-rude rcu_tasks_rude

done_testing
