# shellcheck shell=bash source-path=SCRIPTDIR
# bin/lib/analysis.sh - results folders -> run records (RESULTS/DATE/runs.jsonl),
# shared by plot.sh, report.sh, rollup.sh and nightly.sh.  Sourced; it
# sources common.sh and judge.sh (judge_find_dirs) itself.
#
# A run record is one JSON line per scenario folder, made by
# analysis/run.jq from summary.json, stats.jsonl, the judge's
# console.log.diags, Warnings and exit_status (see analysis/README.md).
# Malformed input (a bad stats.jsonl or gp-latency.dat line, a broken
# summary.json) is named "FILE:LINE: ..." on stderr and skipped; the rest
# is still used.

# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=judge.sh
. "$(dirname "${BASH_SOURCE[0]}")/judge.sh"

ANALYSIS_DIR=${ANALYSIS_DIR:-$TORTURE_TOP/analysis}

# Exit status of the analysis scripts when a tool they need is missing.
ANALYSIS_EXIT_MISSING=3

# analysis_need TOOL PACKAGE WHAT: TOOL on PATH, or one line naming the
# Debian package and exit ANALYSIS_EXIT_MISSING.
analysis_need() {
	have "$1" || die "$ANALYSIS_EXIT_MISSING" "$1 not found (Debian package $2): $3"
}

# analysis_gnuplot WHAT SCRIPT ARG...: gnuplot -c analysis/SCRIPT ARG...;
# a failure (or an error message) is one line on stderr naming WHAT.
analysis_gnuplot() {
	local what=$1 script=$2 err
	shift 2
	if ! err=$(gnuplot -c "$ANALYSIS_DIR/$script" "$@" 2>&1 >/dev/null) || [[ $err == *"error"* ]]; then
		echo "${PROG:-analysis}: $what: gnuplot failed: $(grep -m1 -i error <<<"$err" || tail -n1 <<<"$err")" >&2
		return 1
	fi
}

# analysis_jq ARG...: jq with the filters' folder as its module path.
analysis_jq() {
	jq -L "$ANALYSIS_DIR" "$@"
}

# analysis_dated_dir PARENT: make and print (absolute) a new folder
# PARENT/YYYY.MM.DD-HH.MM.SS, ".N" added when that is taken, as
# bin/torture.sh names its results folders.
analysis_dated_dir() {
	local base d n=1
	mkdir -p "$1" 2>/dev/null || { echo "${PROG:-analysis}: $1: cannot create" >&2; return 2; }
	base=$1/$(date +%Y.%m.%d-%H.%M.%S)
	d=$base
	until mkdir "$d" 2>/dev/null; do
		n=$((n + 1))
		d=$base.$n
		((n < 100)) || { echo "${PROG:-analysis}: $base: cannot create" >&2; return 2; }
	done
	(cd "$d" && pwd)
}

