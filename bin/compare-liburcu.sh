#!/usr/bin/env bash
# compare-liburcu.sh - our RCU against liburcu (and Concurrency Kit's and
# DPDK's RCUs when built), side by side, with the perf programs
# (build/refscale, build/rcuscale).  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=compare-liburcu.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"

usage() {
	cat <<'EOF'
usage: bin/compare-liburcu.sh [--repeats N] [--quick] [--workloads LIST]
                              [--results DIR] [--datestamp NAME] [--no-plots]

Runs the same refscale/rcuscale workloads on our flavors and liburcu's,
and on Concurrency Kit's ck_epoch (ck-epoch) and DPDK's rte_rcu_qsbr
(dpdk-qsbr) when the perf programs were built with them (libck-dev,
libdpdk-dev: docs/other-rcus.md), in one run each, the flavors interleaved round by round (A B A B ...: a
change in the machine's load hits both), each measurement repeated N
times, and writes into RESULTS/DATE/:
  compare.json      every metric's samples per flavor (analysis/README.md)
  compare.md        a markdown table of ratios ours/other with their
                    spread over the runs, and the targets the programs
                    printed (met or missed)
  WORKLOAD.jsonl    the programs' JSON lines, WORKLOAD.txt their tables
  plots/            a bar chart per metric (bin/plot.sh), when gnuplot is
                    there
and prints compare.md.  Ratios only mean something between figures of one
run: on a busy machine every figure moves, the ratios less.

Workloads (--workloads read,gp,... picks some; default all):
  read       ns per lock + dereference + unlock, 1 reader, with and
             without a concurrent updater doing back-to-back grace
             periods (rcu, sched, sched-free, every liburcu flavor,
             ck-epoch, dpdk-qsbr); and the same loop as a plain program
             per flavor (build/bench/readloop-*: rcu, sched, sched-free,
             urcu-memb, urcu-qsbr, ck-epoch, dpdk-qsbr, interleaved
             round by round), whose ratios check refscale's:
             compare.md says where the two disagree by more than 15%
  readpaced  the same with an updater sleeping 50 us between grace
             periods, so that both sides' readers see about as many
             (back to back, the faster RCU's readers see many more)
  gp         synchronize_rcu() latency (median, p99), updater throughput and
             CPU per call, 1 writer, 0, 1, 4 and 8 readers (rcu, sched,
             urcu-memb, urcu-qsbr, ck-epoch, dpdk-qsbr)
  writers    the same with 2 and 8 concurrent writers, 1 reader
  idle       latency with 16 and 1024 registered idle threads (rcu,
             urcu-memb)
  barrier    idle rcu_barrier() latency (rcu, sched, every liburcu flavor,
             ck-epoch, dpdk-qsbr)
  callbacks  call_rcu() callbacks invoked per second, 1 thread and one per
             CPU (rcu, sched, every liburcu flavor, ck-epoch, dpdk-qsbr)
The pairs: each liburcu flavor beside ours, rcu:ck-epoch (both readers
mark their sections) and sched:dpdk-qsbr (both QSBR; dpdk-qsbr as its
users call it, rte_rcu_qsbr_check()'s shortcut included).
  lfht       liburcu's rculfhash hash table on each RCU (build/bench/
             lfht-*: our flavors through <rcu/urcu_flavor.h>, liburcu's
             own): lookups per second of 1 reader and updates (add,
             delete, replace) per second of 1 writer beside it (rcu,
             urcu-memb, sched, urcu-qsbr, interleaved round by round)

Options:
  --repeats N       measurements of each figure (default 5)
  --quick           the smallest sizes and 2 repeats: a smoke test of a few
                    seconds, the figures mean little
  --workloads LIST  comma-separated workloads (above)
  --results DIR     where the results go (default results/)
  --datestamp NAME  RESULTS/NAME instead of the date
  --no-plots        no bin/plot.sh
  --help            this text
Needs jq (Debian package jq) and liburcu-dev; gnuplot-nox for the plots.
Exit status: 0 done; 1 a program failed (what ran is kept); 2 bad usage,
or liburcu-dev or jq missing.
Environment: PERF_BIN_DIR=DIR uses DIR/refscale, DIR/rcuscale and
DIR/bench/readloop-* as they are instead of building them (make).
EOF
}

REPEATS=
QUICK=0
WORKLOADS=read,readpaced,gp,writers,idle,barrier,callbacks,lfht
RESULTS=$TORTURE_TOP/results
DATESTAMP=
PLOTS=1

parse() {
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--repeats | --workloads | --results | --datestamp)
			(($# >= 2)) || die 2 "$1: missing value"
			case $1 in
			--repeats)
				[[ $2 =~ ^[1-9][0-9]{0,3}$ ]] || die 2 "--repeats $2: expected 1 to 9999"
				REPEATS=$2 ;;
			--workloads) WORKLOADS=$2 ;;
			--results) RESULTS=$2 ;;
			--datestamp)
				[[ $2 =~ ^[A-Za-z0-9._-]+$ ]] || die 2 "--datestamp $2: letters, digits, . _ - only"
				DATESTAMP=$2 ;;
			esac
			shift ;;
		--quick) QUICK=1 ;;
		--no-plots) PLOTS=0 ;;
		*) die 2 "$1: unknown argument (see --help)" ;;
		esac
		shift
	done
	local w
	for w in ${WORKLOADS//,/ }; do
		case $w in
		read | readpaced | gp | writers | idle | barrier | callbacks | lfht) ;;
		*) die 2 "--workloads: unknown workload '$w' (read readpaced gp writers idle barrier callbacks lfht)" ;;
		esac
	done
	[ -n "${WORKLOADS//,/}" ] || die 2 "--workloads: empty"
	REPEATS=${REPEATS:-$((QUICK ? 2 : 5))}
}

