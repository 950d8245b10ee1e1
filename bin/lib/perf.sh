# shellcheck shell=bash
# bin/lib/perf.sh - bin/torture.sh --torture refscale|rcuscale: run the
# perf programs (build/refscale, build/rcuscale) on the scenarios of
# scenarios/refscale/ or scenarios/rcuscale/, as the kernel's kvm.sh
# --torture refscale|rcuscale runs configs/refscale|rcuscale.  Sourced by
# torture.sh, which calls perf_dispatch "$@" first: it takes over (and
# exits) when the suite is refscale or rcuscale, and returns otherwise.
# The caller has set -euo pipefail and PROG, and sourced common.sh.

perf_usage() {
	cat <<EOF
usage: bin/torture.sh --torture refscale|rcuscale [options] [SCENARIO...]

Runs the perf program of the suite (build/refscale: read-side cost;
build/rcuscale: grace periods, callbacks) once per scenario, one after
the other (measurements must not overlap), after checking every scenario
(nothing is run if one is wrong: exit 2).  A scenario is a file of the
suite's folder (scenarios/$1/ by default) in the kernel's layout:
CFcommon (applied first), NAME (Kconfig lines: CONFIG_NR_CPUS=N becomes
the library's nr_cpus=N; as for rcutorture, RCU_FANOUT and the others
that stand for boot parameters become them, and PREEMPT_RCU decides what
the type rcu is: without it the kernel's non-preemptible RCU, our sched;
the rest mean nothing here), NAME.boot (parameters: $1.*,
rcutree.*, nr_cpus=, ...), CFLIST (the default list).  A scenario whose
Kconfig derives CONFIG_TINY_RCU (SMP=n without PREEMPT_RCU) measures Tiny
RCU: the program of the Tiny build (make TINY=1), every thread on one CPU
under SCHED_FIFO (docs/design/tiny.md).  The kernel's
$1 parameters with no userspace meaning ($1.shutdown ...) are
accepted and named as ignored in the line.  Prints one line a scenario:
SUCCESS, FAILURE or SKIPPED (Tiny RCU where SCHED_FIFO is refused, a type
only the kernel has, or a liburcu type not built here); exit status 0 if
none failed, 1 if one did.

Options:
  --scenario-dir DIR  the suite's scenario folder
  --configs "LIST"    scenarios (N*NAME runs NAME N times; CFLIST its list)
  --bootargs "ARGS"   parameters after every scenario's (later wins)
  --duration D        the longest one measurement may take (the program's
                      $1.timeout): 30s, 5m, a bare number is minutes
  --cpus N            run pinned to N of this host's CPUs (taskset)
  --kasan, --kcsan    the AddressSanitizer / ThreadSanitizer build
  --results DIR       where the results go (default results/): DIR/DATE/
  --datestamp NAME    DIR/NAME instead of the date
  --dryrun            check, build, print the command lines; run nothing
  --help              this text

Per scenario: RESULTS/DATE/NAME/ holds command, output.txt (the
program's table and messages), perf.jsonl (its JSON lines), status and
summary.json (suite, scenario, run: NAME or NAME.N, result, exit_status,
duration_s, measurements, targets_met, targets_missed, ignored, rcu: tree
or tiny; reason when not a SUCCESS).  RESULTS/DATE/log has the
lines printed.  bin/compare-liburcu.sh compares our flavors with
liburcu's.  Environment: PERF_BIN=PATH runs PATH instead of building,
PERF_TINY_BIN=PATH the same for the Tiny RCU scenarios.
EOF
}

# perf_dispatch ARG...: run the perf suite if --torture names one.
perf_dispatch() {
	local -a a=("$@")
	local i suite=
	for ((i = 0; i < ${#a[@]}; i++)); do
		case ${a[i]} in
		--torture) suite=${a[i + 1]:-} ;;
		--torture=*) suite=${a[i]#*=} ;;
		esac
	done
	case $suite in
	refscale | rcuscale)
		perf_main "$suite" "$@"
		exit $? ;;
	esac
}

PERF_SUITE=
PERF_DIR=
PERF_NAMES=()
PERF_EXTRA=
PERF_TIMEOUT=
PERF_CPUS=
PERF_SAN=
PERF_RESULTS=
PERF_DATESTAMP=
PERF_DRYRUN=0

perf_parse() {
	local o v
	while (($#)); do
		o=$1 v=
		if [[ $o == --*=* ]]; then
			v=${o#*=} o=${o%%=*}
			set -- "$o" "$v" "${@:2}"
		fi
		case $o in
		--help | -h) perf_usage "$PERF_SUITE"; exit 0 ;;
		--torture | --scenario-dir | --configs | --bootargs | --duration | --cpus | --results | \
			--datestamp)
			(($# >= 2)) || die 2 "$o: needs a value (see --help)" ;;
		esac
		case $o in
		--torture) ;;
		--scenario-dir)
			[ -d "$2" ] || die 2 "--scenario-dir $2: no such folder"
			PERF_DIR=$(cd "$2" && pwd) ;;
		--configs) read -ra v <<<"$2" || true; PERF_NAMES+=(${v[@]+"${v[@]}"}) ;;
		--bootargs) PERF_EXTRA="$PERF_EXTRA $2" ;;
		--duration)
			PERF_TIMEOUT=$(parse_duration "$2") ||
				die 2 "--duration $2: expected minutes or a number with s, m, h or d (30s, 5m, 2h)" ;;
		--cpus)
			if ! [[ $2 =~ ^[0-9]{1,4}$ ]] || ((10#$2 == 0)); then
				die 2 "--cpus $2: expected a number of CPUs >= 1"
			fi
			PERF_CPUS=$((10#$2)) ;;
		--kasan) PERF_SAN=address ;;
		--kcsan) PERF_SAN=thread ;;
		--results) PERF_RESULTS=$2 ;;
		--datestamp)
			[[ $2 =~ ^[A-Za-z0-9._-]+$ ]] || die 2 "--datestamp $2: letters, digits, . _ - only"
			PERF_DATESTAMP=$2 ;;
		--dryrun) PERF_DRYRUN=1 ;;
		--kill-previous) ;;	# torture.sh's session_lock
		--) shift; PERF_NAMES+=("$@"); break ;;
		-*) die 2 "$o: not an option of --torture $PERF_SUITE (see --torture $PERF_SUITE --help)" ;;
		*) PERF_NAMES+=("$o") ;;
		esac
		case $o in
		--torture | --scenario-dir | --configs | --bootargs | --duration | --cpus | --results | \
			--datestamp) shift ;;
		esac
		shift
	done
}