# analysis_when DIR: the date of a results folder as YYYY.MM.DD-HH.MM.SS:
# its name when it is one (bin/torture.sh's DATE, maybe with a .N
# suffix), else the folder's modification time.
analysis_when() {
	local b=${1%/}
	b=${b##*/}
	if [[ $b =~ ^([0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9]{2}\.[0-9]{2}\.[0-9]{2}) ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		date -d "@$(stat -c %Y "$1")" +%Y.%m.%d-%H.%M.%S
	fi
}

# analysis_latency_scan FILE NAME: check gp-latency.dat ("T KIND US" lines
# after a "#" header).  First output line: the kinds present, as a JSON
# array; then one line per malformed line ("NAME:LINE: ..."), at most 5
# and a count of the rest.
analysis_latency_scan() {
	awk -v name="$2" '
	/^#/ || /^[ \t]*$/ { next }
	$0 ~ /^[0-9]+(\.[0-9]+)? [a-z_]+ [0-9]+$/ { kinds[$2] = 1; next }
	{
		bad++
		if (bad <= 5) msg[bad] = name ":" NR ": malformed latency line (" substr($0, 1, 60) "): skipped"
	}
	END {
		n = 0; s = ""
		for (k in kinds) s = s (n++ ? "," : "") "\"" k "\""
		print "[" s "]"
		for (i = 1; i <= bad && i <= 5; i++) print msg[i]
		if (bad > 5) print name ": " (bad - 5) " more malformed latency lines skipped"
	}' "$1"
}

# analysis_file_or_null FILE: FILE if it exists, else /dev/null.
analysis_file_or_null() {
	if [ -f "$1" ]; then echo "$1"; else echo /dev/null; fi
}

# The files of a scenario folder that a record links to (analysis/run.jq
# names them by key).
ANALYSIS_FILES="console.log summary.json stats.jsonl gp-latency.dat cmdline ConfigFragment console.log.diags Warnings torture.log perf.jsonl output.txt"

# analysis_is_run_dir DIR: does DIR hold one run: an rcutorture
# scenario's (judge_is_scenario_dir), or a perf program's (perf.jsonl),
# or one bin/nightly.sh marked with its pass?
analysis_is_run_dir() {
	judge_is_scenario_dir "$1" || [ -f "$1/perf.jsonl" ] || [ -f "$1/pass" ]
}

# analysis_find_runs DIR: DIR itself if it holds one run, else its run
# subdirectories (TREE01 before TREE01.2), one a line.
analysis_find_runs() {
	judge_find_dirs "$1" analysis_is_run_dir
}

# analysis_sanitizer RESDIR: RESDIR/sanitizer.json, the sanitizer
# reports of its runs' console.log files (a perf program's run: its
# output.txt) collapsed by stack
# (analysis/collapse.awk, analysis/collapse.jq: one entry per distinct
# report with its count and runs); [] when there are none.
analysis_sanitizer() {
	local res=${1%/} d
	local -a logs=()
	while IFS= read -r d; do
		if [ -f "$d/console.log" ]; then
			logs+=("$d/console.log")
		elif [ -f "$d/output.txt" ]; then
			logs+=("$d/output.txt")
		fi
	done < <(analysis_find_runs "$res")
	if [ ${#logs[@]} -eq 0 ]; then
		echo '[]' >"$res/sanitizer.json"
		return 0
	fi
	awk -f "$ANALYSIS_DIR/collapse.awk" "${logs[@]}" | analysis_jq -R -s -c -f "$ANALYSIS_DIR/collapse.jq" >"$res/sanitizer.json"
}

# analysis_record DIR DATE WHEN: the run record of one scenario folder
# (one JSON line on stdout).
analysis_record() {
	local dir=${1%/} date=$2 when=$3 f kinds='[]' host='' present='' pass=''
	local -a scan=()
	for f in $ANALYSIS_FILES; do
		[ ! -f "$dir/$f" ] || present+="$f "
	done
	if [ -f "$dir/gp-latency.dat" ]; then
		mapfile -t scan < <(analysis_latency_scan "$dir/gp-latency.dat" "$dir/gp-latency.dat")
	fi
	kinds=${scan[0]:-[]}
	[ ! -f "$dir/host" ] || host=$(head -n1 "$dir/host")
	[ ! -f "$dir/pass" ] || pass=$(head -n1 "$dir/pass")
	printf '%s\n' ${scan[@]+"${scan[@]:1}"} |
	analysis_jq -n -c -f "$ANALYSIS_DIR/run.jq" \
		--arg dir "$dir" --arg run "${dir##*/}" --arg date "$date" --arg when "$when" \
		--arg host "$host" --arg present "$present" --argjson kinds "$kinds" --arg pass "$pass" \
		--rawfile perf "$(analysis_file_or_null "$dir/perf.jsonl")" \
		--rawfile summary "$(analysis_file_or_null "$dir/summary.json")" \
		--rawfile stats "$(analysis_file_or_null "$dir/stats.jsonl")" \
		--rawfile diags "$(analysis_file_or_null "$dir/console.log.diags")" \
		--rawfile warnings "$(analysis_file_or_null "$dir/Warnings")" \
		--rawfile exitst "$(analysis_file_or_null "$dir/exit_status")" \
		--rawfile problems /dev/stdin
}

# analysis_runs_fresh RESDIR: is RESDIR/runs.jsonl newer than every
# file of its runs?
analysis_runs_fresh() {
	local res=${1%/}
	[ -s "$res/runs.jsonl" ] || return 1
	[ -z "$(find "$res" -mindepth 2 -type f -newer "$res/runs.jsonl" ! -path "$res/plots/*" -print -quit)" ]
}

# analysis_collect RESDIR [--cached]: write RESDIR/runs.jsonl (one record
# per scenario folder, the judge's order); malformed input is named on
# stderr.  --cached keeps a runs.jsonl newer than the runs (its problems
# are named again).  Fails with 2
# when RESDIR holds no runs (nor a compare.json), 1 when some input was
# malformed (the rest is in runs.jsonl).
analysis_collect() {
	local res=${1%/} d date when rc=0 tmp
	if [ "${2:-}" = --cached ] && analysis_runs_fresh "$res"; then
		analysis_problems "$res/runs.jsonl" || return 1
		return 0
	fi
	local -a dirs=()
	mapfile -t dirs < <(analysis_find_runs "$res")
	if { [ ${#dirs[@]} -eq 0 ] || [ "${dirs[0]}" = "$res" ]; } && [ -f "$res/compare.json" ]; then
		: >"$res/runs.jsonl"	# bin/compare-liburcu.sh's folder: no torture runs
		return 0
	fi
	if [ ${#dirs[@]} -eq 0 ] || [ "${dirs[0]}" = "$res" ]; then
		echo "${PROG:-analysis}: $res: not a results folder (no scenario folders with console.log, exit_status, cmdline or Warnings)" >&2
		return 2
	fi
	date=${res##*/}
	when=$(analysis_when "$res")
	tmp=$res/runs.jsonl.tmp
	: >"$tmp" || return 2
	for d in "${dirs[@]}"; do
		if ! analysis_record "$d" "$date" "$when" >>"$tmp"; then
			rm -f "$tmp"
			echo "${PROG:-analysis}: $d: could not make its run record" >&2
			return 2
		fi
	done
	mv "$tmp" "$res/runs.jsonl"
	analysis_problems "$res/runs.jsonl" || rc=1
	return "$rc"
}

# analysis_problems RUNSFILE: print the records' problems on stderr; fail
# if there were any.
analysis_problems() {
	local p n=0
	while IFS= read -r p; do
		echo "${PROG:-analysis}: $p" >&2
		n=$((n + 1))
	done < <(jq -r '.problems[]?' "$1")
	((n == 0))
}

# analysis_for_dirs FUNC DIR...: FUNC on each results folder (each must be
# a directory: else exit 2 before any is done); returns the highest
# status FUNC returned.
analysis_for_dirs() {
	local fn=$1 d rc=0 st
	shift
	[ $# -gt 0 ] || { usage >&2; exit 2; }
	for d in "$@"; do
		[ -d "$d" ] || die 2 "$d: no such directory"
	done
	for d in "$@"; do
		st=0
		"$fn" "$d" || st=$?
		((st <= rc)) || rc=$st
	done
	return "$rc"
}

# analysis_compare RESDIR: RESDIR/compare.json checked and summed up
# (analysis/compare.jq), one metric a line; its problems on stderr.
# Fails when there were problems.
analysis_compare() {
	local out p rc=0
	out=$(analysis_jq -c -f "$ANALYSIS_DIR/compare.jq" "$1/compare.json" 2>&1) ||
		{ echo "${PROG:-analysis}: $1/compare.json: not valid JSON: ${out##*: }" >&2; return 1; }
	while IFS= read -r p; do
		[ -n "$p" ] || continue
		echo "${PROG:-analysis}: $p" >&2
		rc=1
	done < <(jq -r '.problem // empty' <<<"$out")
	jq -c 'select(.metric)' <<<"$out"
	return "$rc"
}
