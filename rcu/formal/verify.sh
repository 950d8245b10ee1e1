#!/bin/bash
# verify.sh - check the Promela model of the reader-word protocol with Spin.
#
#   rcu/formal/verify.sh [--out DIR] [-j N] [--deep] [--list] [VARIANT...]
#
# Builds every variant of rcu/formal/reader_word.pml (spin -a, gcc, ./pan)
# in DIR/<variant>/ (default build/formal), runs N at a time (default 2)
# and prints one line per variant: the outcome expected, the outcome got,
# states stored and seconds.  Outcomes: pass (no error in the whole state
# space), uaf (an element freed while a reader holds it: the assertion),
# hang (a grace period never ends: an invalid end state), starve (an
# updater never finishes although the reader keeps leaving its sections:
# an acceptance cycle of the LTL claim, under weak fairness), reached (a
# coverage goal's assertion: the real model does explore it).  A failing
# variant leaves its counterexample, as the model's printf lines, in
# DIR/<variant>/counterexample.txt.  Exit status 1 if any outcome differs
# from the expected one (or a run could not complete), 0 otherwise; also 0
# with a SKIP line when spin is not installed.
#
# --deep adds the real model with two read-side sections per reader (about
# 10x the states: minutes, and 1-2 GB of memory per run).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
model=$here/reader_word.pml
out=build/formal
jobs=2
deep=0
list=0
want=()

usage() { sed -n '2,25s/^# \{0,1\}//p' "$0"; }

while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || { echo "verify.sh: --out needs a directory" >&2; exit 2; }
		out=$2; shift 2 ;;
	-j) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] ||
		{ echo "verify.sh: -j needs a positive number" >&2; exit 2; }
		jobs=$2; shift 2 ;;
	--deep) deep=1; shift ;;
	--list) list=1; shift ;;
	-h|--help) usage; exit 0 ;;
	-*) echo "verify.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) want+=("$1"); shift ;;
	esac
done

