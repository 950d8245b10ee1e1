#!/usr/bin/env -S jq -s -c -f
# trend.jq - each figure across dates: one line per figure (grace periods
# and reader iterations per second, latency p50/p99, errors, close calls)
# with one series per scenario: [when, value] points in date order.
# Input: roll-up lines (rollup.jq's output).
#
#   analysis/rollup.jq results/*/runs.jsonl | analysis/trend.jq
include "lib" {search: "./"};

. as $rows
| figures[]
| . as $f
| {figure: $f.key, label: $f.label, unit: $f.unit,
   series: [$rows | group_by(.scenario)[]
	    | {scenario: .[0].scenario,
	       points: (sort_by(.when) | map([.when, .[$f.key]]) | map(select(.[1] != null)))}
	    | select(.points | length > 0)]}