# need_liburcu: liburcu-dev is the other half of every comparison.
need_liburcu() {
	if ! have pkg-config || ! pkg-config --exists liburcu-memb liburcu-qsbr liburcu-mb \
		liburcu-signal liburcu-bp 2>/dev/null; then
		die 2 "liburcu-dev is not installed: apt-get install liburcu-dev (then run this again)"
	fi
}

# programs: REFSCALE and RCUSCALE, built with the liburcu types, the
# plain read loops READLOOP_DIR/readloop-FLAVOR and the hash-table
# programs READLOOP_DIR/lfht-FLAVOR; OTHERS, the other libraries' types
# the perf programs have (ck-epoch, dpdk-qsbr), with READLOOP_FLAVORS.
READLOOP_FLAVORS="rcu sched sched-free urcu-memb urcu-qsbr"
LFHT_FLAVORS="rcu urcu-memb sched urcu-qsbr"
OTHERS=
programs() {
	local dir=${PERF_BIN_DIR:-} f
	if [ -z "$dir" ]; then
		dir=$TORTURE_TOP/build
		# shellcheck disable=SC2046  # one target per flavor
		tree_make -j2 -s build/refscale build/rcuscale \
			$(printf 'build/bench/readloop-%s ' $READLOOP_FLAVORS) \
			$(printf 'build/bench/lfht-%s ' $LFHT_FLAVORS) >&2 ||
			die 1 "make build/refscale build/rcuscale build/bench/readloop-* build/bench/lfht-* failed"
		OTHERS=$("$dir/refscale" --list-types | grep -xE 'ck-epoch|dpdk-qsbr' | tr '\n' ' ') || true
		# shellcheck disable=SC2046,SC2086  # one target per flavor
		[ -z "$OTHERS" ] || tree_make -j2 -s $(printf 'build/bench/readloop-%s ' $OTHERS) >&2 ||
			die 1 "make build/bench/readloop-* failed"
	fi
	[ -n "$OTHERS" ] || OTHERS=$("$dir/refscale" --list-types 2>/dev/null | grep -xE 'ck-epoch|dpdk-qsbr' | tr '\n' ' ') || true
	OTHERS=${OTHERS% }
	READLOOP_FLAVORS+=${OTHERS:+ $OTHERS}
	REFSCALE=$dir/refscale
	RCUSCALE=$dir/rcuscale
	READLOOP_DIR=$dir/bench
	[ -x "$REFSCALE" ] || die 2 "$dir: no refscale there"
	[ -x "$RCUSCALE" ] || die 2 "$dir: no rcuscale there"
	for f in $READLOOP_FLAVORS; do
		[ -x "$READLOOP_DIR/readloop-$f" ] || die 2 "$dir: no bench/readloop-$f there"
	done
	[[ ,$WORKLOADS, == *,lfht,* ]] || LFHT_FLAVORS=
	for f in $LFHT_FLAVORS; do
		[ -x "$READLOOP_DIR/lfht-$f" ] || die 2 "$dir: no bench/lfht-$f there"
	done
	"$REFSCALE" --list-types | grep -qx urcu-memb ||
		die 2 "$REFSCALE was built without the liburcu types (LIBURCU=0?): rebuild with liburcu-dev"
}

