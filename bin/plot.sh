#!/usr/bin/env bash
# plot.sh - the plots of a results folder (gnuplot scripts in analysis/).
# See --help.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail
PROG=plot.sh
BIN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/analysis.sh
. "$BIN_DIR/lib/analysis.sh"

usage() {
	cat <<'EOF'
usage: bin/plot.sh [--format png|svg|both] RESULTS/DATE...

Makes the plots of each results folder (bin/torture.sh's RESULTS/DATE, or
bin/nightly.sh's) in RESULTS/DATE/plots/, as PNG and SVG (--format):
  RUN-latency-hist   grace-period latency histogram per kind (log scale)
  RUN-latency-cdf    its cumulative distribution per kind
  RUN-timeline       latency of each grace period over time, and grace
                     periods, writer updates and reader iterations per
                     second over each stats interval
  RUN-histograms     the Reader Pipe and Reader Batch histograms
  latency-cdf        every run's latency distribution on one plot
  compare-METRIC     with a compare.json (bin/compare-liburcu.sh): each
                     metric's bars per flavor, ours and liburcu's, with
                     error bars over the repeated runs
with their data as RUN-rates.dat and RUN-histograms.dat, and writes
RESULTS/DATE/runs.jsonl (one record per run; see analysis/README.md).
Prints one line per folder: where the plots are and how many.

Exit status: 0 all made; 1 some input was malformed (each bad line named
as FILE:LINE on stderr and skipped; the rest is plotted) or a plot
failed; 2 usage error or not a results folder; 3 gnuplot or jq is not
installed (Debian packages gnuplot-nox, jq): nothing is made.
EOF
}

FORMATS="png svg"

# plot_run RESDIR RECORD: the plots of one run.
plot_run() {
	local res=$1 rec=$2 run kinds dir title
	run=$(jq -r .run <<<"$rec")
	kinds=$(jq -r '.latency_kinds | join(" ")' <<<"$rec")
	dir=$res/plots
	title="$run: $(jq -r '"\(.verdict), \(.duration_s // "?") s, \(.torture_type // "?")"' <<<"$rec")"
	if [ -n "$kinds" ]; then
		plot_one "$run latency histogram" latency-hist.gp "$res/$run/gp-latency.dat" \
			"$(plot_outs "$dir/$run-latency-hist")" "$kinds" "$title"
		plot_one "$run latency CDF" latency-cdf.gp "$res/$run/gp-latency.dat" \
			"$(plot_outs "$dir/$run-latency-cdf")" "$kinds" "$title"
	fi
	if plot_data "$dir/$run-rates.dat" "$rec" '.timeline | if length > 0 then (.[0] | .t = 0), .[] else empty end
		| [.t, .gps_per_s, .ver_per_s, .reads_per_s]' && [ -n "$kinds" ]; then
		plot_one "$run timeline" timeline.gp "$res/$run/gp-latency.dat" "$dir/$run-rates.dat" \
			"$(plot_outs "$dir/$run-timeline")" "$kinds" "$title"
	fi
	if plot_data "$dir/$run-histograms.dat" "$rec" 'select(.pipe) | histogram_rows[] | [.index, .pipe, .batch]'; then
		plot_one "$run histograms" histograms.gp "$dir/$run-histograms.dat" \
			"$(plot_outs "$dir/$run-histograms")" "$title"
	fi
}

# plot_data FILE RECORD FILTER: FILE gets the rows (arrays) FILTER makes of
# RECORD, tab-separated, NaN for null; fails when there are none.
plot_data() {
	if ! analysis_jq -r "include \"lib\"; $3 | map(. // \"NaN\") | @tsv" <<<"$2" >"$1"; then
		echo "$PROG: $1: could not be written" >&2
		PLOT_FAILED=1
		return 1
	fi
	[ -s "$1" ] || { rm -f "$1"; return 1; }
}

# plot_compare RESDIR: a bar chart per metric of RESDIR/compare.json
# (bin/compare-liburcu.sh's), compare-METRIC in plots/; a malformed
# metric is named and skipped (PLOT_INPUT_BAD).
plot_compare() {
	local res=$1 m name metrics
	metrics=$(analysis_compare "$res") || PLOT_INPUT_BAD=1
	while IFS= read -r m; do
		[ -n "$m" ] || continue
		name=$(jq -r .metric <<<"$m")
		if plot_data "$res/plots/compare-$name.dat" "$m" '.results | to_entries[]
			| [.key, .value.flavor, .value.impl, .value.median, .value.min, .value.max]'; then
			plot_one "compare $name" compare.gp "$res/plots/compare-$name.dat" \
				"$(plot_outs "$res/plots/compare-$name")" "$(jq -r .label <<<"$m")" \
				"$(jq -r 'if .better == "neither" then .unit else "\(.unit) (\(.better) is better)" end' <<<"$m")"
		fi
	done <<<"$metrics"
}

# plot_outs BASE: the output files for BASE in the chosen formats.
plot_outs() {
	local f out=''
	for f in $FORMATS; do out+="${out:+ }$1.$f"; done
	echo "$out"
}

# plot_one WHAT SCRIPT ARG...: run one gnuplot script and count it in
# PLOT_COUNT; a failure sets PLOT_FAILED (the other plots are still made).
PLOT_FAILED=0
PLOT_INPUT_BAD=0
PLOT_COUNT=0
plot_one() {
	if analysis_gnuplot "$@"; then
		PLOT_COUNT=$((PLOT_COUNT + 1))
	else
		PLOT_FAILED=1
	fi
}

# plot_dir RESDIR: all plots of a results folder; fails as the exit
# status says.
plot_dir() {
	local res=${1%/} rc=0 rec
	local -a files=() names=()
	PLOT_COUNT=0 PLOT_INPUT_BAD=0
	analysis_collect "$res" || rc=$?
	((rc != 2)) || return 2
	mkdir -p "$res/plots"
	while IFS= read -r rec; do
		plot_run "$res" "$rec"
		if jq -e '.latency_kinds | length > 0' <<<"$rec" >/dev/null; then
			files+=("$res/$(jq -r .run <<<"$rec")/gp-latency.dat")
			names+=("$(jq -r .run <<<"$rec")")
		fi
	done <"$res/runs.jsonl"
	if [ ${#files[@]} -gt 0 ]; then
		plot_one "latency CDF of all runs" latency-cdf-all.gp "${files[*]}" "${names[*]}" \
			"$(plot_outs "$res/plots/latency-cdf")" "${res##*/}: grace-period latency, all runs"
	fi
	[ ! -f "$res/compare.json" ] || plot_compare "$res"
	echo "$PROG: $res/plots: $PLOT_COUNT plots ($FORMATS)"
	((PLOT_FAILED == 0 && PLOT_INPUT_BAD == 0)) || rc=1
	return "$rc"
}

main() {
	local rc=0
	local -a dirs=()
	while (($#)); do
		case $1 in
		-h | --help) usage; exit 0 ;;
		--format)
			(($# >= 2)) || die 2 "--format: needs png, svg or both"
			case $2 in
			png | svg) FORMATS=$2 ;;
			both) FORMATS="png svg" ;;
			*) die 2 "--format $2: expected png, svg or both" ;;
			esac
			shift ;;
		--) shift; dirs+=("$@"); break ;;
		-*) die 2 "$1: unknown option (see --help)" ;;
		*) dirs+=("$1") ;;
		esac
		shift
	done
	analysis_need jq jq "no plots made"
	analysis_need gnuplot gnuplot-nox "no plots made"
	analysis_for_dirs plot_dir ${dirs[@]+"${dirs[@]}"} || rc=$?
	exit "$rc"
}

main "$@"
