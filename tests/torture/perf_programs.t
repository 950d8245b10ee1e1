#!/bin/bash
# The perf programs (build/refscale, build/rcuscale): each runs briefly
# for every torture type and writes JSON lines with the documented keys
# (checked with jq); every grace-period kind, the callbacks test and the
# idle-thread sweep run; the targets line appears when ours and liburcu's
# are measured side by side; a type whose grace periods never end or
# whose callbacks get lost fails the run; bad input is a one-line error
# naming the argument, exit 2.  Figures are never judged: speed is not
# tested.
. "$(dirname "$0")/../lib/torture_prog.sh"

REFSCALE=${BUILD_DIR:-build}/refscale
RCUSCALE=${BUILD_DIR:-build}/rcuscale

if ! command -v jq >/dev/null 2>&1; then
	echo "1..0 # SKIP jq not installed (Debian package jq)"
	exit 0
fi

# perf NAME PROG ARGS...: run PROG with --json $T_TMP/NAME.jsonl; sets RC,
# OUT (the table and stderr), JSON.
perf() {
	local name=$1 prog=$2
	shift 2
	OUT=$T_TMP/$name.log
	JSON=$T_TMP/$name.jsonl
	timeout -k 5 120 "$prog" --json "$JSON" "$@" >"$OUT" 2>&1
	RC=$?
}

# The keys every line has, and those of each kind (jq: true or false).
HOST='(.host | has("cores") and has("kernel") and has("membarrier") and has("liburcu")
	and has("loadavg") and (.cores | type) == "number" and (.membarrier | type) == "boolean"
	and .rcu == "tree" and has("up_cpu") and .up_cpu == null)'
REF_FIGS='["empty_ns","nested_ns","net_ns","ns","updater_gps_per_s","wall_ns"]'
REF_PARAMS='["loops","nreaders","qs_interval","read_flavor","read_section","readdelay","updater","updater_holdoff"]'
GP_FIGS='["calls_per_s","cpu_per_call_us","cpu_per_gp_us","gps_per_call","gps_per_s",
	"lib_cpu_per_call_us","max_us","mean_us","min_us","n","p50_us","p90_us","p99_us","reads_per_s"]'
GP_PARAMS='["gp","gp_exp","gps","nidle","nreaders","nwriters","pin","writer_holdoff"]'
CB_FIGS='["bytes_per_cb","cbs","invoked_per_s","queued_per_s"]'

# json_ok FILE PROG TEST FIGS PARAMS RUNS CELLS: every line is JSON; the
# run lines carry the figures as numbers (or null), the summary lines
# median/min/max of each; RUNS x CELLS run lines, CELLS summaries.
json_ok() {
	local f=$1 prog=$2 test=$3 figs=$4 params=$5 runs=$6 cells=$7
	jq -e . "$f" >/dev/null &&
	jq -s -e --arg prog "$prog" --arg test "$test" --argjson figs "$figs" \
		--argjson params "$params" --argjson runs "$runs" --argjson cells "$cells" '
		[.[] | select(.kind == "run" or .kind == "summary")] as $m
		| ($m | length) == $runs * $cells + $cells
		and all($m[]; .prog == $prog and .test == $test and (.flavor | type) == "string"
			and (.params | keys - $params) == [] and ($params - (.params | keys)) == []
			and (.figures | keys) == $figs and '"$HOST"')
		and ([$m[] | select(.kind == "run")] | length) == $runs * $cells
		and all($m[] | select(.kind == "run"); (.run | type) == "number"
			and all(.figures[]; type == "number" or type == "null"))
		and all($m[] | select(.kind == "summary"); .runs == $runs
			and all(.figures[]; has("median") and has("min") and has("max")))' \
		"$f" >/dev/null
}

