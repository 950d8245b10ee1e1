#!/usr/bin/env bash
# perf-table.sh - one machine's table for docs/performance.md, from a
# compare.json written by bin/compare-liburcu.sh.  See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=perf-table.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$BIN_DIR/lib/common.sh"
ANALYSIS_DIR=${ANALYSIS_DIR:-$TORTURE_TOP/analysis}

usage() {
	cat <<'EOF'
usage: bin/perf-table.sh RESULTS/DATE/compare.json
       bin/perf-table.sh RESULTS/DATE

Prints, in markdown, one machine's section of docs/performance.md from
the compare.json that bin/compare-liburcu.sh wrote: a heading naming the
machine (CPU model, cores, kernel, the date, the liburcu version), one
table row per ours/liburcu pair of every metric (each side's median,
the ratio ours/liburcu of the medians, its spread over the runs, which
way is better), then the targets the programs printed.  Paste it into
docs/performance.md as it is.

Exit status: 0 printed; 2 usage error or bad input (one line naming the
file and what is wrong); 3 jq is not installed (Debian package jq).
EOF
}

main() {
	case ${1:-} in
	-h | --help) usage; exit 0 ;;
	esac
	[ $# -eq 1 ] || { usage >&2; exit 2; }
	local f=$1 out figs
	[ ! -d "$f" ] || f=${f%/}/compare.json
	have jq || die 3 "jq not found (Debian package jq)"
	[ -e "$f" ] || die 2 "$f: no such file"
	if [ ! -f "$f" ] || [ ! -r "$f" ]; then
		die 2 "$f: not a readable file"
	fi
	out=$(jq -e 'type == "object"' "$f" 2>&1 >/dev/null) ||
		die 2 "$f: not a JSON object${out:+ (${out##*: })}"
	out=$(jq -r '.schema // "missing"' "$f")
	[[ $out == rcu-torture-compare/[12] ]] ||
		die 2 "$f: schema: expected rcu-torture-compare/2 (or 1), found $out"
	jq -e '(.metrics | type) == "array" and (.metrics | length) > 0' "$f" >/dev/null ||
		die 2 "$f: metrics: missing, not an array, or empty"
	jq -e '.host == null or (.host | type) == "object"' "$f" >/dev/null ||
		die 2 "$f: host: not an object"
	# compare.jq checks every metric and computes the figures; its
	# problems name the file and the metric.
	figs=$(jq -c -L "$ANALYSIS_DIR" -f "$ANALYSIS_DIR/compare.jq" "$f")
	out=$(jq -r '.problem // empty' <<<"$figs" | head -n 1)
	[ -z "$out" ] || die 2 "$out"
	jq -r -L "$ANALYSIS_DIR" -f "$ANALYSIS_DIR/perf-table.jq" \
		--argjson figures "$(jq -s -c . <<<"$figs")" "$f"
}

main "$@"
