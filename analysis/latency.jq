#!/usr/bin/env -S jq -R -s -c -f
# latency.jq - grace-period latency figures from a run's gp-latency.dat
# ("T KIND US" lines): count, min, p50, p90, p99, max, mean (us) per kind
# (sync, exp, cond, poll, async, barrier) and for all kinds together (the
# same figures as summary.json's latency_us; percentile = the sorted
# value at round(p * (n - 1))).  Malformed lines: {"problem": ...},
# skipped.  jq needs about 20 s per million lines; bin/plot.sh does not
# use this filter (gnuplot reads the file itself).
#
#   analysis/latency.jq results/DATE/TREE01/gp-latency.dat
include "lib" {search: "./"};

(input_filename // "stdin") as $name
| [split("\n") | to_entries[] | select(.value | test("^\\s*(#|$)") | not)
   | (.key + 1) as $line
   | if (.value | test("^[0-9]+(\\.[0-9]+)? [a-z_]+ [0-9]+$"))
     then (.value | split(" ") | {kind: .[1], us: (.[2] | tonumber)})
     else {problem: "\($name):\($line): malformed latency line (\(.value | .[0:60])): skipped"} end] as $rows
| ($rows[] | select(.problem)),
  ([$rows[] | select(.kind)] as $ok
   | ($ok | group_by(.kind) | sort_by(.[0].kind | kind_order)[] | {kind: .[0].kind} + (map(.us) | latency_figures)),
     ({kind: "all"} + ($ok | map(.us) | latency_figures)))