# The types to run: all built ones the program's --check accepts.  Under
# TSan it refuses exactly another project's library types (liburcu, ck,
# DPDK: not instrumented, exit 4 naming why); elsewhere none.
types=$("$REFSCALE" --list-types | awk 'NF == 1')	# "NAME (why)": not built
[ -n "$types" ]
ok $? "refscale --list-types lists the torture types"
skipped="" want_skipped="" run_types="" why_ok=0
for t in $types; do
	case "$t:${SAN:-}" in
	urcu-*:thread | ck-*:thread | dpdk-*:thread) want_skipped="$want_skipped $t" ;;
	esac
	out=$("$REFSCALE" --check refscale.scale_type="$t" 2>&1) && { run_types="$run_types $t"; continue; }
	rc=$?
	skipped="$skipped $t"
	[ "$rc" = 4 ] && [[ $out == *"torture_type=$t is not run under ThreadSanitizer: its library is not instrumented"* ]] ||
		{ diag "refscale --check refscale.scale_type=$t: exit $rc: $out"; why_ok=1; }
done
[ "$skipped" = "$want_skipped" ] && [ "$why_ok" = 0 ]
ok $? "refscale --check refuses exactly the uninstrumented libraries' types under TSan, naming why (SAN=${SAN:-none}:${skipped:- none})"

for t in $run_types; do
	perf "ref-$t" "$REFSCALE" refscale.scale_type="$t" refscale.nruns=2 refscale.loops=500 \
		refscale.nreaders=1,2 refscale.updater=0,1
	[ "$RC" = 0 ] && json_ok "$JSON" refscale read "$REF_FIGS" "$REF_PARAMS" 2 4 &&
		jq -s -e 'map(select(.kind == "run")) | all(.figures.ns > 0 and .figures.empty_ns > 0
			and (.params.updater == 1) == (.figures.updater_gps_per_s != null))' \
			"$JSON" >/dev/null
	ok $? "refscale $t: 2 rounds of 4 measurements, JSON keys and figures" || show
done

# updater_holdoff sleeps between grace periods: 2 ms apart, the updater can
# do at most 500 a second however fast they are (back to back, ours do
# hundreds of thousands), plus the one it starts with: 1/T more, under 20
# a second in a round over 50 ms (20M pairs; 1M under a sanitizer, which
# makes each cost tens of times more).
loops=20000000
[ -z "${SAN:-}" ] || loops=1000000
perf ref-holdoff "$REFSCALE" refscale.scale_type=rcu refscale.nruns=1 refscale.loops=$loops \
	refscale.nreaders=1 refscale.updater=1 refscale.updater_holdoff=2000
[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "run")) | length > 0 and
	all(.params.updater_holdoff == 2000 and .figures.updater_gps_per_s > 0
	    and .figures.updater_gps_per_s <= 520)' "$JSON" >/dev/null
ok $? "refscale.updater_holdoff=2000: at most 500 grace periods a second" || show

for t in $run_types; do
	case $t in
	busted_hang) continue ;;	# below: its grace periods never end
	esac
	perf "rc-$t" "$RCUSCALE" rcuscale.scale_type="$t" rcuscale.nruns=2 rcuscale.gps=10 \
		rcuscale.nwriters=1 rcuscale.nreaders=0,1 rcuscale.nidle=2
	[ "$RC" = 0 ] && json_ok "$JSON" rcuscale gp "$GP_FIGS" "$GP_PARAMS" 2 2 &&
		jq -s -e 'map(select(.kind == "run")) | all(.params.gp == "sync" and .figures.n == 10
			and .figures.p50_us > 0 and .figures.min_us <= .figures.p50_us
			and .figures.p50_us <= .figures.p99_us and .figures.p99_us <= .figures.max_us
			and .figures.calls_per_s > 0
			and 0 <= .figures.lib_cpu_per_call_us
			and .figures.lib_cpu_per_call_us <= .figures.cpu_per_call_us
			and ((.params.nreaders == 0) == (.figures.reads_per_s == null)))' \
			"$JSON" >/dev/null
	ok $? "rcuscale $t: synchronize latency, JSON keys and figures (the library's CPU a part of the update side's, never below zero)" || show
done

