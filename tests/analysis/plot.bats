#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
bats_require_minimum_version 1.5.0
# bin/plot.sh and bin/rollup.sh: the plots of saved results (PNG of the
# expected size, SVG), malformed input named and skipped, missing tools
# named by their Debian package, exit statuses as documented.

load ../lib/analysis

# The plots of both saved folders are made once for the file's tests
# (PLOTTED/GOOD: PNG and SVG, PLOTTED/BAD: PNG); plot.sh's output and
# status are kept beside them.
setup_file() {
	[ -z "${SAN:-}" ] || return 0
	command -v jq >/dev/null && command -v gnuplot >/dev/null || return 0
	export PLOTTED=$BATS_FILE_TMPDIR/results
	mkdir -p "$PLOTTED"
	cp -r "$AFIX/results/." "$PLOTTED/"
	"$TOP/bin/plot.sh" "$PLOTTED/$GOOD" >"$PLOTTED/good.out" 2>&1 && echo 0 >"$PLOTTED/good.status" ||
		echo $? >"$PLOTTED/good.status"
	"$TOP/bin/plot.sh" --format png "$PLOTTED/$BAD" >"$PLOTTED/bad.out" 2>&1 && echo 0 >"$PLOTTED/bad.status" ||
		echo $? >"$PLOTTED/bad.status"
}

setup() {
	skip_under_sanitizers
	need jq jq
	need gnuplot gnuplot-nox
	results
}

@test "plot.sh: per run latency histogram and CDF, timeline, Reader Pipe/Batch; all-runs CDF; PNG sizes; SVG" {
	RES=$PLOTTED
	[ "$(cat "$RES/good.status")" -eq 0 ]
	[ "$(cat "$RES/good.out")" = "plot.sh: $RES/$GOOD/plots: 13 plots (png svg)" ]
	local r p
	for r in TREE01 BUSTED TRIVIAL; do
		for p in latency-hist latency-cdf histograms; do
			[ "$(png_size "$RES/$GOOD/plots/$r-$p.png")" = 800x500 ]
			grep -q '<svg' "$RES/$GOOD/plots/$r-$p.svg"
		done
		[ "$(png_size "$RES/$GOOD/plots/$r-timeline.png")" = 800x700 ]
		# Plots with data are far from empty images.
		[ "$(stat -c %s "$RES/$GOOD/plots/$r-latency-hist.png")" -gt 10000 ]
	done
	[ "$(png_size "$RES/$GOOD/plots/latency-cdf.png")" = 800x500 ]
	# The data beside the plots.
	[ "$(cat "$RES/$GOOD/plots/BUSTED-histograms.dat" | wc -l)" -eq 11 ]
	[ "$(sed -n 3p "$RES/$GOOD/plots/BUSTED-histograms.dat")" = "$(printf '2\t3640\t358')" ]
	# rates: a first row at t=0, then one per stats line; BUSTED counts no grace periods.
	[ "$(sed -n 1p "$RES/$GOOD/plots/BUSTED-rates.dat")" = "$(printf '0\tNaN\t548.77\t1173075')" ]
	[ "$(wc -l <"$RES/$GOOD/plots/TREE01-rates.dat")" -eq 3 ]
	# Each kind of grace period present is in the plot's legend.
	grep -q '>barrier<' "$RES/$GOOD/plots/TREE01-latency-cdf.svg"
	grep -q '>poll<' "$RES/$GOOD/plots/TREE01-latency-hist.svg"
	! grep -q '>exp<' "$RES/$GOOD/plots/TREE01-latency-hist.svg"
}

@test "plot.sh on malformed input: each bad line named FILE:LINE, exit 1, every plot still made; --format png" {
	RES=$PLOTTED
	[ "$(cat "$RES/bad.status")" -eq 1 ]
	output=$(cat "$RES/bad.out")
	[[ $output == *"plot.sh: $RES/$BAD/TREE01/stats.jsonl:2: malformed JSON line"*"skipped"* ]]
	[[ $output == *"plot.sh: $RES/$BAD/TREE01/gp-latency.dat:5: malformed latency line (12.50 sync): skipped"* ]]
	[[ $output == *"plot.sh: $RES/$BAD/plots: 13 plots (png)"* ]]
	for p in TREE01-latency-hist TREE01-timeline TREE03-histograms TRIVIAL-latency-cdf latency-cdf; do
		png_size "$RES/$BAD/plots/$p.png"
	done
	# The skipped run has nothing to plot; the crashed one has what it wrote.
	[ -z "$(find "$RES/$BAD/plots" -name 'TASKS01-*')" ]
	[ -z "$(find "$RES/$BAD/plots" -name '*.svg')" ]
	[ "$(jq -s length "$RES/$BAD/runs.jsonl")" -eq 4 ]
}

