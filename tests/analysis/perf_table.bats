#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
bats_require_minimum_version 1.5.0
# bin/perf-table.sh: one machine's markdown section for
# docs/performance.md from a compare.json (tests/fixtures/analysis/
# compare.json): the heading names the machine, one row per ours/liburcu
# pair with medians, ratio, spread and which way is better, the targets
# when the file carries them; bad input is one line naming the file and
# what is wrong, exit 2.

load ../lib/analysis

PT=$TOP/bin/perf-table.sh
FIX=$AFIX/compare.json

setup() {
	skip_under_sanitizers
	need jq jq
}

# doctored JQ: a copy of the fixture changed by JQ, in $BATS_TEST_TMPDIR/c.json.
doctored() {
	C=$BATS_TEST_TMPDIR/c.json
	jq "$1" "$FIX" >"$C"
}

@test "perf-table.sh: heading, one row per pair, ratio and spread from the samples" {
	run "$PT" "$FIX"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "### CPU model not recorded (2 cores), Linux 6.1.0-28-amd64, 2025-01-04, liburcu 0.13.2" ]
	grep -qx '| metric | ours | other | ratio | spread | better |' <<<"$output"
	# The fixture has four pairs: four rows.
	[ "$(grep -c '^| [^-m|]' <<<"$output")" -eq 4 ]
	# Medians 1.22 / 1.02; spread min/max .. max/min = 1.19/1.10 .. 1.30/0.99.
	grep -qxF '| read-side cost: rcu_read_lock + rcu_dereference + rcu_read_unlock | rcu 1.22 ns | urcu-memb 1.02 ns | 1.2 | 1.08 .. 1.31 | ours if < 1 |' <<<"$output"
	grep -qxF '| updater throughput with 4 readers | rcu 2400 /s | urcu-memb 3300 /s | 0.727 | 0.675 .. 0.81 | ours if > 1 |' <<<"$output"
	# No targets in the fixture: no targets table.
	! grep -q '^| target |' <<<"$output"
}

@test "perf-table.sh: a results folder stands for its compare.json" {
	mkdir -p "$BATS_TEST_TMPDIR/r"
	cp "$FIX" "$BATS_TEST_TMPDIR/r/compare.json"
	run "$PT" "$BATS_TEST_TMPDIR/r/"
	[ "$status" -eq 0 ]
	[ "$output" = "$("$PT" "$FIX")" ]
}

@test "perf-table.sh: the heading's date is the run's start, not a folder named by --datestamp" {
	doctored '.date = "quiet-run" | .started = "2026.12.07-18.39.39"'
	run "$PT" "$C"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "### CPU model not recorded (2 cores), Linux 6.1.0-28-amd64, 2026-12-07, liburcu 0.13.2" ]
	grep -qF 'from `quiet-run/compare.json`' <<<"$output"
}

@test "perf-table.sh: the CPU model in the heading, the targets in a table, large figures in k and M" {
	doctored '.host.cpu_model = "AMD EPYC 7B13" | .metrics[2].results[0].samples = [1234567, 1234567]
		| .targets = [{what: "rcu/urcu-memb ns (nreaders=1 updater=0)", value: 0.82, unit: "x",
			limit: 1, at_least: false, met: true, within_spread: false},
		{what: "sched/urcu-qsbr ns", value: 2.4, unit: "x", limit: 1, at_least: false, met: false,
			within_spread: false}]'
	run "$PT" "$C"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "### AMD EPYC 7B13 (2 cores), Linux 6.1.0-28-amd64, 2025-01-04, liburcu 0.13.2" ]
	grep -qF '| updater throughput with 4 readers | rcu 1.23M /s | urcu-memb 3300 /s | 374 |' <<<"$output"
	grep -qx '| target | value | limit | |' <<<"$output"
	grep -qxF '| rcu/urcu-memb ns (nreaders=1 updater=0) | 0.82 x | <= 1 | met |' <<<"$output"
	grep -qxF '| sched/urcu-qsbr ns | 2.4 x | <= 1 | **missed** |' <<<"$output"
}

# bad INPUT-FILE PATTERN: exit 2, one line on stderr naming the file and
# matching PATTERN, nothing on stdout.
bad() {
	run --separate-stderr "$PT" "$1"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ ${stderr_lines[0]} == "perf-table.sh: $1"* ]]
	grep -q -- "$2" <<<"$stderr"
}