# Every kind of grace-period wait, on the types that have it.
for k in gp_async gp_poll gp_barrier gp_exp; do
	ty=rcu,sched,srcu
	perf "kind-$k" "$RCUSCALE" rcuscale.scale_type=$ty rcuscale.$k=1 rcuscale.nruns=1 \
		rcuscale.gps=20 rcuscale.nwriters=1,2 rcuscale.nreaders=1
	cells=$(( $(tr ',' '\n' <<<"$ty" | wc -l) * 2 ))
	[ "$RC" = 0 ] && json_ok "$JSON" rcuscale gp "$GP_FIGS" \
		"$(jq -c '. + (if "'$k'" == "gp_async" then ["gp_async_max"] else [] end) | sort' \
		<<<"$GP_PARAMS")" 1 "$cells" &&
		jq -s -e --arg k "${k#gp_}" 'map(select(.kind == "run")) | all(.params.gp == $k
			and .figures.n == 20 * .params.nwriters and .figures.p50_us > 0)' \
			"$JSON" >/dev/null
	ok $? "rcuscale $k=1: $ty, 1 and 2 writers" || show
done
grep -q "idle rcu_barrier() rcu p50" "$T_TMP/kind-gp_barrier.log" &&
	jq -s -e 'map(select(.kind == "targets")) | length == 1 and
		(.[0].targets | map(select(.what | startswith("idle rcu_barrier()"))) | length == 4)' \
		"$T_TMP/kind-gp_barrier.jsonl" >/dev/null
ok $? "gp_barrier=1: the idle rcu_barrier() target is printed (table and JSON)" || show

perf idle "$RCUSCALE" rcuscale.scale_type=rcu,sched rcuscale.nidle=1,16,40 rcuscale.nruns=1 \
	rcuscale.gps=10 rcuscale.nwriters=1 rcuscale.nreaders=0
[ "$RC" = 0 ] && json_ok "$JSON" rcuscale gp "$GP_FIGS" "$GP_PARAMS" 1 6 &&
	jq -s -e 'map(select(.kind == "targets"))[0].targets | map(.what)
		| any(test("rcu p50 nidle=40/nidle=16")) and any(test("sched p50 nidle=40/nidle=16"))' \
		"$JSON" >/dev/null
ok $? "rcuscale nidle=1,16,40: six measurements, the idle-thread target (40 vs 16)" || show

perf kfree "$RCUSCALE" rcuscale.scale_type=rcu,srcu rcuscale.kfree_rcu_test=1 \
	rcuscale.kfree_nthreads=1,2 rcuscale.kfree_alloc_num=300 rcuscale.kfree_loops=2 \
	rcuscale.nruns=2
[ "$RC" = 0 ] && json_ok "$JSON" rcuscale callbacks "$CB_FIGS" \
	'["cb_bytes","kfree_alloc_num","kfree_loops","kfree_nthreads"]' 2 4 &&
	jq -s -e 'map(select(.kind == "run")) | all(.figures.cbs == 600 * .params.kfree_nthreads
		and .figures.invoked_per_s > 0 and .figures.queued_per_s > 0
		and (.figures.bytes_per_cb | type) == "number")' "$JSON" >/dev/null
ok $? "rcuscale kfree_rcu_test=1: callbacks queued and invoked per second, bytes per callback" ||
	show

