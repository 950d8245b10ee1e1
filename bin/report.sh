#!/usr/bin/env bash
# report.sh - RESULTS/DATE/index.html: the verdicts, failures, plots and
# parameters of a results folder.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=report.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/analysis.sh
. "$BIN_DIR/lib/analysis.sh"

usage() {
	cat <<'EOF'
usage: bin/report.sh [--no-plots] RESULTS/DATE...

Writes RESULTS/DATE/index.html for each results folder: the verdict table
(run, type, result, grace periods and their rate, reader iterations per
second, errors, latency p50/p99, links to console.log) with failures
first, each failure's reasons (the judge's, as bin/recheck.sh prints them)
and an excerpt of its console, the plots, each run's parameters, and with
a compare.json (bin/compare-liburcu.sh) the ratios ours/liburcu.  Plain
HTML, no JavaScript: open it from the file system.  First makes the plots
with bin/plot.sh when gnuplot is installed (--no-plots: use the plots
already there); without gnuplot it says so once and the page has no
plots.  Prints the page's path.

Exit status: 0 page written; 1 written, but some input was malformed
(named as FILE:LINE on stderr) or a plot failed; 2 usage error or not a
results folder; 3 jq is not installed (Debian package jq).
EOF
}

# The console lines worth showing for a failed run (the judge's kinds of
# trouble), with this much context, at most this many lines.
REPORT_EXCERPT_RE='!!!|FAILURE|\?\?\?|WARNING:|BUG|Call Trace:|Sanitizer|runtime error:|detected stall|Writer stall|starved|^rcutorture: '
REPORT_EXCERPT_LINES=40

# report_excerpt CONSOLE: the failure lines of a console (numbered, with
# context), then its last lines when they were not among them.
report_excerpt() {
	local f=$1 shown total last
	[ -f "$f" ] || return 0
	shown=$(grep -n -E -B2 -A2 -e "$REPORT_EXCERPT_RE" "$f" | head -n "$REPORT_EXCERPT_LINES") || true
	total=$(wc -l <"$f")
	last=$(sed -n 's/^\([0-9]*\)[-:].*/\1/p' <<<"$shown" | tail -n1)
	[ -z "$shown" ] || echo "$shown"
	if ((${last:-0} < total)); then
		((${last:-0} + 1 >= total - 4)) || echo "..."
		tail -n +$((${last:-0} + 1 > total - 4 ? ${last:-0} + 1 : total - 4)) "$f" |
			nl -ba -v $((${last:-0} + 1 > total - 4 ? ${last:-0} + 1 : total - 4)) -s ':' -w1
	fi
}

# report_excerpts RESDIR: {"RUN": "excerpt"} for the failed runs.
report_excerpts() {
	local res=$1 run
	while IFS= read -r run; do
		report_excerpt "$res/$run/console.log" | jq -R -s --arg run "$run" '{($run): .}'
	done < <(analysis_jq -r 'include "lib"; select(is_failed) | .run' "$res/runs.jsonl") | jq -s -c 'add // {}'
}

# report_plots RESDIR: the PNG plots of the folder, as a JSON array of
# paths relative to it.
report_plots() {
	local res=$1
	[ -d "$res/plots" ] || { echo '[]'; return 0; }
	(cd "$res" && find plots -maxdepth 1 -name '*.png' -size +0 | sort) | jq -R . | jq -s -c .
}

# report_links RESDIR: links to the folder's other files (log, TAP, JUnit).
report_links() {
	local res=$1 f t
	for f in log:"session log" nightly.tap:"TAP summary" junit.xml:"JUnit XML" rollup.txt:"roll-up across dates" \
		mutation/kill.html:"mutation kill table (bin/mutation.sh)" \
		compare-liburcu/compare.md:"comparison with liburcu (bin/compare-liburcu.sh)"; do
		t=${f#*:} f=${f%%:*}
		[ ! -f "$res/$f" ] || jq -n -c --arg href "$f" --arg text "$t" '{href: $href, text: $text}'
	done | jq -s -c .
}

# report_json FILE: FILE's JSON array (bin/nightly.sh's passes.json,
# drift.json, sanitizer.json), or [] when it is missing or not an array.
report_json() {
	jq -c 'if type == "array" then . else [] end' "$1" 2>/dev/null || echo '[]'
}

# report_dir RESDIR: make the plots (unless REPORT_PLOTS=0), then
# index.html.
REPORT_PLOTS=1
report_dir() {
	local res=${1%/} rc=0 st=0 hosts='[]' compare='[]'
	if ((REPORT_PLOTS)); then
		if have gnuplot; then
			"$BIN_DIR/plot.sh" --format both "$res" || st=$?
			((st != 2)) || return 2
			((st == 0)) || rc=1
		else
			report_say_no_gnuplot
			analysis_collect "$res" || st=$?
			((st != 2)) || return 2
			((st == 0)) || rc=1
		fi
	else
		analysis_collect "$res" --cached || st=$?
		((st != 2)) || return 2
		((st == 0)) || rc=1
	fi
	[ ! -f "$res/hosts.json" ] || hosts=$(jq -c '[.[] | .note]' "$res/hosts.json")
	analysis_sanitizer "$res" || rc=1
	if [ -f "$res/compare.json" ]; then
		compare=$(analysis_compare "$res" | jq -s -c .) || rc=1
	fi
	if ! analysis_jq -s -r -f "$ANALYSIS_DIR/report.jq" "$res/runs.jsonl" \
		--arg testid "$(cat "$res/testid.txt" 2>/dev/null || true)" \
		--arg intro "$(cat "$res/report-intro.txt" 2>/dev/null || true)" \
		--argjson plots "$(report_plots "$res")" \
		--argjson excerpts "$(report_excerpts "$res")" \
		--argjson links "$(report_links "$res")" \
		--argjson hosts "$hosts" --argjson compare "$compare" \
		--argjson passes "$(report_json "$res/passes.json")" \
		--argjson drift "$(report_json "$res/drift.json")" \
		--argjson sanitizer "$(report_json "$res/sanitizer.json")" >"$res/index.html.tmp"; then
		rm -f "$res/index.html.tmp"
		echo "$PROG: $res: index.html could not be made" >&2
		return 2
	fi
	mv "$res/index.html.tmp" "$res/index.html"
	echo "$PROG: $res/index.html"
	return "$rc"
}

# report_say_no_gnuplot: once per process.
report_say_no_gnuplot() {
	[ -z "${REPORT_SAID_GNUPLOT:-}" ] || return 0
	REPORT_SAID_GNUPLOT=1
	echo "$PROG: gnuplot not found (Debian package gnuplot-nox): no plots, the report is made without them" >&2
}

main() {
	local rc=0 plots=1
	local -a dirs=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--no-plots) plots=0 ;;
		--) shift; dirs+=("$@"); break ;;
		-*) die 2 "$1: unknown option (see --help)" ;;
		*) dirs+=("$1") ;;
		esac
		shift
	done
	analysis_need jq jq "no report made"
	REPORT_PLOTS=$plots
	analysis_for_dirs report_dir ${dirs[@]+"${dirs[@]}"} || rc=$?
	exit "$rc"
}

main "$@"