LIBURCU_ALL=urcu-memb,urcu-qsbr,urcu-mb,urcu-signal,urcu-bp
NCPUS=$(nproc)

# others: ",ck-epoch,dpdk-qsbr" (those built), to append to a type list.
# shellcheck disable=SC2086  # one word per type
others() { [ -z "$OTHERS" ] || printf ',%s' $OTHERS; }

# other_pairs PAIR...: those of the pairs "ours:other" whose other is built.
other_pairs() {
	local p
	for p; do
		[[ " $OTHERS " != *" ${p#*:} "* ]] || printf ',%s' "$p"
	done
}

# workload NAME: the program and arguments of one workload.
workload() {
	local q=$QUICK
	case $1 in
	read | readpaced)
		local upd="refscale.updater=0,1"
		[ "$1" = read ] || upd="refscale.updater=1 refscale.updater_holdoff=50"
		echo "$REFSCALE" refscale.scale_type=rcu,sched,sched-free,$LIBURCU_ALL"$(others)" refscale.nreaders=1 \
			$upd refscale.loops=$((q ? 5000 : 200000)) ;;
	gp)
		echo "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb,sched,urcu-qsbr"$(others)" rcuscale.nwriters=1 \
			rcuscale.nreaders=0,1,4,8 rcuscale.gps=$((q ? 10 : 200)) ;;
	writers)
		echo "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb,sched,urcu-qsbr"$(others)" rcuscale.nwriters=2,8 \
			rcuscale.nreaders=1 rcuscale.gps=$((q ? 10 : 100)) ;;
	idle)
		echo "$RCUSCALE" rcuscale.scale_type=rcu,urcu-memb rcuscale.nwriters=1 rcuscale.nreaders=0 \
			rcuscale.nidle=16,$((q ? 64 : 1024)) rcuscale.gps=$((q ? 10 : 200)) ;;
	barrier)
		echo "$RCUSCALE" rcuscale.scale_type=rcu,sched,$LIBURCU_ALL"$(others)" rcuscale.gp_barrier=1 \
			rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gps=$((q ? 3 : 20)) ;;
	callbacks)
		echo "$RCUSCALE" rcuscale.kfree_rcu_test=1 rcuscale.scale_type=rcu,sched,$LIBURCU_ALL"$(others)" \
			rcuscale.kfree_nthreads=1,"$NCPUS" rcuscale.kfree_alloc_num=$((q ? 500 : 8000)) \
			rcuscale.kfree_loops=$((q ? 2 : 10)) ;;
	esac
}

