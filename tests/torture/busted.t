#!/bin/bash
# The harness catches deliberately broken RCUs, each within 30 seconds on
# this machine (stop_on_error ends the run at the first error): busted
# (grace periods end at once), a grace period that skips one leaf of the
# rcu_node tree (rcutree.fault_skip_leaf), a callback barrier that returns
# early, a reader unlock that drops nesting, a polled-GP check that
# completes one grace period early (one-word and full-state cookies), a
# lost reader unlock (hang), a call_rcu() that loses callbacks, an
# expedited grace period that ignores the readers already inside, one that
# skips the heavy fence; a textbook preemptible RCU whose grace period
# never waits for the reader in the first slot (trivial-preempt-busted);
# and a reader that leaks a pointer out of its section
# (rcutorture.leakpointer).
. "$(dirname "$0")/../lib/torture_prog.sh"

COMMON="rcutorture.shutdown_secs=30 rcutorture.stop_on_error=1 rcutorture.stat_interval=1
	rcutorture.stutter=0 rcutorture.fwd_progress=0"

# caught_for NAME REASON-PATTERN ARGS...: the run ends in FAILURE for
# REASON within 30 s (torture_prog.sh's caught() is the fixed
# too-short-grace-period form for one torture type).
caught_for() {
	local name=$1 pat=$2
	shift 2
	# shellcheck disable=SC2086
	run "$name" $COMMON "$@"
	if [ "$RC" = 1 ] && tail -n 1 "$OUT" | grep -q "End of test: FAILURE: $pat" &&
	   awk -v e="$ELAPSED" 'BEGIN { exit !(e < 30) }' &&
	   jq -e '.result == "FAILURE" and .exit_status == 1' "$DIR/summary.json" >/dev/null; then
		ok 0 "$name caught in $ELAPSED s: $pat"
	else
		ok 1 "$name caught within 30 s (status $RC, $ELAPSED s)"
		show
	fi
}

caught_for busted "too-short grace period" rcutorture.torture_type=busted
grep -q "^busted-torture: !!! Reader Pipe:" "$OUT"; ok $? "busted: the !!! marker on Reader Pipe"
grep -q "Failure/close-call rcutorture reader segments: (failure" "$OUT"
ok $? "busted: the failing read's segments are dumped"
jq -e '.errors.gp_oracle > 0 and .oracle_checks > 0 and .first_error_s < 30' "$DIR/summary.json" >/dev/null
ok $? "busted: the exact oracle caught it too (summary.json errors.gp_oracle, first_error_s)"
grep -q "!!! Oracle: reader -\?[0-9]* still holds an element removed at ticket" "$OUT"
ok $? "busted: the oracle's first catch is described"

# Two slots per leaf: the readers (slots 2.. after the library's two
# callback threads) sit in leaves 1 and 2; leaf 1's holdouts are ignored.
caught_for skip_leaf "\(too-short grace period\|polled grace-period cookie\)" rcutorture.torture_type=rcu rcutorture.nreaders=4 \
	rcutree.rcu_fanout_leaf=2 rcutree.fault_skip_leaf=1 rcutorture.read_exit_burst=0

caught_for busted_barrier "callback barrier error" rcutorture.torture_type=busted_barrier \
	rcutorture.n_barrier_cbs=4
caught_for busted_unlock "too-short grace period" rcutorture.torture_type=busted_unlock
caught_for busted_poll "" rcutorture.torture_type=busted_poll rcutorture.gp_poll=1
grep -Eq "Cookie check 2|!!! Reader Pipe" "$OUT"; ok $? "busted_poll: a cookie check or the pipeline fired"
caught_for busted_poll_full "" rcutorture.torture_type=busted_poll_full rcutorture.gp_poll_full=1
grep -Eq "Cookie check 6|!!! Reader Pipe" "$OUT" && ! grep -q "Cookie check 2" "$OUT"
ok $? "busted_poll_full: the full-state cookie check or the pipeline fired (its one-word cookies are right)"

# A lost rcu_read_unlock(): grace periods hang; the hang watchdog fires
# gp_hang_timeout (here 3) seconds after a wait began with no grace period
# completing, naming the waiter; the writer-stall check would take 10 s.
caught_for busted_hang "grace-period hang: no grace period ended" rcutorture.torture_type=busted_hang \
	rcutorture.gp_hang_timeout=3
grep -q "??? Grace-period hang: no grace period completed for [0-9.]* s while rcu_torture_[a-z]* waits in [a-z]*$" "$OUT" &&
	grep -q "??? Writer stall state RTWS_[A-Z_]*([0-9]*) g-\?[0-9]* f0x0" "$OUT" &&
	grep -q "^busted_hang-torture: rcu_preempt: g.* RCU_GP_" "$OUT"
ok $? "busted_hang: the waiter, the writer's state and the RCU's grace-period state are reported"

# call_rcu() that loses a callback: the leak check after a stutter pause
# finds the element whose callback chain stopped.
caught_for busted_lostcb "callback lost (leak check)" rcutorture.torture_type=busted_lostcb \
	rcutorture.stutter=1 rcutorture.gp_normal=1
grep -q "rtort_pipe_count: [0-9]*: element [0-9]* lost its callback" "$OUT"
ok $? "busted_lostcb: the lost element is named"

# Expedited grace periods: all updates expedited (synchronous, cond, poll).
caught_for busted_exp "too-short grace period" rcutorture.torture_type=busted_exp \
	rcutorture.gp_exp=1 rcutorture.gp_cond_exp=1 rcutorture.gp_poll_exp=1
caught_for busted_exp_fence "too-short grace period" rcutorture.torture_type=busted_exp_fence \
	rcutorture.gp_exp=1

# The textbook preemptible RCU, its synchronize() taking an unregistered
# updater's "no slot" for slot 0: slot 0's reader is never waited for.
caught_for trivial-preempt-busted "too-short grace period" \
	rcutorture.torture_type=trivial-preempt-busted

# The same leaf fault is harmless when no reader is in the skipped leaf.
run skip_empty_leaf rcutorture.torture_type=rcu rcutorture.nreaders=1 rcutorture.stutter=0 \
	rcutree.rcu_fanout_leaf=2 rcutree.fault_skip_leaf=5 rcutorture.read_exit_burst=0 \
	rcutorture.shutdown_secs="$(short_secs 2 3)" rcutorture.stat_interval=1
ok "$RC" "fault_skip_leaf on an empty leaf: SUCCESS (no false alarm)"

# The kernel's leakpointer: readers keep an element past rcu_read_unlock();
# its use after the grace period is caught (the expected failure).
caught_for leakpointer "leakpointer: a pointer leaked out of a read-side section" \
	rcutorture.torture_type=rcu rcutorture.leakpointer=1
grep -q "WARNING: leakpointer: element .* used after rcu_read_unlock() and a grace period" "$OUT"
ok $? "leakpointer: the WARNING names the element"

done_testing