# name | spin/cc defines | mode (safety or live) | expected outcome | what
VARIANTS='
real-pb|                                  |safety|pass |the protocol: reader, an updater that requests, one that piggybacks (membarrier, MCA)
real-pb-nonmca|-DNONMCA                   |safety|pass |the same on a non-multi-copy-atomic machine (POWER)
real-pb-fences|-DFENCES                   |safety|pass |readers fence themselves (no membarrier)
real-pb-fences-nonmca|-DFENCES -DNONMCA   |safety|pass |readers fence themselves, non-MCA
real-pb-timeouts|-DTIMEOUTS               |safety|pass |the GP also rescans on timer expiry, at any moment
real-reg|-DSCEN_REG                       |safety|pass |a thread registers while a grace period starts, then reads
real-reg-nonmca|-DSCEN_REG -DNONMCA       |safety|pass |registration, non-MCA
real-reg-fences|-DSCEN_REG -DFENCES       |safety|pass |registration, readers fence themselves
real-live|-DLIVE                          |live  |pass |progress: the reader loops forever, the updater finishes
real-live-nonmca|-DLIVE -DNONMCA          |live  |pass |progress, non-MCA
real-live-fences|-DLIVE -DFENCES          |live  |pass |progress, readers fence themselves
cover-piggyback|-DCOVER_PIGGYBACK        |safety|reached|coverage: an updater returns early, waits and frees
cover-unconfirmed|-DCOVER_UNCONFIRMED     |safety|reached|coverage: the GP waits for a reader that sampled an unconfirmed start
cover-missed|-DSCEN_REG -DCOVER_MISSED    |safety|reached|coverage: a GP starts without the newcomer, which then reads
cover-init-end|-DCOVER_INIT_END          |safety|reached|coverage: the scan in gp_init() finds every slot quiescent and the GP ends there
no-fence-rd-lock|-DFENCES -DNO_FENCE_RD_LOCK     |safety|uaf  |rcu_read_lock(): no fence after the word store
no-fence-rd-unlock|-DFENCES -DNO_FENCE_RD_UNLOCK |safety|hang |rcu_read_unlock(): no fence between the word store and the need_qs load
no-fence-snap|-DNO_FENCE_SNAP                    |safety|uaf  |rcu_seq_snap(): no fence between the removal and the gp_seq sample
no-fence-gp-init|-DSCEN_REG -DNO_FENCE_GP_INIT   |safety|uaf  |gp_init(): no fence after rcu_seq_start() (registration)
no-fence-gp-init-nonmca|-DNONMCA -DNO_FENCE_GP_INIT|safety|uaf|gp_init(): no fence between the start and its confirmation (non-MCA)
no-fence-reg|-DSCEN_REG -DNO_FENCE_REG           |safety|uaf  |slot_attach(): no fence after the generation bump
no-fence-gp-scan|-DNO_FENCE_GP_SCAN              |safety|uaf  |gp_init(): no heavy fence before the first scan
no-init-scan|-DNO_INIT_SCAN                      |safety|pass |the code before: no scan in gp_init(), the first scan marks
no-fence-gp-rescan|-DNO_FENCE_GP_RESCAN          |safety|hang |gp_force_qs(): no heavy fence between marking and the second scan
no-fence-gp-end|-DNO_FENCE_GP_END                |safety|pass |rcu_seq_end(): no fence (redundant: its store is a release)
sample-after-store|-DSAMPLE_AFTER_STORE          |safety|uaf  |rcu_read_lock(): gp_seq sampled after the word store
early-return-nonmca|-DSINGLE_PUBLISH -DNONMCA    |safety|uaf  |relaxed early return: a piggybacker, start not confirmed (the code before), non-MCA
early-return-mca|-DSINGLE_PUBLISH                |safety|pass |the same on an MCA machine (x86, arm64): safe
early-return-fences|-DSINGLE_PUBLISH -DNONMCA -DFENCES|safety|pass|the same, non-MCA, readers fencing themselves: safe
real-join|-DSCEN_JOIN                     |safety|pass |rcu_sched: a registered thread that never used the flavor joins, goes online, reads, goes offline
real-join-nonmca|-DSCEN_JOIN -DNONMCA     |safety|pass |the join, non-MCA
cover-join-skipped|-DSCEN_JOIN -DCOVER_JOIN_SKIPPED|safety|reached|coverage: a GP leaves out the slot not joined yet, the joiner reads, every updater frees
join-late|-DSCEN_JOIN -DJOIN_LATE                |safety|uaf  |sched_join_mask() only after the first section (a thread whose bit is missing)
joinmask-early|-DSCEN_JOIN -DJOINMASK_EARLY      |safety|uaf  |gp_init(): ->joinmask loaded before the grace period starts
no-fence-gp-init-join|-DSCEN_JOIN -DNO_FENCE_GP_INIT|safety|uaf|gp_init(): no fence after rcu_seq_start(), with a joiner (MCA)
no-fence-join|-DSCEN_JOIN -DNO_FENCE_JOIN        |safety|pass |sched_join_mask(): no fence after the OR (redundant: sched_go_online() fences before the first section)
real-join-rcu|-DSCEN_JOIN -DJOIN_RCU            |safety|pass |rcu: the first rcu_read_lock() of a registered thread joins the flavor (membarrier)
real-join-rcu-nonmca|-DSCEN_JOIN -DJOIN_RCU -DNONMCA|safety|pass|the rcu join, non-MCA
real-join-rcu-fences|-DSCEN_JOIN -DJOIN_RCU -DFENCES|safety|pass|the rcu join, readers fence themselves
no-fence-join-rcu|-DSCEN_JOIN -DJOIN_RCU -DNO_FENCE_JOIN|safety|uaf|lrcu_read_lock_join(): no fence after the OR (rcu: nothing else orders the bit before the section)
late-wake-sample|-DLATE_WAKE_SAMPLE              |safety|hang |GP samples its wake word after the scan (the code before): lost wake-up
late-wake-sample-live|-DLIVE -DLATE_WAKE_SAMPLE  |live  |starve|the same with a reader that keeps reading
defer-pb|-DDEFER_FENCE                           |safety|pass |deferred heavy fence: unfenced scans count only new samples, then the fence if a holdout remains
defer-pb-nonmca|-DDEFER_FENCE -DNONMCA           |safety|pass |deferred heavy fence, non-MCA
defer-pb-fences|-DDEFER_FENCE -DFENCES           |safety|pass |deferred heavy fence, readers fence themselves
defer-pb-timeouts|-DDEFER_FENCE -DTIMEOUTS       |safety|pass |deferred heavy fence, timed rescans
defer-reg|-DDEFER_FENCE -DSCEN_REG               |safety|pass |deferred heavy fence, registration
defer-reg-nonmca|-DDEFER_FENCE -DSCEN_REG -DNONMCA|safety|pass|deferred heavy fence, registration, non-MCA
defer-live|-DDEFER_FENCE -DLIVE                  |live  |pass |deferred heavy fence, progress
defer-live-nonmca|-DDEFER_FENCE -DLIVE -DNONMCA  |live  |pass |deferred heavy fence, progress, non-MCA
defer-join-rcu|-DDEFER_FENCE -DSCEN_JOIN -DJOIN_RCU|safety|pass|deferred heavy fence, the rcu join
cover-unfenced-end|-DDEFER_FENCE -DCOVER_UNFENCED_END|safety|reached|coverage: a grace period ends with no heavy fence, every updater frees
cover-fell-back|-DDEFER_FENCE -DCOVER_FELL_BACK  |safety|reached|coverage: the unfenced scans leave a holdout, the heavy fence follows, every updater frees
defer-nest0|-DDEFER_FENCE -DDEFER_NEST0          |safety|uaf  |unfenced scan also accepts nesting 0 with an old sample
defer-unconfirmed|-DDEFER_FENCE -DDEFER_UNCONFIRMED -DNONMCA|safety|uaf|unfenced scan also accepts a sample of the unconfirmed start, non-MCA
defer-relaxed-lock|-DDEFER_FENCE -DRELAXED_LOCK -DNSEC=2|safety|uaf|rcu_read_lock(): relaxed word store, the accesses of the section before pass it (two sections)
relaxed-lock|-DRELAXED_LOCK -DNSEC=2             |safety|uaf  |the same without DEFER_FENCE: a scan after the heavy fence counts the new word too
'
DEEP_VARIANTS='
deep-pb|-DNSEC=2                          |safety|pass |two sections per reader
deep-pb-nonmca|-DNSEC=2 -DNONMCA          |safety|pass |two sections per reader, non-MCA
deep-reg|-DSCEN_REG -DNSEC=2              |safety|pass |registration, two sections
deep-join|-DSCEN_JOIN -DNSEC=2            |safety|pass |the rcu_sched join, two sections
deep-defer-pb|-DDEFER_FENCE -DNSEC=2        |safety|pass |deferred heavy fence, two sections
deep-defer-pb-nonmca|-DDEFER_FENCE -DNSEC=2 -DNONMCA|safety|pass|deferred heavy fence, two sections, non-MCA
'

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

