#!/usr/bin/env -S jq -s -c -f
# drift.jq - the figures of one night that moved beyond their spread
# over the last nights: from roll-up lines (rollup.jq's output, the last
# dates), for each pass, series (TREE01, refscale-OURS ...) and figure
# (grace periods and reads per second, latency p50/p99, each perf
# program's figure), tonight's value against the same figure of up to
# $nights earlier dates (at least 3): flagged when it lies more than 3
# spreads from their mean, the spread being their standard deviation
# but at least 2% of the mean (identical past values do not make every
# wobble news).  A perf program's figures under a sanitizer (the kasan
# and kcsan passes: one round, instrumented code) are not measurements
# and are left out.  One line per flagged figure:
#   {pass, series, figure, value, mean, sd, nights, low, high, direction}
#
#   analysis/drift.jq RESULTS/DATE/rollup.jsonl --arg date DATE [--argjson nights 10]
include "lib" {search: "./"};

def mean: add / length;
($ARGS.named.date) as $date
| ($ARGS.named.nights // 10) as $k
| [.[] | . as $r
   | ((["gps_per_s", "reads_per_s", "latency_p50_us", "latency_p99_us"][]
       | {figure: ., value: $r[.]}),
      (if ($r.pass // "") | IN("kasan", "kcsan") then empty else ($r.perf // [])[] end
       | {figure: .name, value}))
   | select((.value | type) == "number")
   | . + {pass: ($r.pass // "rcutorture"), series: $r.scenario, date: $r.date, when: ($r.when // $r.date)}]
| group_by([.pass, .series, .figure])[]
| (map(select(.date == $date)) | .[0]) as $now
| select($now != null)
| (map(select(.date != $date and .when < $now.when)) | sort_by(.when) | .[-$k:] | map(.value)) as $past
| select(($past | length) >= 3)
| ($past | mean) as $m
| ($past | map((. - $m) * (. - $m)) | mean | sqrt) as $sd
| ([$sd, ($m | fabs) * 0.02] | max) as $spread
| select((($now.value - $m) | fabs) > 3 * $spread)
| {pass: $now.pass, series: $now.series, figure: $now.figure, value: $now.value,
   mean: ($m | round_to(3)), sd: ($sd | round_to(3)), nights: ($past | length),
   low: ($m - 3 * $spread | round_to(3)), high: ($m + 3 * $spread | round_to(3)),
   direction: (if $now.value > $m then "up" else "down" end)}