@test "plot.sh: usage errors and non-results folders exit 2; missing gnuplot or jq exit 3 naming the package" {
	run "$TOP/bin/plot.sh"
	[ "$status" -eq 2 ]
	[[ ${lines[0]} == "usage: bin/plot.sh "* ]]
	run "$TOP/bin/plot.sh" --format gif "$RES/$GOOD"
	[ "$status" -eq 2 ]
	[ "$output" = "plot.sh: --format gif: expected png, svg or both" ]
	run "$TOP/bin/plot.sh" "$RES/nosuch"
	[ "$status" -eq 2 ]
	[ "$output" = "plot.sh: $RES/nosuch: no such directory" ]
	run "$TOP/bin/plot.sh" "$RES"
	[ "$status" -eq 2 ]
	[[ $output == "plot.sh: $RES: not a results folder"* ]]
	path_without gnuplot
	run "$TOP/bin/plot.sh" "$RES/$GOOD"
	[ "$status" -eq 3 ]
	[ "$output" = "plot.sh: gnuplot not found (Debian package gnuplot-nox): no plots made" ]
	[ ! -d "$RES/$GOOD/plots" ]
	path_without jq gnuplot
	run "$TOP/bin/plot.sh" "$RES/$GOOD"
	[ "$status" -eq 3 ]
	[ "$output" = "plot.sh: jq not found (Debian package jq): no plots made" ]
}