if [[ " $run_types " == *" urcu-memb "* ]]; then
	perf pair "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb rcuscale.nruns=1 rcuscale.gps=10 \
		rcuscale.nwriters=1 rcuscale.nreaders=0
	[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "targets"))[0].targets
		| map(.what) == ["sync rcu/urcu-memb p50 (nwriters=1 nreaders=0 nidle=0 gp_exp=0)",
			"sync rcu/urcu-memb p99 (nwriters=1 nreaders=0 nidle=0 gp_exp=0)",
			"sync rcu/urcu-memb calls/s (nwriters=1 nreaders=0 nidle=0 gp_exp=0)"]' \
		"$JSON" >/dev/null && grep -q "^Targets" "$OUT"
	ok $? "rcu beside urcu-memb: the ratio targets (p50, p99, calls/s)" || show
	# rcu_barrier()'s only target is its idle latency, and liburcu's own
	# idle-thread scaling is a figure in the table, not a target of ours.
	perf pairbar "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb rcuscale.nruns=1 \
		rcuscale.gps=10 rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_barrier=1
	[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "targets"))[0].targets | map(.what)
		== ["idle rcu_barrier() rcu p50 (nwriters=1 nreaders=0 nidle=0)"]' \
		"$JSON" >/dev/null
	ok $? "gp_barrier=1 beside urcu-memb: only the idle rcu_barrier() target" || show
	perf pairidle "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb rcuscale.nruns=1 \
		rcuscale.gps=10 rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.nidle=16,40
	[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "targets"))[0].targets | map(.what)
		| any(test("^sync rcu p50 nidle=40/nidle=16")) and (any(test("urcu-memb p50 nidle")) | not)' \
		"$JSON" >/dev/null
	ok $? "nidle=16,40 beside urcu-memb: the idle-thread target is ours only" || show
	perf refpair "$REFSCALE" refscale.scale_type=rcu,urcu-memb,sched,urcu-qsbr \
		refscale.nruns=1 refscale.loops=200 refscale.nreaders=1
	[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "targets"))[0].targets | map(.what)
		| index("rcu/urcu-memb ns (nreaders=1 updater=0)") != null
		and index("sched/urcu-qsbr ns (nreaders=1 updater=0)") != null
		and index("rcu nested/outer pair (nreaders=1 updater=0)") != null' \
		"$JSON" >/dev/null
	ok $? "refscale rcu, sched beside liburcu: the ratio and nesting targets" || show
	# within_spread: the two types' rounds (min..max, from the summary
	# lines) overlap; computed here again for every pair target.
	perf spread "$REFSCALE" refscale.scale_type=sched-free,urcu-qsbr,rcu,urcu-memb \
		refscale.nruns=3 refscale.loops=200 refscale.nreaders=1
	[ "$RC" = 0 ] && jq -s -e '
		(map(select(.kind == "summary")) | map({key: .flavor, value: .figures.ns})
			| from_entries) as $f
		| map(select(.kind == "targets"))[0].targets
		| map(select(.what | test("^[a-z-]+/[a-z-]+ ns ")))
		| length == 2 and all(
			(.what | capture("^(?<a>[a-z-]+)/(?<b>[a-z-]+) ")) as $p
			| .within_spread == ($f[$p.a].min <= $f[$p.b].max and $f[$p.b].min <= $f[$p.a].max))' \
		"$JSON" >/dev/null &&
		[ "$(grep -c "MISSED (within the rounds' spread" "$OUT")" = "$(jq -s 'map(select(.kind ==
			"targets"))[0].targets | map(select((.met | not) and .within_spread)) | length' "$JSON")" ]
	ok $? "refscale pair targets: within_spread is whether the rounds overlap" || show
	# Normal and expedited side by side; liburcu's have no expedited ones.
	perf exp "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb rcuscale.gp_exp=0,1 rcuscale.nruns=1 \
		rcuscale.gps=10 rcuscale.nwriters=1 rcuscale.nreaders=0
	[ "$RC" = 0 ] && grep -q "^rcuscale: urcu-memb nwriters=1 nreaders=0 nidle=0 gp_exp=1 not measured: torture type urcu-memb has no exp_sync" "$OUT" &&
		jq -s -e '(map(select(.kind == "summary")) | map([.flavor, .params.gp]))
			== [["rcu", "sync"], ["urcu-memb", "sync"], ["rcu", "exp"]]
		and (map(select(.kind == "targets"))[0].targets | map(.what)
			| index("exp rcu/sync rcu p50 (nwriters=1 nreaders=0 nidle=0)") != null
			and index("exp rcu/sync urcu-memb p50 (nwriters=1 nreaders=0 nidle=0)") != null)
		and (map(select(.kind == "floor"))[0].figures | .n == 1000 and .membarrier_p50_us > 0)' \
		"$JSON" >/dev/null
	ok $? "gp_exp=0,1: normal and expedited interleaved, urcu-memb's expedited left out, the membarrier floor" || show
else
	skip "targets beside liburcu" "liburcu types not run here"
	skip "gp_barrier=1 beside urcu-memb" "liburcu types not run here"
	skip "nidle=16,40 beside urcu-memb" "liburcu types not run here"
	skip "refscale targets beside liburcu" "liburcu types not run here"
	skip "refscale within_spread" "liburcu types not run here"
	skip "gp_exp=0,1 beside urcu-memb" "liburcu types not run here"
fi

# The type's own loop of pairs, or calls through the table; an extendable.
perf section "$REFSCALE" refscale.scale_type=rcu,srcu,lib:"$PLUGIN" refscale.nruns=1 \
	refscale.loops=200 refscale.nreaders=1
[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "summary")) | map([.flavor, .params.read_section])
	== [["rcu", true], ["srcu", true], ["example-rwlock", false]]' "$JSON" >/dev/null
ok $? "read_section: our types loop in their adapter, the example plugin goes through the table" || show
perf nosection "$REFSCALE" refscale.scale_type=rcu refscale.read_section=0 refscale.nruns=1 \
	refscale.loops=200 refscale.nreaders=1
[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "summary"))[0].params.read_section == false' \
	"$JSON" >/dev/null
