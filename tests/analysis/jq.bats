#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# analysis/*.jq: each filter's output shape (keys and types) on the saved
# results, the figures they compute, malformed lines named FILE:LINE and
# skipped, and the verdict of a run record (the judge's, never SUCCESS
# without summary.json saying so).

load ../lib/analysis

setup() {
	skip_under_sanitizers
	need jq jq
	results
}

# collect DATE: RES/DATE/runs.jsonl, as the scripts write it.
collect() {
	run bash -c 'PROG=test; . "$1/bin/lib/analysis.sh"; analysis_collect "$2"' _ "$TOP" "$RES/$1"
}

@test "run records: one per scenario folder, summary.json's keys plus the record's, typed" {
	collect "$GOOD"
	[ "$status" -eq 0 ]
	f=$RES/$GOOD/runs.jsonl
	[ "$(wc -l <"$f")" -eq 3 ]
	jq_ok -s 'map(.run) == ["BUSTED", "TREE01", "TRIVIAL"]' "$f"
	jq_ok -s 'all(.[]; (.run | type) == "string" and (.date == "2025.01.02-03.00.00")
		and (.when == "2025.01.02-03.00.00") and (.verdict | type) == "string"
		and (.why | type) == "array" and (.notes | type) == "array"
		and (.timeline | type) == "array" and (.timeline | length) == 2
		and (.pipe | length) == 11 and (.batch | length) == 11 and (.fbc | length) == 11
		and (.latency_kinds | type) == "array" and (.files.console | type) == "string"
		and (.problems == []) and (.errors | type) == "object" and (.latency_us | type) == "object"
		and (.params | type) == "object")' "$f"
	jq_ok -s 'all(.[].timeline[]; (.t | type) == "number" and (.reads_per_s | type) == "number")' "$f"
	jq_ok -s '.[1].latency_kinds == ["sync", "cond", "poll", "async", "barrier"]' "$f"
	jq_ok -s '.[0].verdict == "FAILURE" and .[0].why == ["Reader Pipe errors (7424 instances)", "445 Reader Batch close calls in 20s"]' "$f"
	jq_ok -s '.[1].verdict == "SUCCESS" and .[1].why == []' "$f"
}

@test "verdicts: the judge overrides summary.json, no summary.json is never SUCCESS, SKIPPED stays skipped" {
	collect "$BAD"
	[ "$status" -eq 1 ]	# malformed input, named (next test)
	f=$RES/$BAD/runs.jsonl
	jq_ok -s 'map({(.run): .verdict}) | add == {"TASKS01": "SKIPPED", "TREE01": "SUCCESS", "TREE03": "FAILURE", "TRIVIAL": "FAILURE"}' "$f"
	# TRIVIAL's summary.json says SUCCESS; its console.log.diags does not.
	jq_ok -s '.[] | select(.run == "TRIVIAL") | .result == "SUCCESS" and .why == ["12 Reader Batch close calls in 20s"]' "$f"
	jq_ok -s '.[] | select(.run == "TREE03") | .result == null and .exit_status == 139
		and (.why | index("killed by signal 11 (SEGV)"))' "$f"
	# Without the judge's findings, a run with no summary.json is INCOMPLETE.
	rm "$RES/$BAD/TREE03/console.log.diags"
	collect "$BAD"
	jq_ok -s '.[] | select(.run == "TREE03") | .verdict == "INCOMPLETE" and (.why | length) == 1' "$RES/$BAD/runs.jsonl"
	# A runner's "!!!" line or nightly's INCOMPLETE mark beat a SUCCESS summary.
	echo '!!! PID 12 hung at 90 vs. 20 seconds' >"$RES/$GOOD/TREE01/Warnings"
	echo 'INCOMPLETE: lost on host h2 (ssh exit 255)' >"$RES/$GOOD/TRIVIAL/Warnings"
	collect "$GOOD"
	jq_ok -s '.[] | select(.run == "TREE01") | .verdict == "FAILURE" and .why == ["PID 12 hung at 90 vs. 20 seconds"]' "$RES/$GOOD/runs.jsonl"
	jq_ok -s '.[] | select(.run == "TRIVIAL") | .verdict == "INCOMPLETE" and .why == ["lost on host h2 (ssh exit 255)"]' "$RES/$GOOD/runs.jsonl"
	# A SUCCESS summary with a non-zero exit status is not a success.
	rm "$RES/$GOOD/TREE01/Warnings"
	echo 1 >"$RES/$GOOD/TREE01/exit_status"
	collect "$GOOD"
	jq_ok -s '.[] | select(.run == "TREE01") | .verdict == "FAILURE"' "$RES/$GOOD/runs.jsonl"
}