# perf_words FILE: its tokens, comments (#, #CHECK#) and blank lines out.
perf_words() {
	sed -e 's/#.*//' "$1" | tr -s '[:blank:]' '\n' | sed '/^$/d'
}

# perf_expand NAME...: scenario names, one a line (N*NAME repeated,
# CFLIST read); fails naming an unknown one.
perf_expand() {
	local n name count
	for n in "$@"; do
		count=1 name=$n
		if [[ $n =~ ^([0-9]+)\*(.+)$ ]]; then
			count=$((10#${BASH_REMATCH[1]})) name=${BASH_REMATCH[2]}
		fi
		if [ "$name" = CFLIST ]; then
			[ -f "$PERF_DIR/CFLIST" ] || die 2 "$PERF_DIR/CFLIST: no such file"
			# shellcheck disable=SC2046  # one name a word
			perf_expand $(perf_words "$PERF_DIR/CFLIST")
			continue
		fi
		[ -f "$PERF_DIR/$name" ] || [ -f "$PERF_DIR/$name.boot" ] ||
			die 2 "$name: no such scenario in $PERF_DIR"
		for ((; count > 0; count--)); do echo "$name"; done
	done
}

# perf_plan NAME FIELD: a field of scenario NAME's plan as the rcutorture
# runner settles it from the Kconfig lines (bin/lib/scenario.sh, the
# kernel's derivations): "type" (rcu, or sched without PREEMPT_RCU),
# "skip" (Tiny RCU ...); nothing if the files cannot be read so.
perf_plan() {
	(SCENARIO_DIR=$PERF_DIR scen_resolve "$1" 60 2>/dev/null) | sed -n "s/^$2 //p" | head -n 1
}

# perf_kconfig_args NAME: the library's boot parameters that scenario
# NAME's Kconfig lines stand for, as for rcutorture (RCU_FANOUT is
# rcutree.rcu_fanout ...; the CPU count is perf_args' business).
perf_kconfig_args() {
	(SCENARIO_DIR=$PERF_DIR scen_resolve "$1" 60 2>/dev/null) |
		sed -n 's/^check \([^\t]*\)\t.*(CONFIG_[A-Z0-9_]*=[^)]*)$/\1/p' | grep -v '^rcutorture\.' || true
}

# perf_notes NAME: what the scenario's Kconfig lines mean here that is not
# an argument (ignored options, rcu measured as sched ...), as the
# rcutorture runner notes them: "note: NAME: ...", one a line.
perf_notes() {
	{ (SCENARIO_DIR=$PERF_DIR scen_resolve "$1" 60 2>/dev/null) || true; } |
		sed -n "s/^note /note: $1: /p"
}

# perf_args NAME: the program's arguments for scenario NAME, one a line.
# As in the kernel, the types are those of the configuration: without
# PREEMPT_RCU the kernel's rcu is the non-preemptible flavor, our sched
# (also the default type, rcu, then).
perf_args() {
	local f w sched=0 typed=0
	[ "$(perf_plan "$1" type)" != sched ] || sched=1
	perf_kconfig_args "$1"
	for f in "$PERF_DIR/CFcommon" "$PERF_DIR/$1" "$PERF_DIR/$1.boot"; do
		[ -f "$f" ] || continue
		while IFS= read -r w; do
			case $w in
			CONFIG_NR_CPUS=*) echo "nr_cpus=${w#*=}" ;;
			CONFIG_*) ;;
			"$PERF_SUITE".scale_type=*)
				typed=1
				((sched)) || { echo "$w"; continue; }
				# rcu is sched here (once: a list may name both).
				echo "$PERF_SUITE.scale_type=$(tr ',' '\n' <<<"${w#*=}" |
					sed 's/^rcu$/sched/' | awk '!seen[$0]++' | paste -sd, -)" ;;
			*) echo "$w" ;;
			esac
		done < <(perf_words "$f")
	done
	((typed || !sched)) || echo "$PERF_SUITE.scale_type=sched"
	# shellcheck disable=SC2086  # split the --bootargs words
	[ -z "${PERF_EXTRA// /}" ] || printf '%s\n' $PERF_EXTRA
	[ -z "$PERF_TIMEOUT" ] || echo "$PERF_SUITE.timeout=$PERF_TIMEOUT"
}

