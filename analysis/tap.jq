#!/usr/bin/env -S jq -s -r -f
# tap.jq - a TAP summary of run records (RESULTS/DATE/runs.jsonl): one
# test per run, "ok" for SUCCESS, "# SKIP" for SKIPPED, "not ok" with the
# verdict and its reasons for anything else (FAILURE, INCOMPLETE ...);
# notes (e.g. about hosts) as "#" lines.
#
#   analysis/tap.jq results/DATE/runs.jsonl [--argjson notes '["..."]']
include "lib" {search: "./"};

def oneline: tostring | gsub("[\r\n]+"; " ");
"1..\(length)",
(to_entries[] | .key as $i | .value | totals as $t
 | (if .host then " (\(.host))" else "" end) as $on
 | if is_success then
	"ok \($i + 1) - \(.run)\($on): \($t.gps // "?") grace periods (\($t.gps_per_s // "?")/s), \($t.errors) errors"
   elif is_skipped then
	"ok \($i + 1) - \(.run)\($on) # SKIP \((.why // []) | join("; ") | oneline)"
   else
	"not ok \($i + 1) - \(.run)\($on): \(verdict): \((.why // []) | join("; ") | oneline)"
   end),
(($ARGS.named.notes // [])[] | "# \(oneline)")