@test "rollup.sh: one line per date and scenario, trend lines per figure, --json, --last" {
	cp -r "$TFIX/results/2025.01.01-00.00.00" "$RES/"
	run --separate-stderr "$TOP/bin/rollup.sh" --out "$BATS_TEST_TMPDIR/out" "$RES"
	[ "$status" -eq 1 ]	# the malformed lines of $BAD
	[[ ${lines[0]} == "date "*" scenario "*" result "*" GPs/s "* ]]
	[[ $stderr == *"rollup.sh: $RES/$BAD/TREE01/stats.jsonl:2: malformed JSON line"* ]]
	[[ $output == *"2025.01.01-00.00.00  TREE02          1      0 SUCCESS        63.6     648607     8306    310175       0      0"* ]]
	[[ $output == *"2025.01.02-03.00.00  BUSTED          1      1 FAILURE       411.9     879996        0         1    7432    445"* ]]
	[[ $output == *"2025.01.03-03.00.00  TREE03          1      1 FAILURE           -          -        -         -       0      0"* ]]
	[ "$(jq -s length "$BATS_TEST_TMPDIR/out/rollup.jsonl")" -eq 10 ]
	[ "$(jq -s 'map(.figure)' -c "$BATS_TEST_TMPDIR/out/trend.jsonl")" = '["gps_per_s","reads_per_s","latency_p50_us","latency_p99_us","errors","close_calls"]' ]
	for f in gps_per_s reads_per_s latency_p50_us latency_p99_us errors close_calls; do
		[ "$(png_size "$BATS_TEST_TMPDIR/out/plots/trend-$f.png")" = 900x500 ]
	done
	# One data block per scenario, oldest first.
	[ "$(sed -n '/^# TRIVIAL/,/^$/p' "$BATS_TEST_TMPDIR/out/plots/trend-gps_per_s.dat" | sed -n '2,3p' | cut -f1 | tr '\n' ' ')" = "2025.01.02-03.00.00 2025.01.03-03.00.00 " ]
	run "$TOP/bin/rollup.sh" --json --last 1 "$RES" "$RES/$GOOD"
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^{')" -eq 4 ]
	printf '%s\n' "${lines[@]}" | grep '^{' | jq -e -s 'all(.[]; .date == "2025.01.03-03.00.00")' >/dev/null
	run "$TOP/bin/rollup.sh" "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[ "$output" = "rollup.sh: no results folders in $BATS_TEST_TMPDIR" ]
}

@test "compare.json (bin/compare-liburcu.sh's shape): compare.jq figures and ratios, bar charts, report table, bad keys named" {
	run "$A/compare.jq" "$AFIX/compare.json"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/c.jsonl"
	jq_ok -s 'map(.metric) == ["read_ns", "gp_p50_us", "updates_per_s"]
		and all(.[]; (keys | sort) == ["better", "label", "metric", "pairs", "results", "unit"])
		and all(.[].results[]; (keys | sort) == ["flavor", "impl", "max", "median", "min", "n"])' "$BATS_TEST_TMPDIR/c.jsonl"
	# rcu: 1.19 1.21 1.22 1.25 1.30; urcu-memb: 0.99 1.01 1.02 1.05 1.10.
	jq_ok -s '.[0].results[0] == {"flavor": "rcu", "impl": "ours", "median": 1.22, "min": 1.19, "max": 1.3, "n": 5}
		and .[0].pairs[0] == {"ours": "rcu", "other": "urcu-memb", "ratio": 1.196, "ratio_low": 1.082, "ratio_high": 1.313}' "$BATS_TEST_TMPDIR/c.jsonl"
	# Schema 2 names the other RCU's flavor `other'; schema 1 (the fixture) `liburcu': the same pairs.
	jq '.schema = "rcu-torture-compare/2" | .metrics[].pairs |= map({ours, other: .liburcu})' "$AFIX/compare.json" >"$BATS_TEST_TMPDIR/v2.json"
	[ "$("$A/compare.jq" "$BATS_TEST_TMPDIR/v2.json")" = "$(printf '%s\n' "${lines[@]}")" ]
	# better: lower, higher or neither (a figure for context only).
	jq '.metrics[0].better = "low" | .metrics[1].better = "neither"' "$AFIX/compare.json" >"$BATS_TEST_TMPDIR/b.json"
	run "$A/compare.jq" "$BATS_TEST_TMPDIR/b.json"
	[ "${lines[0]}" = '{"problem":"'"$BATS_TEST_TMPDIR/b.json"': metrics[0] (read_ns): better: lower, higher or neither"}' ]
	printf '%s\n' "${lines[1]}" >"$BATS_TEST_TMPDIR/b.jsonl"
	jq_ok '.metric == "gp_p50_us" and .better == "neither"' "$BATS_TEST_TMPDIR/b.jsonl"
	mkdir -p "$BATS_TEST_TMPDIR/cmp"
	jq '.metrics[1].results[0].samples = [] | .metrics[2].pairs[0].ours = "nosuch"' "$AFIX/compare.json" \
		>"$BATS_TEST_TMPDIR/cmp/compare.json"
	run --separate-stderr "$TOP/bin/report.sh" "$BATS_TEST_TMPDIR/cmp"
	[ "$status" -eq 1 ]
	[[ $stderr == *"plot.sh: $BATS_TEST_TMPDIR/cmp/compare.json: metrics[1] (gp_p50_us): results[0].samples: not a non-empty array of numbers"* ]]
	[[ $stderr == *"metrics[2] (updates_per_s): pairs[0]: names a flavor without results"* ]]
	[ "$(png_size "$BATS_TEST_TMPDIR/cmp/plots/compare-read_ns.png")" = 800x500 ]
	[ ! -f "$BATS_TEST_TMPDIR/cmp/plots/compare-gp_p50_us.png" ]
	grep -q '<td class="l">sched</td><td class="l">urcu-qsbr</td><td>0.81 ns</td><td>0.34 ns</td><td>2.382</td>' "$BATS_TEST_TMPDIR/cmp/index.html"
	grep -q '<img src="plots/compare-read_ns.png"' "$BATS_TEST_TMPDIR/cmp/index.html"
}

@test "plot legends show kinds with an underscore literally (poll_exp, not poll with a subscript)" {
	printf '# t_seconds kind latency_us\n1 poll_exp 10\n2 cond_exp 100\n3 sync 50\n' >"$BATS_TEST_TMPDIR/gp.dat"
	local g
	for g in latency-hist latency-cdf; do
		gnuplot -c "$TOP/analysis/$g.gp" "$BATS_TEST_TMPDIR/gp.dat" "$BATS_TEST_TMPDIR/$g.svg" "sync poll_exp cond_exp" "a_title"
		grep -q '>poll_exp<' "$BATS_TEST_TMPDIR/$g.svg"
		grep -q '>cond_exp<' "$BATS_TEST_TMPDIR/$g.svg"
		grep -q '>a_title<' "$BATS_TEST_TMPDIR/$g.svg"
	done
}