ok $? "read_section=0: three calls through the table per pair" || show
perf nmi "$REFSCALE" refscale.scale_type=srcu refscale.read_flavor=SRCU_NMI refscale.nruns=1 \
	refscale.loops=200 refscale.nreaders=1
[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "summary"))[0].params
	| .read_flavor == "SRCU_NMI" and .read_section == false' "$JSON" >/dev/null
ok $? "read_flavor=SRCU_NMI: srcu_read_lock_nmisafe() measured" || show

# Failures: grace periods that never end, callbacks that get lost.
perf hang "$RCUSCALE" rcuscale.scale_type=busted_hang rcuscale.nreaders=1 rcuscale.nwriters=1 \
	rcuscale.gps=100000 rcuscale.nruns=1 rcuscale.timeout=2
[ "$RC" = 1 ] && grep -q "gp busted_hang .* did not finish within 2 s (rcuscale.timeout)" "$OUT"
ok $? "busted_hang: the measurement does not finish: exit 1, said on stderr" || show
perf lost "$RCUSCALE" rcuscale.scale_type=busted_lostcb rcuscale.kfree_rcu_test=1 \
	rcuscale.kfree_nthreads=1 rcuscale.kfree_alloc_num=1000 rcuscale.kfree_loops=1 rcuscale.nruns=1
[ "$RC" = 1 ] && grep -q "busted_lostcb: 995 callbacks invoked of 1000 queued" "$OUT"
ok $? "busted_lostcb: lost callbacks are counted: exit 1" || show

# Bad input: one line naming the argument, exit 2, nothing measured.
# bad NAME EXPECTED-TEXT PROG ARGS...
bad() {
	local name=$1 want=$2
	shift 2
	perf "bad-$name" "$@"
	[ "$RC" = 2 ] && [ "$(wc -l <"$OUT")" = 1 ] && grep -qF -- "$want" "$OUT" && [ ! -s "$JSON" ]
	ok $? "bad input ($name): exit 2, one line: $want" || show
}
bad param "unknown parameter 'refscale.nosuch'" "$REFSCALE" refscale.nosuch=1
bad value "refscale.loops: bad value 'x'" "$REFSCALE" refscale.loops=x
bad range "rcuscale.gps: bad value '0'" "$RCUSCALE" rcuscale.gps=0
bad list "gps: one value expected, not a list ('1,2')" "$RCUSCALE" rcuscale.gps=1,2
bad type "rcuscale.scale_type: rcutorture.torture_type: unknown type 'nosuch'" "$RCUSCALE" \
	rcuscale.scale_type=rcu,nosuch
bad twice "refscale.scale_type: 'rcu' named twice" "$REFSCALE" refscale.scale_type=rcu,rcu
bad nowriter "rcuscale.nwriters=0: at least one writer" "$RCUSCALE" rcuscale.nwriters=0
bad noreader "refscale.nreaders=0: at least one reader" "$REFSCALE" refscale.nreaders=2,0
bad kinds "at most one of them" "$RCUSCALE" rcuscale.gp_exp=1 rcuscale.gp_poll=1
bad noexp "exp: torture type trivial has no exp_sync" "$RCUSCALE" rcuscale.scale_type=trivial \
	rcuscale.gp_exp=1
bad noflavor "refscale.read_flavor=SRCU_NMI: torture type rcu has no such read flavor" "$REFSCALE" \
	refscale.scale_type=srcu,rcu refscale.read_flavor=SRCU_NMI
bad libparam "unknown parameter 'nosuch.thing'" "$REFSCALE" nosuch.thing=1
bad libvalue "rcutree.blimit" "$REFSCALE" rcutree.blimit=x
bad malformed "malformed argument 'loops'" "$REFSCALE" loops
bad otherprog "unknown parameter 'refscale.shutdown_secs'" "$REFSCALE" refscale.shutdown_secs=5

