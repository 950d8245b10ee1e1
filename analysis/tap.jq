#!/usr/bin/env -S jq -s -r -f
# tap.jq - a TAP summary of run records (RESULTS/DATE/runs.jsonl): one
# test per run, "ok" for SUCCESS, "# SKIP" for SKIPPED, "not ok" with the
# verdict and its reasons for anything else (FAILURE, INCOMPLETE ...);
# notes (e.g. about hosts) as "#" lines; extra tests (e.g. the mutation
# kill table) after the runs.
#
#   analysis/tap.jq results/DATE/runs.jsonl [--argjson notes '["..."]']
#                   [--argjson extra '[{"ok": true, "name": "...", "why": "..."}]']
include "lib" {search: "./"};

def oneline: tostring | gsub("[\r\n]+"; " ");
($ARGS.named.extra // []) as $extra
| length as $n
| "1..\($n + ($extra | length))",
(to_entries[] | .key as $i | .value | totals as $t
 | (if .host then " (\(.host))" else "" end) as $on
 | if is_success then
	"ok \($i + 1) - \(.run)\($on): \($t.gps // "?") grace periods (\($t.gps_per_s // "?")/s), \($t.errors) errors"
   elif is_skipped then
	"ok \($i + 1) - \(.run)\($on) # SKIP \((.why // []) | join("; ") | oneline)"
   else
	"not ok \($i + 1) - \(.run)\($on): \(verdict): \((.why // []) | join("; ") | oneline)"
   end),
($extra | to_entries[] | "\(if .value.ok then "ok" else "not ok" end) \($n + .key + 1) - \(.value.name | oneline)\(if .value.why then ": \(.value.why | oneline)" else "" end)"),
(($ARGS.named.notes // [])[] | "# \(oneline)")
