#!/usr/bin/env -S jq -c -f
# totals.jq - one line of figures per run: verdict, grace periods (or the
# writer's updates where the type cannot count grace periods:
# gps_counted false), reader iterations, their rates per second, errors,
# close calls, stalls, latency p50/p99 (us).
#
#   analysis/totals.jq results/DATE/*/summary.json
#   analysis/totals.jq results/DATE/runs.jsonl
include "lib" {search: "./"};

totals