# The kernel's parameters with no meaning here: accepted, each named on
# stderr as ignored, and the measurement is made.
perf kernelonly "$RCUSCALE" rcuscale.shutdown=1 rcuscale.minruntime=5 rcuscale.nexp=1 \
	rcuscale.nruns=1 rcuscale.nreaders=0 rcuscale.nwriters=1 rcuscale.gps=10
[ "$RC" = 0 ] && grep -q "^rcuscale: note: rcuscale.shutdown=1: ignored: " "$OUT" &&
	grep -q "^rcuscale: note: rcuscale.minruntime=5: ignored: " "$OUT" &&
	grep -q "^rcuscale: note: rcuscale.nexp=1: ignored: .*gp_exp=1" "$OUT" &&
	jq -s -e 'map(select(.kind == "summary")) | length == 1' "$JSON" >/dev/null
ok $? "the kernel's rcuscale.shutdown, minruntime, nexp: noted as ignored, the run made" || show

perf noplugin "$REFSCALE" refscale.scale_type=lib:/nonexistent.so
[ "$RC" = 3 ] && [ "$(wc -l <"$OUT")" = 1 ] && grep -q "lib:/nonexistent.so: cannot load" "$OUT"
ok $? "a plugin that does not load: exit 3 (as rcutorture), one line" || show
perf libok "$REFSCALE" rcutree.blimit=5 refscale.nruns=1 refscale.loops=100 refscale.nreaders=1
[ "$RC" = 0 ]
ok $? "the RCU's own parameters pass through (rcutree.blimit=5)" || show
perf plugin "$REFSCALE" "refscale.scale_type=lib:$PLUGIN" refscale.nruns=1 refscale.loops=100 \
	refscale.nreaders=1
[ "$RC" = 0 ] && jq -s -e 'map(select(.kind == "summary"))[0].flavor == "example-rwlock"' \
	"$JSON" >/dev/null
ok $? "a lib: plugin is measured like a built-in type" || show
"$RCUSCALE" --help >"$T_TMP/help" 2>&1 && grep -q "rcuscale.gp_async=0 (0..1)" "$T_TMP/help" &&
	grep -q "rcuscale.kfree_rcu_test" "$T_TMP/help"
ok $? "rcuscale --help lists the parameters with their defaults and ranges"

# rcuscale.pin: while a round runs, the writer and the reader are each
# allowed one CPU, different ones (the first and the last the process may
# use); pin=0 leaves them the whole mask.  Read from /proc, polled.
# affinity PIN: "WRITER-CPUS READER-CPUS" of a slow run (empty: not seen).
affinity() {
	local pid task w="" r="" i
	"$RCUSCALE" rcuscale.scale_type=rcu rcuscale.nwriters=1 rcuscale.nreaders=1 \
		rcuscale.gps=400 rcuscale.writer_holdoff=10000 rcuscale.nruns=1 rcuscale.pin="$1" \
		>/dev/null 2>&1 &
	pid=$!
	for i in $(seq 100); do
		for task in /proc/$pid/task/*; do
			case $(cat "$task/comm" 2>/dev/null) in
			rs_writer) w=$(awk '/^Cpus_allowed_list/ { print $2 }' "$task/status") ;;
			rs_reader) r=$(awk '/^Cpus_allowed_list/ { print $2 }' "$task/status") ;;
			esac
		done
		[ -n "$w" ] && [ -n "$r" ] && break
		sleep 0.05
	done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "$w $r"
}
cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)
if [ "$(nproc)" -ge 2 ]; then
	first=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' | head -n1 | cut -d- -f1)
	pinned=$(affinity 1)
	unpinned=$(affinity 0)
	[ "${pinned%% *}" = "$first" ] && [ "${pinned##* }" != "$first" ] &&
		[[ "${pinned##* }" =~ ^[0-9]+$ ]] && [ "$unpinned" = "$cpus $cpus" ]
	ok $? "rcuscale.pin=1: writer on the first CPU, reader alone on another; pin=0: unpinned" ||
		diag "pinned: '$pinned', unpinned: '$unpinned', allowed: $cpus, first $first"
else
	skip "rcuscale.pin" "one CPU"
fi

done_testing
