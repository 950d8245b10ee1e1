#!/bin/bash
# rcutorture and callback offloading: the rcu_nocb_toggle threads
# (rcutorture.nocbs_nthreads, nocbs_toggle) switch CPUs under load and
# the run stays clean; the stats line's "nocb-toggles: x:y" and
# stats.jsonl count the switches; an RCU started without rcu_nocbs
# refuses them (noted once), a type without offloading ignores the
# parameter (noted); the parameters are checked.
. "$(dirname "$0")/../lib/torture_prog.sh"

secs=$(short_secs 3 4)
run toggle nr_cpus=6 rcutorture.nreaders=3 rcu_nocbs=all rcutorture.nocbs_nthreads=2 \
	rcutorture.nocbs_toggle=10 rcutorture.n_barrier_cbs=2 rcutorture.shutdown_secs="$secs" \
	rcutorture.stat_interval=1
[ "$RC" = 0 ] && [ "$(tail -n 1 "$OUT" | grep -c '^rcu-torture:--- End of test: SUCCESS: ')" = 1 ]
ok $? "two toggle threads switching every 10 ms: SUCCESS ($ELAPSED s)"
[ "$RC" = 0 ] || show
last=$(grep -o 'nocb-toggles: [0-9]*:[0-9]*$' "$OUT" | tail -n 1)
[[ $last =~ ^nocb-toggles:\ ([0-9]+):([0-9]+)$ ]] && ((BASH_REMATCH[1] > 0 && BASH_REMATCH[2] > 0))
ok $? "the stats line counts offloads and de-offloads ($last)"
jq -e 'select(.final) | .nocb_toggles.offload > 0 and .nocb_toggles.deoffload > 0' \
	"$DIR/stats.jsonl" >/dev/null
ok $? "stats.jsonl: nocb_toggles"
grep -q "rcu_nocb_toggle task started" "$OUT" && grep -q "nocbs_nthreads=2 nocbs_toggle=10" "$OUT"
ok $? "the threads started; the Start line echoes the parameters"

run refused nr_cpus=4 rcutorture.nocbs_nthreads=1 rcutorture.nocbs_toggle=10 \
	rcutorture.shutdown_secs=2 rcutorture.stat_interval=1
[ "$RC" = 0 ] && [ "$(grep -c 'rcu_nocb_toggle: rcu refused to .*offload CPU [0-9]*: Invalid argument' "$OUT")" = 1 ] &&
	grep -q 'nocb-toggles: 0:0$' "$OUT"
ok $? "without rcu_nocbs every switch is refused: noted once, 0:0, still SUCCESS"

run srcu rcutorture.torture_type=srcu nr_cpus=4 rcutorture.nocbs_nthreads=1 \
	rcutorture.shutdown_secs=1 rcutorture.stat_interval=0
[ "$RC" = 0 ] && grep -q "nocbs_nthreads ignored: srcu cannot switch callback offloading" "$OUT" &&
	! grep -q "rcu_nocb_toggle task started" "$OUT"
ok $? "a type that cannot switch offloading: nocbs_nthreads ignored, noted"

"$RCUTORTURE" --check rcutorture.nocbs_toggle=0 rcu_nocbs=1-x rcu_nocb_poll \
	rcutree.rcu_nocb_gp_stride=2 rcutree.enable_rcu_lazy=1 rcutree.rcu_idle_lazy_gp_delay=100 \
	>"$T_TMP/check.out" 2>&1
[ $? = 2 ] && grep -qx "error 1: rcutorture.nocbs_toggle: value 0 out of range (1 to 3600000)" "$T_TMP/check.out" &&
	grep -q "^error 2: rcu_nocbs: bad CPU list '1-x'" "$T_TMP/check.out" &&
	[ "$(grep -vc '^note' "$T_TMP/check.out")" = 2 ]
ok $? "--check: the parameters are checked; the library's are known"
[ $? = 0 ] || sed 's/^/#   /' "$T_TMP/check.out"

done_testing
