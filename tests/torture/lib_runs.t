#!/bin/bash
# The other projects' RCUs under the harness, briefly (docs/other-rcus.md):
# Concurrency Kit's ck_epoch (ck-epoch) and DPDK's rte_rcu_qsbr through
# its full scan (dpdk-qsbr-scan) end in SUCCESS with every thread kind
# their hooks allow; their busted adapters (grace periods that end at
# once) end in FAILURE; --list-types=long says what each provides.  The
# faithful dpdk-qsbr is not run here: DPDK 22.11's rte_rcu_qsbr_check()
# shortcut makes it fail, within seconds but not every time.
. "$(dirname "$0")/../lib/torture_prog.sh"

SECS=$(short_secs 4 5)
ALL="rcutorture.shutdown_secs=$SECS rcutorture.stat_interval=1 rcutorture.nreaders=3
	rcutorture.n_barrier_cbs=2 rcutorture.onoff_interval=30 rcutorture.stutter=1
	rcutorture.fwd_progress_holdoff=1 rcutorture.fwd_progress_div=16 rcutorture.read_exit_delay=1
	rcutorture.read_exit_burst=4 rcutorture.shuffle_interval=1"

# lib TYPE PACKAGE: whether TYPE is built; a SKIP naming PACKAGE if not.
lib() {
	if ! "$RCUTORTURE" --list-types | grep -qx "$1"; then
		skip "$1" "$2 not installed (torture.mk did not build the $1 types)"
		return 1
	elif [ "${SAN:-}" = thread ]; then
		skip "$1" "$2 is not built with ThreadSanitizer (false reports)"
		return 1
	fi
}

if lib ck-epoch libck-dev; then
	"$RCUTORTURE" --list-types=long | grep -qx "ck-epoch flags=- has=sync,call,barrier,nesting,register lacks=.*"
	ok $? "--list-types=long: ck-epoch nests, has callbacks and a barrier, no flags"
	passes ck-epoch
	grep -q "rcu_torture_fwd_prog n_max_cbs: [0-9]" "$OUT" &&
		jq -e 'select(.final) | .barrier_ok > 0 and .onoff.on_ok > 0 and .read_exits > 0' \
			"$DIR/stats.jsonl" >/dev/null
	ok $? "ck-epoch: a callback flood, barrier rounds, onoff and read-exits ran"
	caught ck-epoch-busted ck-epoch-busted
fi

if lib dpdk-qsbr libdpdk-dev; then
	"$RCUTORTURE" --list-types=long | grep -qx "dpdk-qsbr flags=qsbr,cb-adapter has=sync,call,barrier,nesting,poll,register,numbered-cpus,online-offline lacks=.*"
	ok $? "--list-types=long: dpdk-qsbr is QSBR, its callbacks are the adapter's, it has polled grace periods"
	passes dpdk-qsbr-scan rcutorture.gp_poll=1 rcutorture.gp_cond=1 rcutorture.gp_sync=1 \
		rcutorture.gp_normal=1
	jq -e 'select(.final) | .barrier_ok > 0 and .onoff.on_ok > 0' "$DIR/stats.jsonl" >/dev/null &&
		grep -q "rcu_torture_write_types: Testing 4 update types" "$OUT"
	ok $? "dpdk-qsbr-scan: polled and conditional grace periods, barriers and onoff ran"
	caught dpdk-qsbr-busted dpdk-qsbr-busted
fi

done_testing