@test "a malformed stats line and latency line: named FILE:LINE, skipped, the rest used" {
	collect "$BAD"
	[ "$status" -eq 1 ]
	[[ $output == *"test: $RES/$BAD/TREE01/stats.jsonl:2: malformed JSON line ({\"t\":17.5,\"ver\":348,\"rta\":): skipped"* ]]
	[[ $output == *"test: $RES/$BAD/TREE01/gp-latency.dat:5: malformed latency line (12.50 sync): skipped"* ]]
	f=$RES/$BAD/runs.jsonl
	jq_ok -s '.[] | select(.run == "TREE01") | (.timeline | map(.t)) == [15.31, 20.109] and (.problems | length) == 2' "$f"
	# The filters a user runs directly say the same, in their output.
	run "$A/rates.jq" "$RES/$BAD/TREE01/stats.jsonl"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[[ ${lines[0]} == '{"problem":"'"$RES/$BAD/TREE01/stats.jsonl"':2: malformed JSON line '* ]]
	run "$A/latency.jq" "$RES/$BAD/TREE01/gp-latency.dat"
	[[ ${lines[0]} == '{"problem":"'"$RES/$BAD/TREE01/gp-latency.dat"':5: malformed latency line (12.50 sync): skipped"}' ]]
	[ "$(printf '%s\n' "${lines[@]}" | jq -s 'map(select(.kind == "all")) | .[0].count')" -eq 1435 ]
}

