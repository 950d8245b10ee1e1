#!/usr/bin/env bash
# rollup.sh - many results folders in one table, and each figure's trend
# across dates.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=rollup.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/analysis.sh
. "$BIN_DIR/lib/analysis.sh"

usage() {
	cat <<'EOF'
usage: bin/rollup.sh [--last N] [--json] [--out DIR] RESULTS|RESULTS/DATE...

Each argument is a results folder (RESULTS/DATE, from bin/torture.sh or
bin/nightly.sh) or a folder of them (RESULTS: every DATE folder in it).
Prints one line per date and scenario, oldest first (repeats such as
TREE01.2 folded in): date, scenario, runs, failed, result (FAILURE if
any run failed), grace periods and reader iterations per second and the
latency p50/p99 (means over the repeats), errors and close calls (sums).
A folder without an up-to-date runs.jsonl gets one (as bin/plot.sh
writes it).

  --last N   only the N latest dates
  --json     the lines as JSON (analysis/rollup.jq's output)
  --out DIR  also write DIR/rollup.jsonl, DIR/rollup.txt, DIR/trend.jsonl
             (analysis/trend.jq: each figure's series per scenario) and,
             with gnuplot, the trend lines DIR/plots/trend-FIGURE.png and
             .svg (data: .dat): grace periods/s, reads/s, latency
             p50/p99, errors, close calls, one line per scenario; a
             pass of bin/nightly.sh other than rcutorture gets its own,
             trend-PASS-FIGURE, and trend-PASS-perf for the perf
             programs' figures

Exit status: 0; 1 some input was malformed (named as FILE:LINE on stderr
and skipped, the rest used) or a plot failed; 2 usage error or no
results; 3 jq is not installed (Debian package jq).
EOF
}

# rollup_dates ARG...: the results folders (DATE folders) named by the
# arguments, one a line, sorted by name.
rollup_dates() {
	local a s
	for a in "$@"; do
		a=${a%/}
		s=$(analysis_find_runs "$a" | head -n1)
		if [ -n "$s" ] && [ "$s" != "$a" ]; then
			echo "$a"
			continue
		fi
		for s in "$a"/*/; do
			s=${s%/}
			[ -d "$s" ] || continue
			local first
			first=$(analysis_find_runs "$s" | head -n1)
			[ -z "$first" ] || [ "$first" = "$s" ] || echo "$s"
		done
	done | awk '{ n = $0; sub(/.*\//, "", n); print n "\t" $0 }' | sort -u | cut -f2-
}

# rollup_table: rollup.jq lines on stdin -> the text table.
rollup_table() {
	jq -r -s '
	def pad($n): tostring | if length >= $n then . else . + " " * ($n - length) end;
	def lpad($n): tostring | if length >= $n then . else " " * ($n - length) + . end;
	def f: if . == null then "-" else . end;
	(["date", "scenario", "runs", "failed", "result", "GPs/s", "reads/s", "p50 us", "p99 us", "errors", "close"]
	 | "\(.[0] | pad(20)) \(.[1] | pad(12)) \(.[2] | lpad(4)) \(.[3] | lpad(6)) \(.[4] | pad(10)) \(.[5] | lpad(8)) \(.[6] | lpad(10)) \(.[7] | lpad(8)) \(.[8] | lpad(9)) \(.[9] | lpad(7)) \(.[10] | lpad(6))"),
	(.[] | "\(.date | pad(20)) \(.scenario | pad(12)) \(.runs | lpad(4)) \(.failed | lpad(6)) \(.result | pad(10)) \(.gps_per_s | f | lpad(8)) \(.reads_per_s | f | lpad(10)) \(.latency_p50_us | f | lpad(8)) \(.latency_p99_us | f | lpad(9)) \(.errors | f | lpad(7)) \(.close_calls | f | lpad(6))")'
}

# rollup_trend_plots OUTDIR: trend-FIGURE plots from OUTDIR/trend.jsonl.
rollup_trend_plots() {
	local out=$1 pass fig label names dat rc=0 scale name
	mkdir -p "$out/plots"
	while IFS=$'\t' read -r pass fig label; do
		# The rcutorture pass keeps the plain names (trend-FIGURE).
		name=trend-$fig
		[ "$pass" = rcutorture ] || name=trend-$pass-$fig
		dat=$out/plots/$name.dat
		jq -r --arg p "$pass" --arg f "$fig" 'select((.pass // "rcutorture") == $p and .figure == $f) | .series[]
			| "# \(.scenario)", (.points[] | "\(.[0])\t\(.[1])"), "", ""' "$out/trend.jsonl" >"$dat"
		names=$(jq -r --arg p "$pass" --arg f "$fig" 'select((.pass // "rcutorture") == $p and .figure == $f)
			| [.series[].scenario] | join(" ")' "$out/trend.jsonl")
		[ -n "$names" ] || { rm -f "$dat"; continue; }
		scale=''
		[[ $fig != latency_* && $fig != perf ]] || scale=log
		analysis_gnuplot "trend of $pass $fig" trend.gp "$dat" "$names" \
			"$out/plots/$name.png $out/plots/$name.svg" "$label" $scale || rc=1
	done < <(jq -r '[.pass // "rcutorture", .figure, "\(.label)\(if .unit != "" then " (\(.unit))" else "" end)"] | @tsv' "$out/trend.jsonl")
	return "$rc"
}

main() {
	local last='' json=0 out='' rc=0 st d
	local -a args=() dates=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--last)
			(($# >= 2)) && [[ $2 =~ ^[0-9]{1,6}$ ]] && ((10#$2 > 0)) || die 2 "--last: needs a count >= 1"
			last=$((10#$2))
			shift ;;
		--json) json=1 ;;
		--out)
			(($# >= 2)) || die 2 "--out: needs a folder"
			out=${2%/}
			shift ;;
		--) shift; args+=("$@"); break ;;
		-*) die 2 "$1: unknown option (see --help)" ;;
		*) args+=("$1") ;;
		esac
		shift
	done
	[ ${#args[@]} -gt 0 ] || { usage >&2; exit 2; }
	for d in "${args[@]}"; do
		[ -d "$d" ] || die 2 "$d: no such directory"
	done
	analysis_need jq jq "no roll-up made"
	mapfile -t dates < <(rollup_dates "${args[@]}")
	[ -z "$last" ] || mapfile -t dates < <(printf '%s\n' ${dates[@]+"${dates[@]}"} | tail -n "$last")
	[ ${#dates[@]} -gt 0 ] || die 2 "no results folders in ${args[*]}"
	for d in "${dates[@]}"; do
		st=0
		analysis_collect "$d" --cached || st=$?
		((st == 0)) || rc=1
	done
	local -a runs=()
	for d in "${dates[@]}"; do
		[ ! -s "$d/runs.jsonl" ] || runs+=("$d/runs.jsonl")
	done
	[ ${#runs[@]} -gt 0 ] || die 2 "no runs in ${args[*]}"
	local rows
	rows=$(analysis_jq -s -c -f "$ANALYSIS_DIR/rollup.jq" "${runs[@]}") || die 2 "the roll-up could not be made"
	if ((json)); then echo "$rows"; else rollup_table <<<"$rows"; fi
	if [ -n "$out" ]; then
		mkdir -p "$out" || die 2 "--out $out: cannot create"
		echo "$rows" >"$out/rollup.jsonl"
		rollup_table <<<"$rows" >"$out/rollup.txt"
		analysis_jq -s -c -f "$ANALYSIS_DIR/trend.jq" "$out/rollup.jsonl" >"$out/trend.jsonl"
		if have gnuplot; then
			rollup_trend_plots "$out" || rc=1
		else
			echo "$PROG: gnuplot not found (Debian package gnuplot-nox): no trend plots" >&2
		fi
	fi
	exit "$rc"
}

main "$@"
