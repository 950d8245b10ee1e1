#!/usr/bin/env -S jq -R -s -c -f
# rates.jq - a run's figures over time, from its stats.jsonl: one line per
# stats print with t, ver, gps, reads, errors, close_calls and the rates
# over the interval since the previous print (gps_per_s, ver_per_s,
# reads_per_s).  A malformed line gives {"problem": "FILE:LINE: ..."} and
# is skipped; the rest is still used.
#
#   analysis/rates.jq results/DATE/TREE01/stats.jsonl
include "lib" {search: "./"};

[parse_lines(input_filename // "stdin")] as $p
| ($p[] | select(.problem)),
  ([$p[] | select(.value) | .value] | stats_timeline[])
