#!/usr/bin/env -S jq -s -c -f
# rollup.jq - many results folders in one table: one line per date and
# series (a scenario in a pass: TREE01, TREE01-kasan, refscale-OURS;
# repeats such as TREE01.2 folded in; "scenario" and "pass" say it):
# runs, failed, verdict
# (FAILURE if any run failed, SKIPPED if all were skipped), the mean
# rates and latencies, the summed errors and close calls, a perf
# program's figures (perf: their means).  Input: run
# records (RESULTS/*/runs.jsonl, written by bin/plot.sh, bin/report.sh
# or bin/rollup.sh).
#
#   analysis/rollup.jq results/*/runs.jsonl
include "lib" {search: "./"};

[.[] | . as $r | totals + {when: ($r.when // date_name), failed: ($r | is_failed), skipped: ($r | is_skipped),
	pass: ($r.pass // "rcutorture"), series: ($r.series // $r.scenario), perf: ($r.perf // [])}]
| group_by([.when, .date, .pass, .series])[]
| {date: .[0].date, when: .[0].when, scenario: .[0].series, pass: .[0].pass, runs: length,
   failed: map(select(.failed)) | length,
   result: (if any(.[]; .failed) then (if any(.[]; .result == "FAILURE") then "FAILURE" else (map(select(.failed)) | .[0].result) end)
	    elif all(.[]; .skipped) then "SKIPPED" else "SUCCESS" end),
   gps_per_s: (mean_of(.gps_per_s) | round_to(1)),
   reads_per_s: (mean_of(.reads_per_s) | round_to(0)),
   latency_p50_us: (mean_of(.latency_p50_us) | round_to(0)),
   latency_p99_us: (mean_of(.latency_p99_us) | round_to(0)),
   errors: (map(.errors // 0) | add),
   close_calls: (map(.close_calls // 0) | add),
   perf: ([.[].perf[]] | group_by(.name) | map({name: .[0].name, value: (mean_of(.value) | round_to(3))}))}