# The metrics: NAME WORKLOAD FIGURE BETTER UNIT SELECTOR(JSON) PAIRS LABEL
# BETTER: lower, higher, or neither (a figure shown for context, not a
# contest: the paced updater's rate).
# PAIRS: ours:other,... (liburcu's, then the other libraries' built).
metrics() {
	local n r q=$QUICK
	local PAIRS_GP PAIRS_READ PAIRS_CB
	PAIRS_GP=rcu:urcu-memb,sched:urcu-qsbr$(other_pairs rcu:ck-epoch sched:dpdk-qsbr)
	PAIRS_READ=rcu:urcu-memb,sched:urcu-qsbr,sched-free:urcu-qsbr$(other_pairs rcu:ck-epoch sched:dpdk-qsbr)
	PAIRS_CB=rcu:urcu-memb,rcu:urcu-qsbr,rcu:urcu-mb,rcu:urcu-signal,rcu:urcu-bp$(other_pairs rcu:ck-epoch rcu:dpdk-qsbr)
	echo "read_ns read ns lower ns {\"updater\":0} $PAIRS_READ read-side cost: lock + dereference + unlock, 1 reader"
	echo "read_ns_plain readloop ns lower ns {\"updater\":0} $PAIRS_READ read-side cost, the same loop as a plain program per flavor (bench/readloop), 1 reader"
	echo "read_ns_updater read ns lower ns {\"updater\":1} $PAIRS_READ read-side cost, 1 reader, an updater doing grace periods back to back"
	echo "read_ns_paced readpaced ns lower ns {\"updater\":1} $PAIRS_READ read-side cost, 1 reader, an updater sleeping 50 us between grace periods"
	echo "updater_gps_paced readpaced updater_gps_per_s neither /s {\"updater\":1} $PAIRS_READ the paced updater's grace periods per second (about equal: the read-side row above compares at the same rate)"
	for n in 0 1 4 8; do
		r="$n readers"
		[ "$n" != 1 ] || r="1 reader"
		echo "gp_p50_us_r$n gp p50_us lower us {\"nreaders\":$n} $PAIRS_GP synchronize_rcu() latency, median, 1 writer, $r"
		echo "gp_p99_us_r$n gp p99_us lower us {\"nreaders\":$n} $PAIRS_GP synchronize_rcu() latency, p99, 1 writer, $r"
		echo "updates_per_s_r$n gp calls_per_s higher /s {\"nreaders\":$n} $PAIRS_GP updater throughput (synchronize_rcu() calls), 1 writer, $r"
	done
	echo "cpu_per_call_us_r1 gp cpu_per_call_us lower us {\"nreaders\":1} $PAIRS_GP update-side CPU per synchronize_rcu() (caller + RCU threads), 1 writer, 1 reader"
	for n in 2 8; do
		echo "gp_p50_us_w$n writers p50_us lower us {\"nwriters\":$n} $PAIRS_GP synchronize_rcu() latency, median, $n writers, 1 reader"
		echo "updates_per_s_w$n writers calls_per_s higher /s {\"nwriters\":$n} $PAIRS_GP updater throughput, $n writers, 1 reader"
	done
	for n in 16 $((q ? 64 : 1024)); do
		echo "gp_p50_us_idle$n idle p50_us lower us {\"nidle\":$n} rcu:urcu-memb synchronize_rcu() latency, median, $n registered idle threads"
	done
	echo "barrier_us barrier p50_us lower us {} $PAIRS_GP rcu_barrier() latency with nothing queued, median"
	echo "cb_per_s_t1 callbacks invoked_per_s higher /s {\"kfree_nthreads\":1} $PAIRS_CB call_rcu() callbacks invoked per second, 1 thread"
	echo "cb_per_s_t$NCPUS callbacks invoked_per_s higher /s {\"kfree_nthreads\":$NCPUS} $PAIRS_CB call_rcu() callbacks invoked per second, $NCPUS threads"
	echo "lfht_lookups_per_s lfht lookups_per_s higher /s {} $PAIRS_GP rculfhash lookups per second, 1 reader beside 1 writer (liburcu-cds on each RCU, bench/lfht)"
	echo "lfht_updates_per_s lfht updates_per_s higher /s {} $PAIRS_GP rculfhash updates (add, delete, replace) per second, 1 writer beside 1 reader (bench/lfht)"
}

# metric_json NAME WORKLOAD FIGURE BETTER UNIT SELECTOR PAIRS LABEL...:
# one metric of compare.json from RES/WORKLOAD.jsonl's run lines (a
# flavor missing the figure in a run is left out); nothing if no flavor
# has it.
metric_json() {
	local name=$1 wl=$2 fig=$3 better=$4 unit=$5 sel=$6 pairs=$7
	shift 7
	[ -f "$RES/$wl.jsonl" ] || return 0
	jq -s -c --arg name "$name" --arg fig "$fig" --arg better "$better" --arg unit "$unit" \
		--argjson sel "$sel" --arg pairs "$pairs" --arg lbl "$*" '
		[.[] | select(.kind == "run" and (.params as $p | all($sel | to_entries[]; $p[.key] == .value)))]
		| (map(.flavor) | reduce .[] as $f ([]; if index([$f]) then . else . + [$f] end)) as $order
		| [$order[] as $f | [.[] | select(.flavor == $f)] | sort_by(.run) | map(.figures[$fig])
		   | select(length > 0 and all(.[]; type == "number"))
		   | {flavor: $f, impl: (if $f | startswith("urcu-") then "liburcu" elif $f | startswith("ck-") then "ck"
				       elif $f | startswith("dpdk-") then "dpdk" else "ours" end), samples: .}]
		| . as $results | [$results[].flavor] as $have
		| select(length > 0)
		| {name: $name, "label": $lbl, unit: $unit, better: $better, results: $results,
		   pairs: [$pairs | split(",")[] | split(":") | {ours: .[0], other: .[1]}
			   | select((.ours as $o | $have | index([$o])) and (.other as $l | $have | index([$l])))]}' \
		"$RES/$wl.jsonl"
}

