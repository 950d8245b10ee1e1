#!/usr/bin/env -S jq -c -f
# errors.jq - the error counters of each run: their sum, the non-zero
# ones by name (summary.json's errors object), stalls and close calls,
# and for a failed run why it failed.
#
#   analysis/errors.jq results/DATE/*/summary.json
#   analysis/errors.jq results/DATE/runs.jsonl
include "lib" {search: "./"};

{run: run_name, scenario, result: verdict, errors: error_total, nonzero: nonzero_errors,
 stalls, close_calls, why: (.why // (if (.reason // "") != "" then [.reason] else [] end))}