table=$VARIANTS
[ $deep = 1 ] && table=$table$DEEP_VARIANTS
names=() ; declare -A DEFS MODE EXPECT WHAT
while IFS='|' read -r n d m e w; do
	n=$(trim "$n")
	[ -n "$n" ] || continue
	names+=("$n")
	DEFS[$n]=$(trim "$d"); MODE[$n]=$(trim "$m"); EXPECT[$n]=$(trim "$e"); WHAT[$n]=$(trim "$w")
done <<<"$table"

if [ $list = 1 ]; then
	for n in "${names[@]}"; do
		printf '%-24s %-6s %-6s %s\n' "$n" "${MODE[$n]}" "${EXPECT[$n]}" "${WHAT[$n]}"
	done
	exit 0
fi
if [ ${#want[@]} -gt 0 ]; then
	for n in "${want[@]}"; do
		[ -n "${MODE[$n]:-}" ] || { echo "verify.sh: unknown variant '$n' (see --list)" >&2; exit 2; }
	done
	names=("${want[@]}")
fi

if ! command -v spin >/dev/null 2>&1; then
	echo "verify: SKIP: spin not installed (Debian package spin); the model was not checked"
	exit 0
fi
CC=${CC:-gcc}
command -v "$CC" >/dev/null 2>&1 || { echo "verify.sh: $CC not found" >&2; exit 1; }
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)

# Run one variant in $out/$1; write its result line fields to $out/$1/result.
run_one() {
	local n=$1 d="$out/$1" defs=${DEFS[$1]} mode=${MODE[$1]} cflags panflags got t0 t1 states log
	rm -rf "$d" && mkdir -p "$d" && cp "$model" "$d/" || return
	log=$d/pan.out
	cd "$d" || return
	if [ "$mode" = live ]; then
		cflags=""
		panflags="-a -f"	# acceptance cycles, weak fairness
	else
		cflags="-DSAFETY"
		panflags=""
	fi
	# -O0: pan.c is large and gcc -O2 takes longer than the search.
	# shellcheck disable=SC2086
	if ! spin $defs -a reader_word.pml >spin.out 2>&1 ||
	   ! "$CC" -O0 -w $cflags -o pan pan.c >cc.out 2>&1; then
		echo "error 0 0 build-failed" >result
		return
	fi
	t0=$(date +%s.%N)
	# shellcheck disable=SC2086
	timeout 900 ./pan -m100000 -w22 $panflags >"$log" 2>&1
	t1=$(date +%s.%N)
	states=$(awk '/states, stored/ { print $1; exit }' "$log")
	if grep -q "max search depth too small\|out of memory\|aborted" "$log" ||
	   ! grep -q "errors:" "$log"; then
		got=error
	elif grep -q "errors: 0" "$log"; then
		got=pass
	elif grep -Eq "^pan:1: assertion violated +!\(+(piggybacked|unconfirmed|missed|init_ended|join_skipped|unfenced_end|fell_back)" "$log"; then
		got=reached
	elif grep -q "^pan:1: assertion violated" "$log"; then
		got=uaf
	elif grep -q "^pan:1: invalid end state" "$log"; then
		got=hang
	elif grep -q "^pan:1: acceptance cycle" "$log"; then
		got=starve
	else
		got=error
	fi
	if [ -f reader_word.pml.trail ]; then
		# shellcheck disable=SC2086
		spin $defs -t reader_word.pml 2>&1 |
			grep -E '^ *(R[0-9]|U[0-9]|GP)[ :]' | sed 's/^ *//' >counterexample.txt
	fi
	echo "$got ${states:-0} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') -" >result
}

# A small job pool: at most $jobs variants at a time.
running=0
for n in "${names[@]}"; do
	if [ $running -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	( run_one "$n" ) &
	running=$((running + 1))
done
wait

surprises=0
for n in "${names[@]}"; do
	read -r got states secs note <"$out/$n/result" 2>/dev/null || { got=error; states=0; secs=0; note=-; }
	exp=${EXPECT[$n]}
	if [ "$got" = "$exp" ]; then
		verdict=ok
	else
		verdict=SURPRISE
		surprises=$((surprises + 1))
	fi
	printf '%-8s %-24s expected %-7s got %-7s %9s states %6ss  %s\n' \
		"$verdict" "$n" "$exp" "$got" "$states" "$secs" "${WHAT[$n]}"
	if [ "$verdict" = SURPRISE ]; then
		[ "$note" != - ] && echo "         ($note)"
		echo "         see $out/$n/ (pan.out, counterexample.txt; replay: cd there && spin ${DEFS[$n]} -t -p reader_word.pml)"
	fi
done
if [ $surprises -gt 0 ]; then
	echo "verify: $surprises of ${#names[@]} variants did not give the expected outcome"
	exit 1
fi
echo "verify: all ${#names[@]} variants gave the expected outcome"
exit 0
