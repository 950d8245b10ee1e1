#!/usr/bin/env -S jq -s -c -f
# trend.jq - each figure across dates, per pass (bin/nightly.sh's
# rcutorture, kasan, refscale ...): one line per pass and figure (grace
# periods and reader iterations per second, latency p50/p99, errors,
# close calls, from the rcutorture runs; from the perf programs' runs
# "perf", their figures' medians) with one series per scenario (for "perf": per scenario and
# figure, spaces made "_"): [when, value] points in date order.
# Input: roll-up lines (rollup.jq's output).
#
#   analysis/rollup.jq results/*/runs.jsonl | analysis/trend.jq
include "lib" {search: "./"};

. as $rows
| ($rows | map(.pass // "rcutorture") | unique) as $passes
| $passes[] as $p
| [$rows[] | select((.pass // "rcutorture") == $p)] as $pr
| (figures[]
   | . as $f
   | {pass: $p, figure: $f.key, label: $f.label, unit: $f.unit,
      series: [$pr | map(select((.perf // []) | length == 0)) | group_by(.scenario)[]
	       | {scenario: .[0].scenario,
		  points: (sort_by(.when) | map([.when, .[$f.key]]) | map(select(.[1] != null)))}
	       | select(.points | length > 0)]}),
  ({pass: $p, figure: "perf", label: "perf programs' figures (medians)", unit: "",
    series: [$pr | [.[] | . as $r | (.perf // [])[] | {scenario: ("\($r.scenario) \(.name)" | gsub(" "; "_")), when: $r.when, value}]
	     | group_by(.scenario)[]
	     | {scenario: .[0].scenario, points: (sort_by(.when) | map([.when, .value]))}]}
   | select(.series | length > 0))