# cpu_model: the processor's name (/proc/cpuinfo's "model name", else
# lscpu's "Model name"), or nothing: a dated figure names its machine.
cpu_model() {
	local m
	m=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1) || true
	[ -n "$m" ] || ! have lscpu ||
		m=$(LC_ALL=C lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1) || true
	printf '%s' "$m"
}

host_json() {
	local f h
	for f in "$RES"/*.jsonl; do
		# The perf programs' lines have it, and bench/lfht's.
		h=$(jq -c --arg cpu "$(cpu_model)" 'select(.host) | .host | {cores, kernel, membarrier, liburcu, ck, dpdk}
			+ (if $cpu != "" then {cpu_model: $cpu} else {} end)' "$f" | head -n 1)
		[ -z "$h" ] || { echo "$h"; return; }
	done
	echo null
}

write_compare() {
	local line tmp=$RES/compare.json.tmp
	{
		printf '{"schema":"rcu-torture-compare/2","date":"%s","started":"%s","host":%s,"repeats":%s,' \
			"${RES##*/}" "$STARTED" "$(host_json)" "$REPEATS"
		printf '"commands":%s,' "$(printf '%s\n' "${COMMANDS[@]}" | jq -R . | jq -s -c .)"
		printf '"targets":%s,"metrics":[' "$({ cat "$RES"/*.jsonl 2>/dev/null |
			jq -c 'select(.kind == "targets") | .targets[] | {what, value, unit, limit, at_least, met, within_spread}'
			readloop_targets; } | jq -s -c .)"
		local first=1
		while IFS= read -r line; do
			# shellcheck disable=SC2086  # the label is the tail of the line
			line=$(metric_json $line)
			[ -n "$line" ] || continue
			((first)) || printf ','
			first=0
			printf '%s' "$line"
		done < <(metrics)
		printf ']}\n'
	} >"$tmp"
	# A metric whose pairs' ratios another metric measures another way
	# names it as its "check" (compare.jq flags a pair whose two ratios
	# are more than 15% apart): refscale's read side and the plain loop.
	jq --argjson checks '{"read_ns": "read_ns_plain"}' '[.metrics[].name] as $n
		| .metrics |= map($checks[.name] as $c
				  | if $c and ($n | index([$c])) then .check = $c else . end)' \
		"$tmp" >"$RES/compare.json"
	rm -f "$tmp"
}

# The markdown: bin/perf-table.sh's table (host facts, a ratio row per
# pair with its cross-check, the targets), the one a machine's section of
# docs/performance.md is.
write_markdown() {
	"$BIN_DIR/perf-table.sh" "$RES/compare.json" >"$RES/compare.md"
}

# readloop: the plain read loops at the 16 places of their loop in a
# 64-byte block (PAD, 4 bytes apart), flavor after flavor at each, REPEATS
# rounds (RES/readloop.jsonl, the programs' JSON lines).
READLOOP_PADS="0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60"
readloop() {
	local r f pad secs=0.05
	((QUICK == 0)) || secs=0.005
	COMMANDS+=("bench/readloop-{${READLOOP_FLAVORS// /,}} $secs RUN {${READLOOP_PADS// /,}}, $REPEATS rounds")
	echo "$PROG: read: bench/readloop-{${READLOOP_FLAVORS// /,}}, $secs s each at 16 loop offsets, $REPEATS rounds" >&2
	# Flavor after flavor at each offset, not offset after offset of one
	# flavor: a burst of other work then lands on every flavor alike (a
	# flavor's 16 offsets back to back took two seconds, and one round's
	# burst moved sched-free, the same instructions as urcu-qsbr, to
	# 1.21x of it).
	for ((r = 1; r <= REPEATS; r++)); do
		for pad in $READLOOP_PADS; do
			for f in $READLOOP_FLAVORS; do
				"$READLOOP_DIR/readloop-$f" "$secs" "$r" "$pad" >>"$RES/readloop.jsonl" \
					2>>"$RES/readloop.txt" && continue
				echo "$PROG: read failed: bench/readloop-$f $secs $r $pad (its output: $RES/readloop.txt)" >&2
				return 1
			done
		done
	done
}