@test "totals.jq and errors.jq: on summary.json files and on records alike" {
	collect "$GOOD"
	run "$A/totals.jq" "$RES/$GOOD"/*/summary.json
	[ "$status" -eq 0 ]
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/t.jsonl"
	jq_ok -s 'length == 3 and all(.[]; (keys | sort) == (["close_calls", "date", "duration_s", "errors", "gps", "gps_counted", "gps_per_s", "latency_count", "latency_p50_us", "latency_p99_us", "reads", "reads_per_s", "result", "run", "scenario", "stalls", "torture_type", "ver"]))' "$BATS_TEST_TMPDIR/t.jsonl"
	jq_ok -s '.[] | select(.run == "TREE01") | .gps == 565 and .gps_per_s == 28.1 and .reads_per_s == 575610 and .latency_p50_us == 18235 and .latency_p99_us == 425811 and .date == "2025.01.02-03.00.00"' "$BATS_TEST_TMPDIR/t.jsonl"
	# BUSTED cannot count grace periods: the writer's updates stand in.
	jq_ok -s '.[] | select(.run == "BUSTED") | .gps == 8293 and .gps_counted == false and .errors == 7432 and .result == "FAILURE"' "$BATS_TEST_TMPDIR/t.jsonl"
	run "$A/totals.jq" "$RES/$GOOD/runs.jsonl"
	printf '%s\n' "${lines[@]}" | jq -s -S . >"$BATS_TEST_TMPDIR/r.json"
	jq -s -S . "$BATS_TEST_TMPDIR/t.jsonl" | diff - "$BATS_TEST_TMPDIR/r.json"
	run "$A/errors.jq" "$RES/$GOOD/runs.jsonl"
	[ "${lines[0]}" = '{"run":"BUSTED","scenario":"BUSTED","result":"FAILURE","errors":7432,"nonzero":{"reader_pipe":7424,"rtmbe":8},"stalls":0,"close_calls":445,"why":["Reader Pipe errors (7424 instances)","445 Reader Batch close calls in 20s"]}' ]
	[ "${lines[1]}" = '{"run":"TREE01","scenario":"TREE01","result":"SUCCESS","errors":0,"nonzero":{},"stalls":0,"close_calls":0,"why":[]}' ]
}

@test "rates.jq: interval rates from stats.jsonl" {
	run "$A/rates.jq" "$RES/$GOOD/TREE01/stats.jsonl"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	# 556 grace periods in the first 15.31 s; 9 more in the last 4.799 s.
	[ "${lines[0]}" = '{"t":15.31,"ver":348,"gps":556,"reads":11549920,"errors":0,"close_calls":0,"final":false,"gps_per_s":36.32,"ver_per_s":22.73,"reads_per_s":754404}' ]
	[[ ${lines[1]} == *'"final":true,"gps_per_s":1.88,'* ]]
}

@test "histograms.jq: Reader Pipe / Batch rows and their totals" {
	run "$A/histograms.jq" "$RES/$GOOD/BUSTED/stats.jsonl"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 12 ]
	[ "${lines[2]}" = '{"index":2,"pipe":3640,"batch":358,"fbc":8291}' ]
	[ "${lines[11]}" = '{"reads":17720716,"pipe_errors":7424,"close_calls":445,"final":true,"t":20.132}' ]
	# The pipe errors are the run's Reader Pipe error count.
	[ "$(jq .errors.reader_pipe "$RES/$GOOD/BUSTED/summary.json")" -eq 7424 ]
}

@test "latency.jq: per kind, and for all kinds exactly summary.json's latency_us" {
	run "$A/latency.jq" "$RES/$GOOD/TREE01/gp-latency.dat"
	[ "$status" -eq 0 ]
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/l.jsonl"
	jq_ok -s 'map(.kind) == ["sync", "cond", "poll", "async", "barrier", "all"]' "$BATS_TEST_TMPDIR/l.jsonl"
	jq_ok -s 'all(.[]; (keys | sort) == ["count", "kind", "max", "mean", "min", "p50", "p90", "p99"])' "$BATS_TEST_TMPDIR/l.jsonl"
	jq_ok -s '(map(select(.kind != "all") | .count) | add) == (.[-1].count)' "$BATS_TEST_TMPDIR/l.jsonl"
	jq -c 'del(.kind)' <<<"${lines[5]}" >"$BATS_TEST_TMPDIR/all.json"
	jq -c .latency_us "$RES/$GOOD/TREE01/summary.json" | diff - "$BATS_TEST_TMPDIR/all.json"
}

@test "rollup.jq and trend.jq: one row per date and scenario, repeats folded; one series per scenario" {
	collect "$GOOD"
	collect "$BAD"
	cp -r "$RES/$GOOD/TREE01" "$RES/$GOOD/TREE01.2"	# a repeat: same figures, errors summed
	jq -c '.errors.leaks = 3' "$RES/$GOOD/TREE01/summary.json" >"$RES/$GOOD/TREE01.2/summary.json"
	collect "$GOOD"
	run "$A/rollup.jq" "$RES/$GOOD/runs.jsonl" "$RES/$BAD/runs.jsonl"
	[ "$status" -eq 0 ]
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/r.jsonl"
	jq_ok -s 'length == 7 and all(.[]; (keys | sort) == ["close_calls", "date", "errors", "failed", "gps_per_s", "latency_p50_us", "latency_p99_us", "pass", "perf", "reads_per_s", "result", "runs", "scenario", "when"])' "$BATS_TEST_TMPDIR/r.jsonl"
	jq_ok -s '.[] | select(.date == "2025.01.02-03.00.00" and .scenario == "TREE01") | .runs == 2 and .failed == 0 and .errors == 3 and .gps_per_s == 28.1' "$BATS_TEST_TMPDIR/r.jsonl"
	jq_ok -s 'map(select(.date == "2025.01.03-03.00.00") | {(.scenario): .result}) | add == {"TASKS01": "SKIPPED", "TREE01": "SUCCESS", "TREE03": "FAILURE", "TRIVIAL": "FAILURE"}' "$BATS_TEST_TMPDIR/r.jsonl"
	run "$A/trend.jq" "$BATS_TEST_TMPDIR/r.jsonl"
	printf '%s\n' "${lines[@]}" >"$BATS_TEST_TMPDIR/tr.jsonl"
	jq_ok -s 'map(.figure) == ["gps_per_s", "reads_per_s", "latency_p50_us", "latency_p99_us", "errors", "close_calls"]' "$BATS_TEST_TMPDIR/tr.jsonl"
	jq_ok -s '.[0].series | map({(.scenario): .points}) | add
		| .TRIVIAL == [["2025.01.02-03.00.00", 181.2], ["2025.01.03-03.00.00", 181.2]] and .BUSTED == [["2025.01.02-03.00.00", 411.9]] and has("TASKS01") == false' "$BATS_TEST_TMPDIR/tr.jsonl"
}

@test "tap.jq and junit.jq: one test per run, failures and skips as such" {
	collect "$BAD"
	run "$A/tap.jq" "$RES/$BAD/runs.jsonl" --argjson notes '["host h2: lost TREE05"]'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1..4 ]
	[ "${lines[1]}" = "ok 1 - TASKS01 # SKIP torture_type=tasks is not implemented" ]
	[ "${lines[2]}" = "ok 2 - TREE01: 565 grace periods (28.1/s), 0 errors" ]
	[[ ${lines[3]} == "not ok 3 - TREE03: FAILURE: killed by signal 11 (SEGV); "* ]]
	[ "${lines[4]}" = "not ok 4 - TRIVIAL: FAILURE: 12 Reader Batch close calls in 20s" ]
	[ "${lines[5]}" = "# host h2: lost TREE05" ]
	run "$A/junit.jq" "$RES/$BAD/runs.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = '<?xml version="1.0" encoding="UTF-8"?>' ]
	[[ ${lines[1]} == '<testsuites name="rcutorture 2025.01.03-03.00.00" tests="4" failures="2" errors="0" skipped="1" '* ]]
	[ "$(grep -c '<testcase ' <<<"$output")" -eq 4 ]
	[ "$(grep -c '<failure type="FAILURE"' <<<"$output")" -eq 2 ]
	[ "$(grep -c '<skipped message="torture_type=tasks is not implemented"/>' <<<"$output")" -eq 1 ]
	# Every element that opens closes (a crude well-formedness check).
	[ "$(grep -c '<testcase ' <<<"$output")" -eq "$(grep -c '</testcase>' <<<"$output")" ]
	if command -v python3 >/dev/null; then
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.read())' <<<"$output"
	fi
}

@test "collapse.awk and collapse.jq: sanitizer reports counted by stack, with the runs they came from" {
	local s=$AFIX/sanitizer/console.log
	mkdir -p "$BATS_TEST_TMPDIR/r/TREE01" "$BATS_TEST_TMPDIR/r/TREE02-kcsan"
	cp "$s" "$BATS_TEST_TMPDIR/r/TREE01/console.log"
	cat "$s" "$s" >"$BATS_TEST_TMPDIR/r/TREE02-kcsan/console.log"
	run awk -f "$A/collapse.awk" "$s"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "$s	ThreadSanitizer: data race	ThreadSanitizer: data race race.c:4 in w	w | w" ]
	[ "${lines[1]}" = "$s	AddressSanitizer: heap-use-after-free	AddressSanitizer: heap-use-after-free uaf.c:2 in get	get < main < __libc_start_call_main < __libc_start_main_impl | __interceptor_free < main < __libc_start_call_main" ]
	[ "${lines[2]}" = "$s	UndefinedBehaviorSanitizer: runtime error	reader.c:120:9: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type int	" ]
	awk -f "$A/collapse.awk" "$BATS_TEST_TMPDIR"/r/*/console.log | "$A/collapse.jq" >"$BATS_TEST_TMPDIR/c.json"
	jq_ok 'length == 3 and all(.[]; .count == 3 and .runs == ["TREE01", "TREE02-kcsan"])' "$BATS_TEST_TMPDIR/c.json"
	jq_ok 'map(.kind) == ["AddressSanitizer: heap-use-after-free", "ThreadSanitizer: data race", "UndefinedBehaviorSanitizer: runtime error"]' "$BATS_TEST_TMPDIR/c.json"
	jq_ok '.[1].frames == ["w", "|", "w"]' "$BATS_TEST_TMPDIR/c.json"
	# Addresses, pids and thread numbers do not split a report in two.
	sed -e 's/0x[0-9a-f]*/0xdead/g; s/pid=[0-9]*/pid=1/; s/T[0-9]/T9/g' "$s" >"$BATS_TEST_TMPDIR/r/TREE01/console.log"
	awk -f "$A/collapse.awk" "$BATS_TEST_TMPDIR"/r/*/console.log | "$A/collapse.jq" >"$BATS_TEST_TMPDIR/c.json"
	jq_ok 'length == 3' "$BATS_TEST_TMPDIR/c.json"
	# Another stack is another entry.
	sed 's/#0 w /#0 other /' "$s" >"$BATS_TEST_TMPDIR/r/TREE01/console.log"
	awk -f "$A/collapse.awk" "$BATS_TEST_TMPDIR"/r/*/console.log | "$A/collapse.jq" >"$BATS_TEST_TMPDIR/c.json"
	jq_ok 'length == 4 and (map(select(.kind == "ThreadSanitizer: data race") | .count) | sort) == [1, 2]' "$BATS_TEST_TMPDIR/c.json"
}