@test "perf-table.sh: bad input is one line naming the file and what is wrong, exit 2" {
	bad "$BATS_TEST_TMPDIR/none.json" "no such file"
	echo '{"schema": ' >"$BATS_TEST_TMPDIR/broken.json"
	bad "$BATS_TEST_TMPDIR/broken.json" "not a JSON object"
	echo '[1, 2]' >"$BATS_TEST_TMPDIR/array.json"
	bad "$BATS_TEST_TMPDIR/array.json" "not a JSON object"
	doctored '.schema = "something/2"'
	bad "$C" "schema: expected rcu-torture-compare/2 (or 1), found something/2"
	doctored '.metrics = []'
	bad "$C" "metrics: missing, not an array, or empty"
	doctored '.host = "box"'
	bad "$C" "host: not an object"
	doctored '.metrics[1].results[0].samples = ["fast"]'
	bad "$C" 'metrics\[1\] (gp_p50_us): results\[0\].samples'
	doctored '.metrics[0].pairs[0].liburcu = "urcu-none"'
	bad "$C" 'metrics\[0\] (read_ns): pairs\[0\]: names a flavor without results'
}

@test "perf-table.sh: usage errors exit 2, --help exits 0, no jq exits 3" {
	run "$PT"
	[ "$status" -eq 2 ]
	[[ $output == usage:* ]]
	run "$PT" a b
	[ "$status" -eq 2 ]
	run "$PT" --help
	[ "$status" -eq 0 ]
	[[ ${lines[0]} == "usage: bin/perf-table.sh RESULTS/DATE/compare.json" ]]
	path_without jq
	run "$PT" "$FIX"
	[ "$status" -eq 3 ]
	[[ $output == *"jq not found (Debian package jq)"* ]]
}

@test "compare.jq and perf-table.sh: a metric's check by another method, agreeing within 15% or said to disagree" {
	# read_ns: rcu/urcu-memb 1.2 (1.22/1.02); a second metric of the same
	# pairs measured another way, its ratio first 1.37 (1.14x: agrees), then
	# 1.40 (1.17x: disagrees); sched/urcu-qsbr has no pair there.
	local other='{"name": "read_ns_plain", "label": "plain", "unit": "ns", "better": "lower",
		"results": [{"flavor": "rcu", "impl": "ours", "samples": [R]},
			    {"flavor": "urcu-memb", "impl": "liburcu", "samples": [1]}],
		"pairs": [{"ours": "rcu", "liburcu": "urcu-memb"}]}'
	doctored ".metrics[0].check = \"read_ns_plain\" | .metrics += [${other/R/1.37}]"
	run "$A/compare.jq" "$C"
	[ "$status" -eq 0 ]
	[ "$(jq -c 'select(.metric == "read_ns") | [.pairs[] | .check]' <<<"$output")" = \
	  '[{"metric":"read_ns_plain","ratio":1.37,"differs":false},null]' ]
	run "$PT" "$C"
	grep -qxF '| read-side cost: rcu_read_lock + rcu_dereference + rcu_read_unlock | rcu 1.22 ns | urcu-memb 1.02 ns | 1.2 | 1.08 .. 1.31 | ours if < 1; read_ns_plain agrees (1.37) |' <<<"$output"
	doctored ".metrics[0].check = \"read_ns_plain\" | .metrics += [${other/R/1.40}]"
	run "$A/compare.jq" "$C"
	[ "$(jq -c 'select(.metric == "read_ns") | .pairs[0].check.differs' <<<"$output")" = true ]
	run "$PT" "$C"
	grep -qxF '| read-side cost: rcu_read_lock + rcu_dereference + rcu_read_unlock | rcu 1.22 ns | urcu-memb 1.02 ns | 1.2 | 1.08 .. 1.31 | ours if < 1; **the two methods disagree: read_ns_plain gives 1.4** |' <<<"$output"
	# A check that names no metric is a problem, named.
	doctored '.metrics[0].check = "nosuch"'
	run "$PT" "$C"
	[ "$status" -eq 2 ]
	[ "$output" = "perf-table.sh: $C: metrics[0] (read_ns): check: names no metric of this file" ]
}