# lfht: liburcu's rculfhash on each RCU (bench/lfht-FLAVOR), flavor after
# flavor, REPEATS rounds (RES/lfht.jsonl, the programs' JSON lines).
lfht() {
	local r f secs=0.5
	((QUICK == 0)) || secs=0.05
	COMMANDS+=("bench/lfht-{${LFHT_FLAVORS// /,}} $secs RUN, $REPEATS rounds")
	for ((r = 1; r <= REPEATS; r++)); do
		for f in $LFHT_FLAVORS; do
			"$READLOOP_DIR/lfht-$f" "$secs" "$r" >>"$RES/lfht.jsonl" 2>>"$RES/lfht.txt" && continue
			echo "$PROG: lfht failed: bench/lfht-$f $secs $r (its output: $RES/lfht.txt)" >&2
			return 1
		done
	done
}

# The targets of the plain loops (medians over every round and offset,
# as the programs compute theirs): ours against liburcu's, and each of
# ours nested against outermost.  JSON objects, one a line.
readloop_targets() {
	[ -s "$RES/readloop.jsonl" ] || return 0
	jq -s -c 'def med: sort | if length % 2 == 1 then .[length / 2 | floor]
			else (.[length / 2 - 1] + .[length / 2]) / 2 end;
		def fig($f; $k): [.[] | select(.flavor == $f) | .figures[$k]];
		def target($what; $x; $y; $limit):
			{what: $what, value: (($x | med) / ($y | med)), unit: "x", limit: $limit, at_least: false}
			| .met = (.value <= $limit)
			| .within_spread = (($x | min) / ($y | max) <= $limit and $limit <= ($x | max) / ($y | min));
		. as $r
		| ([["rcu", "urcu-memb", 1], ["sched", "urcu-qsbr", 1.5], ["sched-free", "urcu-qsbr", 1]][]
		   | . as [$o, $l, $lim] | select(($r | fig($o; "ns") | length) > 0 and ($r | fig($l; "ns") | length) > 0)
		   | target("\($o)/\($l) ns (plain program, 16 loop offsets)"; $r | fig($o; "ns"); $r | fig($l; "ns"); $lim)),
		  (["rcu", "sched", "sched-free"][] | . as $o | select(($r | fig($o; "ns") | length) > 0)
		   | target("\($o) nested/outer pair (plain program, 16 loop offsets)"; $r | fig($o; "nested_ns");
			    $r | fig($o; "ns"); 1))' "$RES/readloop.jsonl"
}

main() {
	parse "$@"
	have jq || die 2 "jq not installed (Debian package jq)"
	need_liburcu
	programs
	STARTED=$(date +%Y.%m.%d-%H.%M.%S)
	RES=${RESULTS%/}/${DATESTAMP:-$STARTED}
	[ ! -e "$RES" ] || die 2 "$RES exists already (use --datestamp)"
	mkdir -p "$RES" || die 2 "$RES: cannot create"
	COMMANDS=()
	local w i=0 n rc=0 cmd
	n=$(tr ',' '\n' <<<"$WORKLOADS" | grep -c .)
	for w in ${WORKLOADS//,/ }; do
		i=$((i + 1))
		if [ "$w" = lfht ]; then
			echo "$PROG: [$i/$n] lfht: bench/lfht-{${LFHT_FLAVORS// /,}}, $REPEATS rounds" >&2
			lfht || rc=1
			continue
		fi
		read -ra cmd <<<"$(workload "$w")"
		case ${cmd[0]} in
		*/refscale) cmd+=(refscale.nruns="$REPEATS") ;;
		*) cmd+=(rcuscale.nruns="$REPEATS") ;;
		esac
		COMMANDS+=("${cmd[*]##*/}")
		echo "$PROG: [$i/$n] $w: ${cmd[*]##*/}" >&2
		if ! "${cmd[@]}" --json "$RES/$w.jsonl" >"$RES/$w.txt"; then
			echo "$PROG: $w failed: ${cmd[*]##*/} (its output: $RES/$w.txt)" >&2
			rc=1
		fi
		[ "$w" != read ] || readloop || rc=1
	done
	write_compare
	write_markdown
	if ((PLOTS)); then
		if have gnuplot; then
			"$BIN_DIR/plot.sh" --format png "$RES" >&2 || rc=1
		else
			echo "$PROG: gnuplot not installed (Debian package gnuplot-nox): no plots" >&2
		fi
	fi
	cat "$RES/compare.md"
	echo "$PROG: $RES: compare.json compare.md" >&2
	return "$rc"
}

main "$@"
