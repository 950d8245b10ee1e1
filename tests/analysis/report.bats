#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# bin/report.sh: RESULTS/DATE/index.html from saved results (verdict
# table with failures first, reasons and console excerpts, links that
# resolve, no JavaScript), malformed input, missing tools; and
# bin/torture.sh making the report at the end of a run.
bats_require_minimum_version 1.5.0

load ../lib/analysis

setup() {
	skip_under_sanitizers
	need jq jq
	results
}

# rows PAGE: the verdict table's rows as "id class verdict".
rows() {
	sed -n 's|^<tr class="\([a-z]*\)" id="row-\([^"]*\)">.*<td class="l verdict">\([A-Z]*\)</td>.*|\2 \1 \3|p' "$1"
}

@test "index.html: verdict table with failures first, figures, reasons, console excerpt, working links, no script" {
	run "$TOP/bin/report.sh" --no-plots "$RES/$GOOD"
	[ "$status" -eq 0 ]
	[ "$output" = "report.sh: $RES/$GOOD/index.html" ]
	p=$RES/$GOOD/index.html
	[ "$(rows "$p" | tr '\n' ,)" = "BUSTED xfail FAILURE,TREE01 ok SUCCESS,TRIVIAL ok SUCCESS," ]
	grep -q '<p class="banner ok">All 3 runs ended as expected (1 expected failure).</p>' "$p"
	# TREE01's row: grace periods, rate, reads/s, errors, latency p50/p99.
	grep -q '<td class="l verdict">SUCCESS</td><td>565</td><td>28.1</td><td>575,610</td><td>0</td><td>18.24 ms</td><td>425.81 ms</td><td>20.109</td>' "$p"
	# BUSTED counts the writer's updates (marked), and its failure is explained.
	grep -q '<td>8,293\*</td>' "$p"
	grep -q '<li>Reader Pipe errors (7424 instances)</li><li>445 Reader Batch close calls in 20s</li>' "$p"
	sed -n '/<pre class="excerpt">/,/<\/pre>/p' "$p" | grep -q '!!! Reader Pipe:  17713275 17 3640'
	sed -n '/<pre class="excerpt">/,/<\/pre>/p' "$p" | grep -q 'End of test: FAILURE: too-short grace period'
	# Parameters of each run.
	grep -q '<summary>TREE01: rcu, seed 418471859, 20.109 s</summary>' "$p"
	grep -q '<tr><th class="l">gp_cond_wi</th><td class="l">16000</td></tr>' "$p"
	# Every link is relative and points at a file that is there.
	local href n=0
	while IFS= read -r href; do
		[[ $href == "#"* ]] && continue
		[[ $href != /* && $href != *://* ]]
		[ -f "$RES/$GOOD/$href" ]
		n=$((n + 1))
	done < <(grep -o 'href="[^"]*"' "$p" | sed 's/href="//; s/"$//')
	[ "$n" -ge 21 ]	# 3 console.log links in the table, files of each run, the log
	! grep -qi '<script' "$p"
	grep -q 'No plots: run <code>bin/plot.sh</code>' "$p"
}

@test "index.html of a folder with malformed input, a crash, a judge/summary disagreement, a skipped run" {
	run --separate-stderr "$TOP/bin/report.sh" --no-plots "$RES/$BAD"
	[ "$status" -eq 1 ]
	[[ $stderr == *"report.sh: $RES/$BAD/TREE01/stats.jsonl:2: malformed JSON line"* ]]
	p=$RES/$BAD/index.html
	[ "$(rows "$p" | tr '\n' ,)" = "TREE03 fail FAILURE,TRIVIAL fail FAILURE,TREE01 ok SUCCESS,TASKS01 skip SKIPPED," ]
	grep -q '<p class="banner fail">2 of 4 runs failed. 1 skipped.</p>' "$p"
	grep -q '<h2 id="problems">Malformed input (skipped)</h2>' "$p"
	grep -q 'TREE01/gp-latency.dat:5: malformed latency line (12.50 sync): skipped' "$p"
	grep -q '<h3>TRIVIAL: FAILURE</h3>' "$p"
	grep -q '<li>12 Reader Batch close calls in 20s</li>' "$p"
	grep -q '<li>killed by signal 11 (SEGV)</li>' "$p"
	# A run without summary.json says so where its parameters would be.
	sed -n '/<summary>TREE03/,/<\/details>/p' "$p" | grep -q 'No summary.json.'
}

@test "report.sh makes the plots when gnuplot is there, says once when it is not; without jq exit 3" {
	need gnuplot gnuplot-nox
	run "$TOP/bin/report.sh" "$RES/$GOOD"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "plot.sh: $RES/$GOOD/plots: 13 plots (png svg)" ]
	p=$RES/$GOOD/index.html
	local src n=0
	while IFS= read -r src; do
		[ "$(png_size "$RES/$GOOD/$src")" = 800x500 ] || [ "$(png_size "$RES/$GOOD/$src")" = 800x700 ]
		n=$((n + 1))
	done < <(grep -o '<img src="[^"]*"' "$p" | sed 's/<img src="//; s/"$//')
	[ "$n" -eq 13 ]
	rm -rf "$RES/$GOOD/plots"
	path_without gnuplot
	run "$TOP/bin/report.sh" "$RES/$GOOD" "$RES/$BAD"
	[ "$status" -eq 1 ]
	[ "$(grep -c 'gnuplot not found (Debian package gnuplot-nox): no plots, the report is made without them' <<<"$output")" -eq 1 ]
	[ -f "$RES/$BAD/index.html" ] && ! grep -q '<img' "$RES/$GOOD/index.html"
	path_without jq gnuplot
	run "$TOP/bin/report.sh" "$RES/$GOOD"
	[ "$status" -eq 3 ]
	[ "$output" = "report.sh: jq not found (Debian package jq): no report made" ]
}

@test "torture.sh ends with the plots and index.html; without gnuplot it says so once; the verdict is unchanged" {
	need gnuplot gnuplot-nox
	run env -u TORTURE_NO_REPORT TORTURE_BIN="$FAKE" "$TOP/bin/torture.sh" --results "$BATS_TEST_TMPDIR/r1" \
		--duration 20s TREE01 BUSTED
	[ "$status" -eq 1 ]
	d=$(ls -d "$BATS_TEST_TMPDIR"/r1/*/)
	d=${d%/}
	[[ $output == *"plot.sh: $d/plots: 9 plots (png svg)"*"report.sh: $d/index.html"*" Test summary:"* ]]
	grep -q "report.sh: $d/index.html" "$d/log"
	[ "$(rows "$d/index.html" | tr '\n' ,)" = "BUSTED xfail FAILURE,TREE01 ok SUCCESS," ]
	png_size "$d/plots/TREE01-latency-cdf.png"
	path_without gnuplot
	run env -u TORTURE_NO_REPORT TORTURE_BIN="$FAKE" "$TOP/bin/torture.sh" --results "$BATS_TEST_TMPDIR/r2" \
		--duration 20s BUSTED
	[ "$status" -eq 1 ]
	[ "$(grep -c 'gnuplot not found (Debian package gnuplot-nox)' <<<"$output")" -eq 1 ]
	[[ ${lines[-2]} == "1 of 1 runs failed." ]]
	d=$(ls -d "$BATS_TEST_TMPDIR"/r2/*/)
	[ -f "$d/index.html" ] && [ ! -d "$d/plots" ]
	# TORTURE_NO_REPORT=1: neither.
	run env TORTURE_NO_REPORT=1 TORTURE_BIN="$FAKE" "$TOP/bin/torture.sh" --results "$BATS_TEST_TMPDIR/r3" --duration 20s TREE01
	[ "$status" -eq 0 ]
	d=$(ls -d "$BATS_TEST_TMPDIR"/r3/*/)
	[ ! -f "$d/index.html" ]
	[[ $output != *report.sh* ]]
}

@test "index.html: sanitizer reports collapsed by stack, with their counts and runs" {
	cat "$AFIX/sanitizer/console.log" >>"$RES/$GOOD/TREE01/console.log"
	cat "$AFIX/sanitizer/console.log" >>"$RES/$GOOD/TRIVIAL/console.log"
	run "$TOP/bin/report.sh" --no-plots "$RES/$GOOD"
	[ "$status" -eq 0 ]
	jq -e 'length == 3 and all(.[]; .count == 2 and .runs == ["TREE01", "TRIVIAL"])' "$RES/$GOOD/sanitizer.json"
	p=$RES/$GOOD/index.html
	grep -q '<h2 id="sanitizer">Sanitizer reports, collapsed by stack</h2>' "$p"
	grep -q '<tr><td>2</td><td class="l">ThreadSanitizer: data race race.c:4 in w</td><td class="l"><code>w | w</code></td><td class="l"><a href="#row-TREE01">TREE01</a> <a href="#row-TRIVIAL">TRIVIAL</a></td></tr>' "$p"
}
