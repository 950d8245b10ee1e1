#!/bin/bash
# rcutorture on Tiny RCU (make TINY=1, built here into BUILD_DIR/tiny with
# the run's sanitizer; docs/design/tiny.md): where this process may make
# threads SCHED_FIFO, rcu and sched pass with every thread kind that means
# something on one CPU (every thread on one CPU under SCHED_FIFO, the
# forward-progress flood and reader loop included), and the busted type
# (callbacks run from call()) FAILS on a callback queued inside a section
# (cb_early).  Without CAP_SYS_NICE (dropped by setpriv where we have it)
# --check says skip, and a run is refused naming the reason (exit 2).
# Tree RCU's parameters (rcutree.*, the stall timeouts) are ignored with
# the reason, as a Tiny kernel drops them; the urcu-* types are listed as
# not in this build (not "install liburcu-dev").
. "$(dirname "$0")/../lib/torture_prog.sh"

TINY=$BUILD_DIR/tiny
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "${TOP:-.}" -s TINY=1 ${SAN:+SAN=$SAN} BUILD="$TINY" \
	"$TINY/rcutorture" >"$T_TMP/make.log" 2>&1; then
	ok 1 "make TINY=1 rcutorture"
	sed 's/^/# /' "$T_TMP/make.log" | tail -n 20
	done_testing
	exit
fi
RCUTORTURE=$TINY/rcutorture
# liburcu's types are absent from the Tiny build whether liburcu-dev is
# installed or not: it says why, not what to install.
out=$("$RCUTORTURE" --list-types | grep '^urcu-')
[ "$(grep -c "(not in this build: the Tiny RCU build has only Tiny RCU's types)$" <<<"$out")" = 5 ]
ok $? "the Tiny build lists the urcu-* types as not in this build, for the true reason"
SECS=$(short_secs 3 4)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=2
	rcutorture.n_barrier_cbs=2 rcutorture.stutter=1 rcutorture.fwd_progress_holdoff=1
	rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1 rcutorture.read_exit_burst=4
	rcutorture.object_debug=1 debug_objects=1 nr_cpus=1"
WHY="needs its threads SCHED_FIFO on one CPU, refused here (CAP_SYS_NICE: run as root)"

if chrt -f 2 true 2>/dev/null; then
	for t in rcu sched; do
		passes "$t"
	done
	grep -q "Tiny RCU: every thread on CPU [0-9]*, SCHED_FIFO priority 1 (watchers at 2)" \
		"$T_TMP/pass-rcu.log" &&
		grep -q "rcu_torture_fwd_prog n_max_cbs: [0-9]" "$T_TMP/pass-rcu.log" &&
		grep -q "duplicated callback was detected" "$T_TMP/pass-rcu.log"
	ok $? "rcu: on one CPU under SCHED_FIFO, a forward-progress flood ran, object_debug caught the duplicate"
	# shellcheck disable=SC2086
	run busted rcutorture.torture_type=busted $ALL
	[ "$RC" = 1 ] && tail -n 1 "$OUT" | grep -q "FAILURE: callback invoked before its grace period ended" &&
		grep -q "a callback queued inside a read-side section ran before the section ended" "$OUT"
	ok $? "busted on Tiny RCU: FAILURE, a callback queued inside a section ran in it (status $RC)"
	out=$("$RCUTORTURE" --check nr_cpus=1 rcutree.gp_init_delay=3 rcutorture.bogus=1)
	[ $? = 2 ] && grep -q "^ignored 2: rcutree.gp_init_delay=3: ignored: Tree RCU's" <<<"$out" &&
		grep -q "^error 3: unknown parameter 'rcutorture.bogus'" <<<"$out"
	ok $? "Tree RCU's parameters are ignored on Tiny RCU, as a Tiny kernel drops them; a typo is still an error"
	nocap_prefix
else
	skip "rcu passes on Tiny RCU" "SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	skip "sched passes on Tiny RCU" "SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	skip "busted on Tiny RCU fails" "SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	skip "Tree RCU's parameters on Tiny RCU" "SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	NOCAP=(env)
fi
if [ ${#NOCAP[@]} -gt 0 ]; then
	out=$("${NOCAP[@]}" "$RCUTORTURE" --check nr_cpus=1) &&
		[ "$out" = "skip 0: torture_type=rcu (Tiny RCU) $WHY" ]
	ok $? "no CAP_SYS_NICE: --check says skip, naming why: $out"
	T_WRAP=("${NOCAP[@]}")
	run nocap nr_cpus=1 rcutorture.shutdown_secs=1
	# shellcheck disable=SC2034  # run() reads it
	T_WRAP=()
	[ "$RC" = 2 ] && grep -q "$WHY" "$OUT" && ! grep -q "End of test" "$OUT"
	ok $? "no CAP_SYS_NICE: a run is refused (status $RC), nothing run, never SUCCESS"
else
	skip "no CAP_SYS_NICE: --check" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
	skip "no CAP_SYS_NICE: run" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
fi
done_testing
