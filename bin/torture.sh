#!/usr/bin/env bash
# torture.sh - build and run rcutorture scenarios, in the spirit of the
# kernel's tools/testing/selftests/rcutorture/bin/kvm.sh.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=torture.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"
# shellcheck source=lib/scenario.sh
. "$BIN_DIR/lib/scenario.sh"
# shellcheck source=lib/judge.sh
. "$BIN_DIR/lib/judge.sh"
# shellcheck source=lib/run.sh
. "$BIN_DIR/lib/run.sh"
# shellcheck source=lib/perf.sh
. "$BIN_DIR/lib/perf.sh"

DEFAULT_DURATION=1m
DEFAULT_GRACE=60

usage() {
	cat <<EOF
usage: bin/torture.sh [options] [SCENARIO...]

Builds rcutorture for each scenario's configuration (build/torture-TAG,
reused when unchanged), runs the scenarios (side by side while their CPUs
fit), judges each run as the kernel's kvm-recheck does, and prints one
line a scenario.  Exit status 0 only if every run succeeded, 1 if any
failed, 2 for bad input (nothing is run).

SCENARIO is a file in scenarios/ (TREE01 ... BUSTED, URCU-MB ...), N*NAME
runs it N times, and a list in configs/ (CFLIST, quick) stands for its
scenarios.  With no scenario at all, CFLIST is run.

Options:
  --duration D      run time of each scenario: a bare number is minutes,
                    or 30s, 5m, 2h, 1d (default $DEFAULT_DURATION: bin/torture.sh TREE01
                    takes about two minutes with the build)
  --cpus N          CPUs to use (default: all online, here $(allowed_cpus | wc -l)); a run
                    needs min(its CPUs, this host's); runs side by side
                    while they fit, pinned with taskset
  --configs "LIST"  scenarios, e.g. "2*TREE01 TREE03 quick" (adds to the
                    SCENARIO arguments)
  --bootargs "ARGS" CONFIG_X=y lines or boot arguments (rcutorture.*,
                    rcutree.*, ...) added after every scenario (later wins)
  --kasan, --kcsan  build with AddressSanitizer / ThreadSanitizer
                    (CONFIG_KASAN=y / CONFIG_KCSAN=y)
  --results DIR     where the results go (default results/); each run
                    makes DIR/YYYY.MM.DD-HH.MM.SS/
  --repeat N        run the whole set N times
  --until-fail      run the set again until a run fails (at most --repeat
                    times when given)
  --shutdown-grace S  seconds past its duration before a run counts as
                    hung and is killed (default $DEFAULT_GRACE)
  --dryrun          print the builds, batches and command lines; run nothing
  --torture refscale|rcuscale  the perf programs on scenarios/refscale/ or
                    scenarios/rcuscale/ instead (--torture refscale --help)
  --help            this text

Per run: RESULTS/DATE/SCENARIO/ holds ConfigFragment, cmdline,
console.log, stats.jsonl, gp-latency.dat, summary.json, exit_status;
RESULTS/DATE/log the command, progress and the final table;
RESULTS/DATE/index.html the report (bin/report.sh; plots with gnuplot).
bin/recheck.sh RESULTS/DATE judges saved results again.
Environment: TORTURE_BIN=PATH runs PATH instead of building (tests);
TORTURE_NO_REPORT=1 skips the plots and the report.
EOF
}

# Options (set by parse_options).
OPT_DURATION=
OPT_CPUS=
OPT_RESULTS=$TORTURE_TOP/results
OPT_DRYRUN=0
OPT_REPEAT=
OPT_UNTIL_FAIL=0
OPT_GRACE=$DEFAULT_GRACE
OPT_NAMES=()
OPT_BOOTARGS=()	# ORIGIN TOKENS pairs for scen_resolve