# perf_tiny NAME: does scenario NAME measure Tiny RCU (its Kconfig derives
# CONFIG_TINY_RCU, as the rcutorture runner settles it)?
perf_tiny() {
	[[ $(perf_plan "$1" build) == tiny* ]]
}

# perf_prog NAME: the program that measures scenario NAME: the Tiny
# build's for Tiny RCU (perf_build made it if a scenario needs it).
perf_prog() {
	if perf_tiny "$1"; then echo "$PERF_TINY_PROG"; else echo "$PERF_PROG"; fi
}

# perf_skip NAME: why scenario NAME cannot run here, or nothing: a liburcu
# type it measures is not built, or the program says a type cannot run
# here (--check's exit status 4: the kernel's and not implemented, or
# Tiny RCU where SCHED_FIFO is refused).
perf_skip() {
	local types t out
	out=$(perf_plan "$1" skip)
	[ -z "$out" ] || { echo "$out"; return; }
	types=$(perf_args "$1" | sed -n "s/^$PERF_SUITE\.scale_type=//p" | tail -n 1)
	for t in ${types//,/ }; do
		[[ $t == urcu-* ]] || continue
		grep -qx -- "$t" <<<"$PERF_TYPES" || { echo "torture type $t not built here"; return; }
	done
	local -a args
	mapfile -t args < <(perf_args "$1")
	out=$("$(perf_prog "$1")" --check ${args[@]+"${args[@]}"} 2>&1) && return
	[ $? != 4 ] || echo "${out##*: }"
}

# perf_make DIR MAKEVAR...: make DIR/$PERF_SUITE (DIR under the tree),
# its path printed.
perf_make() {
	local build=$1
	shift
	tree_make -j2 -s ${PERF_SAN:+SAN=$PERF_SAN} "$@" "$build/$PERF_SUITE" >&2 ||
		die 1 "make $* $build/$PERF_SUITE failed"
	echo "$TORTURE_TOP/$build/$PERF_SUITE"
}

# perf_build NAME...: the programs the scenarios need (PERF_PROG, and
# PERF_TINY_PROG if one measures Tiny RCU), built unless given.
perf_build() {
	local build=build n
	[ -z "$PERF_SAN" ] || build=build/$([ "$PERF_SAN" = thread ] && echo tsan || echo asan)
	PERF_PROG=${PERF_BIN:-}
	[ -n "$PERF_PROG" ] || PERF_PROG=$(perf_make "$build")
	[ -x "$PERF_PROG" ] || die 2 "$PERF_PROG: not an executable"
	# Built types are bare names; "NAME (why)" lines are types that are not.
	PERF_TYPES=$("$PERF_PROG" --list-types | awk 'NF == 1')
	PERF_TINY_PROG=
	for n in $(printf '%s\n' "$@" | sort -u); do
		perf_tiny "$n" || continue
		PERF_TINY_PROG=${PERF_TINY_BIN:-}
		[ -n "$PERF_TINY_PROG" ] || PERF_TINY_PROG=$(perf_make "$build/tiny" TINY=1)
		[ -x "$PERF_TINY_PROG" ] || die 2 "$PERF_TINY_PROG: not an executable"
		break
	done
}

# perf_check NAME...: every distinct scenario's arguments pass the
# program's --check (each problem printed; fails if any).
perf_check() {
	local n out rc=0
	local -a args
	for n in $(printf '%s\n' "$@" | sort -u); do
		[ -z "$(perf_skip "$n")" ] || continue
		mapfile -t args < <(perf_args "$n")
		if ! out=$("$(perf_prog "$n")" --check ${args[@]+"${args[@]}"} 2>&1); then
			echo "$PROG: $n: ${out##*$'\n'}" >&2
			rc=2
		fi
	done
	return "$rc"
}

# perf_cpus: the taskset prefix for --cpus N (the first N CPUs we may use).
perf_pin() {
	[ -n "$PERF_CPUS" ] || return 0
	have taskset || die 2 "--cpus: taskset not installed (Debian package util-linux)"
	echo taskset -c "$(allowed_cpus | head -n "$PERF_CPUS" | paste -sd, -)"
}

# perf_run_one NAME DIR: run a scenario into DIR (NAME, NAME.2, ...);
# prints its line.
perf_run_one() {
	local name=$1 dir=$2 inst=${2##*/} skip t0 t1 st=0 secs meas met missed result ign exe rcu why=
	local -a args pin
	mkdir -p "$dir"
	skip=$(perf_skip "$name")
	if [ -n "$skip" ]; then
		echo skipped >"$dir/status"
		jq -n -c --arg s "$PERF_SUITE" --arg n "$name" --arg i "$inst" --arg r "$skip" \
			'{suite: $s, scenario: $n, run: $i, result: "SKIPPED", reason: $r}' >"$dir/summary.json"
		echo "$inst: SKIPPED ($skip)"
		return 0
	fi
	mapfile -t args < <(perf_args "$name")
	read -ra pin <<<"$(perf_pin)"
	exe=$(perf_prog "$name")
	printf '%s\n' "${pin[*]+${pin[*]} }$exe --json $dir/perf.jsonl ${args[*]}" >"$dir/command"
	t0=$(date +%s.%N)
	${pin[@]+"${pin[@]}"} "$exe" --json "$dir/perf.jsonl" ${args[@]+"${args[@]}"} \
		>"$dir/output.txt" 2>&1 || st=$?
	t1=$(date +%s.%N)
	echo "$st" >"$dir/status"
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	meas=$(jq -s '[.[] | select(.kind == "summary")] | length' "$dir/perf.jsonl" 2>/dev/null || echo 0)
	met=$(jq -s '[.[] | select(.kind == "targets") | .targets[] | select(.met)] | length' \
		"$dir/perf.jsonl" 2>/dev/null || echo 0)
	missed=$(jq -s '[.[] | select(.kind == "targets") | .targets[] | select(.met | not)] | length' \
		"$dir/perf.jsonl" 2>/dev/null || echo 0)
	# Which RCU the figures are of, as the program's JSON lines say.
	rcu=$(jq -r -s 'map(.host.rcu // empty) | first // "unknown"' "$dir/perf.jsonl" 2>/dev/null ||
		echo unknown)
	# The kernel's parameters the program accepted without acting on them.
	ign=$(sed -n 's/^[a-z]*: note: \([^ :]*\): ignored: .*/\1/p' "$dir/output.txt" |
		sort -u | paste -sd' ' -)
	result=SUCCESS
	if [ "$st" != 0 ] || [ "$meas" = 0 ]; then
		result=FAILURE
		why=$(grep -v '^$' "$dir/output.txt" | tail -n 1 | cut -c1-200)
	fi
	jq -n -c --arg s "$PERF_SUITE" --arg n "$name" --arg i "$inst" --arg r "$result" --argjson st "$st" \
		--argjson d "$secs" --argjson m "$meas" --argjson met "$met" --argjson mi "$missed" \
		--arg why "$why" --arg ign "$ign" --arg rcu "$rcu" '{suite: $s, scenario: $n, run: $i, result: $r,
		exit_status: $st, duration_s: $d, measurements: $m, targets_met: $met, targets_missed: $mi,
		ignored: ($ign | split(" ") | map(select(. != ""))), rcu: $rcu}
		+ (if $why != "" then {reason: $why} else {} end)' >"$dir/summary.json"
	if [ "$result" = SUCCESS ]; then
		echo "$inst: SUCCESS ($secs s, $meas measurements, targets met $met of $((met + missed))${ign:+; ignored: $ign})"
	else
		echo "$inst: FAILURE (exit $st, $secs s): $why"
	fi
}

perf_main() {
	PERF_SUITE=$1
	shift
	perf_parse "$@"
	have jq || die 2 "--torture $PERF_SUITE: jq not installed (Debian package jq)"
	# The suites' folders sit in the scenario folder (TORTURE_SCENARIO_DIR).
	PERF_DIR=${PERF_DIR:-$SCENARIO_DIR/$PERF_SUITE}
	[ -d "$PERF_DIR" ] || die 2 "$PERF_DIR: no such folder"
	[ ${#PERF_NAMES[@]} -gt 0 ] || PERF_NAMES=(CFLIST)
	local -a list
	local names n res count line failed=0
	names=$(perf_expand "${PERF_NAMES[@]}")
	mapfile -t list <<<"$names"
	perf_build "${list[@]}"
	perf_check "${list[@]}" || exit 2
	for n in $(printf '%s\n' "${list[@]}" | sort -u); do
		perf_notes "$n" >&2
	done
	if ((PERF_DRYRUN)); then
		for n in $(printf '%s\n' "${list[@]}" | sort -u); do
			if [ -n "$(perf_skip "$n")" ]; then
				echo "$n: skipped ($(perf_skip "$n"))"
			else
				echo "$n: $(perf_prog "$n") $(perf_args "$n" | paste -sd' ' -)"
			fi
		done
		return 0
	fi
	res=${PERF_RESULTS:-$TORTURE_TOP/results}
	res=${res%/}/${PERF_DATESTAMP:-$(date +%Y.%m.%d-%H.%M.%S)}
	[ ! -e "$res" ] || die 2 "$res exists already (use --datestamp)"
	mkdir -p "$res" || die 2 "$res: cannot create"
	declare -A seen=()
	for n in "${list[@]}"; do
		count=$((${seen[$n]:-0} + 1))
		seen[$n]=$count
		line=$(perf_run_one "$n" "$res/$n$([ "$count" = 1 ] || echo ".$count")")
		echo "$line" | tee -a "$res/log"
		[[ $line != *": FAILURE "* ]] || failed=1
	done
	echo "Results: $res" | tee -a "$res/log"
	return "$failed"
}
