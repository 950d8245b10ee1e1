#!/bin/bash
# refscale and rcuscale on Tiny RCU (make TINY=1, built here into
# BUILD_DIR/tiny with the run's sanitizer; torture/perf/up.c): where this
# process may make threads SCHED_FIFO, every test of both programs runs
# with all its threads on one CPU under SCHED_FIFO, and ends: a thread
# that looped without yielding would keep the others off the CPU for good
# (the measurement watchdog, one priority above, then fails the run).
# The figures are not judged, but they must show the threads took turns:
# refscale's updater made grace periods beside its readers, rcuscale's
# readers took their turns between the writers' grace periods.  Every JSON line says the RCU
# was Tiny RCU, on one CPU.  Without CAP_SYS_NICE (dropped by setpriv)
# --check and a run exit 4 naming why, nothing measured.
. "$(dirname "$0")/../lib/torture_prog.sh"

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi
TINY=$BUILD_DIR/tiny
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "${TOP:-.}" -s TINY=1 ${SAN:+SAN=$SAN} BUILD="$TINY" \
	"$TINY/refscale" "$TINY/rcuscale" >"$T_TMP/make.log" 2>&1; then
	ok 1 "make TINY=1 refscale rcuscale"
	sed 's/^/# /' "$T_TMP/make.log" | tail -n 20
	done_testing
	exit
fi
WHY="Tiny RCU needs its threads SCHED_FIFO on one CPU, refused here (CAP_SYS_NICE, run as root)"

# perf NAME PROG ARGS...: PROG with --json $T_TMP/NAME.jsonl and a short
# watchdog; sets RC, OUT, JSON.
perf() {
	local name=$1 prog=$2
	shift 2
	OUT=$T_TMP/$name.log
	JSON=$T_TMP/$name.jsonl
	timeout -k 5 90 "${T_WRAP[@]}" "$TINY/$prog" --json "$JSON" "$prog.timeout=20" "$@" \
		>"$OUT" 2>&1
	RC=$?
}

# ran_tiny: the run ended well, said so on its table, and every JSON line
# of it says Tiny RCU on one CPU; extra jq condition on the lines ($1).
ran_tiny() {
	[ "$RC" = 0 ] && grep -q "Tiny RCU: every thread on CPU [0-9]*, SCHED_FIFO priority 1" "$OUT" &&
		jq -s -e "length > 0 and all(.[]; .host.rcu == \"tiny\" and (.host.up_cpu | type) == \"number\")
			and ${1:-true}" "$JSON" >/dev/null && return 0
	tail -n 5 "$OUT" | sed 's/^/#   /'
	return 1
}

SUMS='[.[] | select(.kind == "summary")]'
if chrt -f 2 true 2>/dev/null; then
	perf ref refscale refscale.scale_type=rcu,sched refscale.nreaders=1,2 refscale.updater=0,1 \
		refscale.nruns=1 refscale.loops=2000
	ran_tiny "($SUMS | length) == 8 and all(${SUMS}[] | select(.params.updater == 1);
		.figures.updater_gps_per_s.median > 0)"
	ok $? "refscale on one CPU: rcu and sched, 1 and 2 readers, the updater's grace periods beside them (status $RC)"
	perf gp rcuscale rcuscale.nreaders=2 rcuscale.nwriters=2 rcuscale.nidle=0,2 rcuscale.gp_exp=0,1 \
		rcuscale.gps=50 rcuscale.nruns=1
	# One CPU under SCHED_FIFO runs the threads in a fixed order: a writer
	# that yields after each wait lets each reader do its 64 sections, so
	# about 64 reads a call; one that does not yield, a reader's turn or
	# two in all (about 1).  Not a timing: the ratio of two counts.
	ran_tiny "($SUMS | length) == 4 and all(${SUMS}[]; .figures.n.median == 100
		and .figures.reads_per_s.median >= 8 * .figures.calls_per_s.median)
		and all(.[]; .kind != \"floor\")"
	ok $? "rcuscale gp on one CPU: sync and expedited, the readers took turns with the writers (status $RC)"
	for k in gp_async gp_poll gp_barrier; do
		perf "$k" rcuscale "rcuscale.$k=1" rcuscale.nreaders=1 rcuscale.nwriters=1 \
			rcuscale.gps=50 rcuscale.nruns=1
		ran_tiny "($SUMS | length) == 1"
		ok $? "rcuscale $k=1 on one CPU (status $RC)"
	done
	perf kfree rcuscale rcuscale.kfree_rcu_test=1 rcuscale.kfree_loops=2 \
		rcuscale.kfree_alloc_num=2000 rcuscale.nruns=1
	ran_tiny "($SUMS | length) == 1 and ${SUMS}[0].figures.cbs.median == 4000
		and (${SUMS}[0].figures.bytes_per_cb.median | type) == \"number\""
	ok $? "rcuscale kfree_rcu_test=1 on one CPU: callbacks, and their memory held off by the queueing thread's own section (status $RC)"
	nocap_prefix
else
	for t in "refscale" "rcuscale gp" "rcuscale gp_async" "rcuscale gp_poll" "rcuscale gp_barrier" \
		"rcuscale kfree"; do
		skip "$t on Tiny RCU" "SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	done
	NOCAP=(env)
fi
if [ ${#NOCAP[@]} -gt 0 ]; then
	for p in refscale rcuscale; do
		out=$("${NOCAP[@]}" "$TINY/$p" --check 2>&1)
		rc=$?
		[ "$rc" = 4 ] && [ "$out" = "$p: torture type rcu: $WHY" ]
		ok $? "no CAP_SYS_NICE: $p --check exits 4 naming why (status $rc: $out)"
	done
	T_WRAP=("${NOCAP[@]}")
	perf nocap refscale refscale.nruns=1
	T_WRAP=()
	[ "$RC" = 4 ] && grep -q "$WHY" "$OUT" && [ ! -s "$JSON" ]
	ok $? "no CAP_SYS_NICE: a run exits 4 naming why, nothing measured (status $RC)"
else
	skip "no CAP_SYS_NICE: refscale --check" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
	skip "no CAP_SYS_NICE: rcuscale --check" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
	skip "no CAP_SYS_NICE: a run" "cannot drop CAP_SYS_NICE here (setpriv, prlimit as root)"
fi
done_testing