# positive TEXT: is TEXT a whole number from 1 to 999999?
positive() {
	[[ $1 =~ ^[0-9]{1,6}$ ]] && ((10#$1 > 0))
}

# need_value OPTION ARGC: the option has its value?
need_value() {
	(($2 >= 2)) || die 2 "$1: needs a value (see --help)"
}

# parse_options ARG...: fill the OPT_* variables; exit 2 on bad input.
parse_options() {
	local o v
	while (($#)); do
		o=$1 v=
		if [[ $o == --*=* ]]; then
			v=${o#*=} o=${o%%=*}
			set -- "$o" "$v" "${@:2}"
		fi
		case $o in
		--help | -h) usage; exit 0 ;;
		--duration)
			need_value "$o" $#
			OPT_DURATION=$(parse_duration "$2") ||
				die 2 "--duration $2: expected minutes or a number with s, m, h or d (30s, 5m, 2h)"
			shift ;;
		--cpus)
			need_value "$o" $#
			positive "$2" || die 2 "--cpus $2: expected a number of CPUs >= 1"
			OPT_CPUS=$((10#$2))
			shift ;;
		--configs)
			need_value "$o" $#
			read -ra v <<<"$2" || true
			OPT_NAMES+=("${v[@]}")
			shift ;;
		--bootargs)
			need_value "$o" $#
			OPT_BOOTARGS+=(--bootargs "$2")
			shift ;;
		--kasan) OPT_BOOTARGS+=(--kasan CONFIG_KASAN=y) ;;
		--kcsan) OPT_BOOTARGS+=(--kcsan CONFIG_KCSAN=y) ;;
		--results)
			need_value "$o" $#
			OPT_RESULTS=$2
			shift ;;
		--repeat)
			need_value "$o" $#
			positive "$2" || die 2 "--repeat $2: expected a count >= 1"
			OPT_REPEAT=$((10#$2))
			shift ;;
		--until-fail) OPT_UNTIL_FAIL=1 ;;
		--shutdown-grace)
			need_value "$o" $#
			[[ $2 =~ ^[0-9]{1,6}$ ]] || die 2 "--shutdown-grace $2: expected seconds"
			OPT_GRACE=$((10#$2))
			shift ;;
		--dryrun) OPT_DRYRUN=1 ;;
		--) shift; OPT_NAMES+=("$@"); break ;;
		-*) die 2 "$o: unknown option (see --help)" ;;
		*) OPT_NAMES+=("$o") ;;
		esac
		shift
	done
	OPT_DURATION=${OPT_DURATION:-$(parse_duration "$DEFAULT_DURATION")}
	[ ${#OPT_NAMES[@]} -gt 0 ] || OPT_NAMES=(CFLIST)
	return 0
}

# check_bootargs: the command line's tokens alone, so that a bad one is
# named once, not once a scenario.
check_bootargs() {
	local i rc=0
	for ((i = 0; i < ${#OPT_BOOTARGS[@]}; i += 2)); do
		scen_parse_tokens "${OPT_BOOTARGS[i]}" "${OPT_BOOTARGS[i + 1]}" >/dev/null || rc=2
	done
	return "$rc"
}

# make_plans WORK NAME...: WORK/NAME.plan for each distinct scenario;
# every error is printed before failing.
make_plans() {
	local work=$1 name rc=0
	shift
	for name in $(printf '%s\n' "$@" | sort -u); do
		scen_resolve "$name" "$OPT_DURATION" "$HOST_CPUS" ${OPT_BOOTARGS[@]+"${OPT_BOOTARGS[@]}"} \
			>"$work/$name.plan" || rc=2
	done
	return "$rc"
}

# plan_bin PLANFILE: the rcutorture binary for a plan (absolute).
plan_bin() {
	if [ -n "${TORTURE_BIN:-}" ]; then
		echo "$TORTURE_BIN"
	else
		echo "$TORTURE_TOP/$(build_dir "$(plan_get build <"$1")")/rcutorture"
	fi
}

# distinct_builds WORK NAME...: "TAG MAKEVAR..." per distinct build.
distinct_builds() {
	local work=$1 name
	shift
	for name in "$@"; do
		echo "$(plan_get build <"$work/$name.plan") $(plan_get make <"$work/$name.plan" | tr '\n' ' ')"
	done | sort -u
}

# instance_names NAME...: INSTANCES gets the run directory names:
# TREE01, TREE01.2, ... numbered on across rounds (INSTANCE_SEEN).
declare -A INSTANCE_SEEN=()
INSTANCES=()
instance_names() {
	local name k
	INSTANCES=()
	for name in "$@"; do
		k=$((${INSTANCE_SEEN[$name]:-0} + 1))
		INSTANCE_SEEN[$name]=$k
		if ((k == 1)); then INSTANCES+=("$name"); else INSTANCES+=("$name.$k"); fi
	done
}

# batches_for WORK INSTANCE...: "BATCH INSTANCE CPULIST" lines: the runs
# of a batch go side by side, each on its own CPUs.
batches_for() {
	local work=$1 inst n b need prev=0 off=0
	shift
	local -a cpus
	mapfile -t cpus < <(allowed_cpus)
	for inst in "$@"; do
		n=$(plan_get ncpus <"$work/$(instance_scenario "$inst").plan")
		echo "$inst $((n < HOST_CPUS ? n : HOST_CPUS))"
	done | sched_batches "$CPU_BUDGET" | while read -r b inst need; do
		((b == prev)) || off=0
		prev=$b
		echo "$b $inst $(sched_cpus "$off" "$need" "${cpus[@]}")"
		off=$((off + need))
	done
}

# dryrun WORK NAME...: what a run would do.
dryrun() {
	local work=$1 tag vars b inst cpus prev=0 plan
	shift
	echo "Scenarios: $*"
	echo "Duration: ${OPT_DURATION}s each; CPUs: $CPU_BUDGET; rounds: $(rounds_desc)"
	while read -r tag vars; do
		if [ -n "${TORTURE_BIN:-}" ]; then
			echo "Build $tag: not built (TORTURE_BIN=$TORTURE_BIN)"
		else
			# shellcheck disable=SC2086
			echo "Build $tag: $(build_cmd "$tag" $vars | tr '\n' ' ' | sed 's/ $//')"
		fi
	done < <(distinct_builds "$work" "$@")
	while read -r b inst cpus; do
		plan=$work/$(instance_scenario "$inst").plan
		if ((b != prev)); then echo "Batch $b:"; prev=$b; fi
		echo "  $inst: $(run_cmd "$OPT_RESULTS/DATE/$inst" "$(plan_bin "$plan")" "$cpus" "$plan" |
			tr '\n' ' ' | sed 's/ $//')"
		plan_get note <"$plan" | sed 's/^/    note: /'
	done < <(instance_names "$@" && batches_for "$work" "${INSTANCES[@]}")
}

# rounds_desc: how many times the set runs, in words.
rounds_desc() {
	if ((OPT_UNTIL_FAIL)); then
		echo "until a run fails${OPT_REPEAT:+ (at most $OPT_REPEAT)}"
	else
		echo "${OPT_REPEAT:-1}"
	fi
}

# make_results_dir: RESULTS/YYYY.MM.DD-HH.MM.SS (".N" added if taken).
make_results_dir() {
	local base d n=1
	base=$OPT_RESULTS/$(date +%Y.%m.%d-%H.%M.%S)
	d=$base
	while ! mkdir -p "$OPT_RESULTS" 2>/dev/null || ! mkdir "$d" 2>/dev/null; do
		[ -d "$OPT_RESULTS" ] || die 1 "--results $OPT_RESULTS: cannot create"
		n=$((n + 1))
		d=$base.$n
		((n < 100)) || die 1 "$base: cannot create"
	done
	(cd "$d" && pwd)
}

# log_notes WORK NAME...: each scenario's notes (ignored options), once.
log_notes() {
	local work=$1 name l
	shift
	for name in $(printf '%s\n' "$@" | sort -u); do
		while IFS= read -r l; do log "$name: $l"; done < <(plan_get note <"$work/$name.plan")
	done
}

# do_builds WORK RESDIR NAME...: build each distinct configuration; the
# tags that failed go to FAILED_BUILDS.
declare -A FAILED_BUILDS=()
do_builds() {
	local work=$1 res=$2 tag vars
	shift 2
	if [ -n "${TORTURE_BIN:-}" ]; then
		log "Not building: TORTURE_BIN=$TORTURE_BIN runs every scenario"
		while read -r tag vars; do
			[ "$tag" = plain ] || log "Build $tag ($vars) not made: TORTURE_BIN used instead"
		done < <(distinct_builds "$work" "$@")
		return 0
	fi
	while read -r tag vars; do
		log "Building $tag in $(build_dir "$tag") (log: build-$tag.log)"
		# shellcheck disable=SC2086
		if ! build_run "$tag" "$res/build-$tag.log" $vars; then
			FAILED_BUILDS[$tag]=1
			log "Build $tag FAILED: $(grep -m1 -iE 'error|no rule' "$res/build-$tag.log" || tail -n1 "$res/build-$tag.log")"
		fi
	done < <(distinct_builds "$work" "$@")
}

# run_batch WORK RESDIR INSTANCE:CPULIST...: start the batch's runs,
# watch them to their end.
RUNNING=()
run_batch() {
	local work=$1 res=$2 item inst cpus plan dir tag
	shift 2
	local -a cmd
	RUNNING=()
	for item in "$@"; do
		inst=${item%%:*} cpus=${item#*:}
		plan=$work/$(instance_scenario "$inst").plan
		dir=$res/$inst
		run_prepare "$dir" "$plan"
		tag=$(plan_get build <"$plan")
		if [ -n "${FAILED_BUILDS[$tag]:-}" ]; then
			echo "!!! build failed (see build-$tag.log)" >"$dir/Warnings"
			log "$inst: not run: build $tag failed"
			continue
		fi
		mapfile -t cmd < <(run_cmd "$dir" "$(plan_bin "$plan")" "$cpus" "$plan")
		run_start "$dir" "$(plan_get duration <"$plan")" "${cmd[@]}"
		RUNNING+=("$dir")
		log "$inst: started, $(plan_get duration <"$plan")s on CPUs $cpus"
	done
	[ ${#RUNNING[@]} -eq 0 ] || run_watch "$OPT_GRACE" "${RUNNING[@]}"
	for dir in ${RUNNING[@]+"${RUNNING[@]}"}; do
		log "${dir##*/}: ended, exit status $(cat "$dir/exit_status")"
	done
	RUNNING=()
}

# on_signal: stop the running runs and leave.
# shellcheck disable=SC2317  # called by trap
on_signal() {
	local d
	trap - INT TERM
	for d in ${RUNNING[@]+"${RUNNING[@]}"}; do run_kill "$d" TERM; done
	log "Interrupted: runs stopped; judge what is saved with bin/recheck.sh ${RESDIR:-}"
	exit 130
}

# run_round WORK RESDIR NAME...: one pass over the scenarios; their
# summary lines are added to TABLE; fails if any run failed.
TABLE=()
run_round() {
	local work=$1 res=$2 b inst cpus prev='' line rc=0
	shift 2
	local -a insts=() batch=()
	instance_names "$@"
	insts=("${INSTANCES[@]}")
	while read -r b inst cpus; do
		if [ -n "$prev" ] && [ "$b" != "$prev" ]; then
			run_batch "$work" "$res" "${batch[@]}"
			batch=()
		fi
		prev=$b
		batch+=("$inst:$cpus")
	done < <(batches_for "$work" "${insts[@]}")
	run_batch "$work" "$res" "${batch[@]}"
	for inst in "${insts[@]}"; do
		line=$(judge_dir "$res/$inst") || rc=1
		TABLE+=("$line")
	done
	return "$rc"
}

# summary RESDIR STATUS: the final table, on stdout and in the log.
summary() {
	local res=$1 st=$2 line nbad=0
	log ""
	log " --- $(date '+%Y.%m.%d-%H.%M.%S') Test summary:"
	log "Results directory: $res"
	for line in "${TABLE[@]}"; do
		log "$line"
		[[ $line != *" FAILURE: "* ]] || nbad=$((nbad + 1))
	done
	if ((nbad)); then
		log "$nbad of ${#TABLE[@]} runs failed."
	else
		log "All ${#TABLE[@]} runs succeeded."
	fi
	log " --- Done, exit status $st"
}

main() {
	local work names round=0 st=0
	parse_options "$@"
	HOST_CPUS=$(allowed_cpus | wc -l)
	CPU_BUDGET=${OPT_CPUS:-$HOST_CPUS}
	check_bootargs || exit 2
	names=$(list_expand "${OPT_NAMES[@]}") || exit 2
	[ -n "$names" ] || die 2 "no scenarios to run"
	local -a list
	mapfile -t list <<<"$names"
	work=$(mktemp -d "${TMPDIR:-/tmp}/torture.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	RUN_STATE=$work/state
	make_plans "$work" "${list[@]}" || exit 2
	if ((OPT_DRYRUN)); then
		dryrun "$work" "${list[@]}"
		exit 0
	fi

	RESDIR=$(make_results_dir)
	LOG=$RESDIR/log
	trap on_signal INT TERM
	log "$PROG $*"
	log "Results directory: $RESDIR"
	log "Scenarios: ${list[*]}; ${OPT_DURATION}s each; CPUs: $CPU_BUDGET; rounds: $(rounds_desc)"
	git -C "$TORTURE_TOP" rev-parse HEAD >"$RESDIR/testid.txt" 2>/dev/null || true
	git -C "$TORTURE_TOP" status --short >>"$RESDIR/testid.txt" 2>/dev/null || true
	have_jq || log "jq not found (Debian package jq): figures come from console.log; summary.json is not cross-checked"
	log_notes "$work" "${list[@]}"
	do_builds "$work" "$RESDIR" "${list[@]}"
	while :; do
		round=$((round + 1))
		((round == 1)) || log "Round $round"
		run_round "$work" "$RESDIR" "${list[@]}" || st=1
		if ((OPT_UNTIL_FAIL)); then
			((st == 0)) || break
			[ -z "$OPT_REPEAT" ] || ((round < OPT_REPEAT)) || break
		else
			((round < ${OPT_REPEAT:-1})) || break
		fi
	done
	# Plots (with gnuplot) and RESULTS/DATE/index.html; never the verdict.
	[ -n "${TORTURE_NO_REPORT:-}" ] || "$BIN_DIR/report.sh" "$RESDIR" 2>&1 | while IFS= read -r l; do log "$l"; done || true
	summary "$RESDIR" "$st"
	exit "$st"
}

perf_dispatch "$@"	# --torture refscale|rcuscale: bin/lib/perf.sh
main "$@"
