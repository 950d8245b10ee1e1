#!/usr/bin/env -S jq -s -r -f
# tap.jq - a TAP summary of run records (RESULTS/DATE/runs.jsonl): one
# test per run, "ok" for SUCCESS, "# SKIP" for SKIPPED, "not ok" with the
# verdict and its reasons for anything else (FAILURE, INCOMPLETE ...);
# a run expected to fail (is_expected_failure) is a TAP TODO test: "not
# ok ... # TODO expected to fail" when it failed (the night stays green),
# "ok ... # TODO" when it did not (a TAP harness says it passed
# unexpectedly; bin/nightly.sh turns the night red);
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
 | if is_expected_failure and (is_skipped | not) then
	if verdict == "FAILURE" then
	"not ok \($i + 1) - \(.run)\($on): FAILURE: \((.why // []) | join("; ") | oneline) # TODO expected to fail (\(.expect_why))"
	else
	"ok \($i + 1) - \(.run)\($on): \(verdict)\(if (.why // []) | length > 0 then ": \(.why | join("; ") | oneline)" else "" end) # TODO expected to fail (\(.expect_why)), but did not: the tester is broken"
	end
   elif is_success and .suite then
	"ok \($i + 1) - \(.run)\($on): \(.measurements // "?") measurements, targets met \(.targets_met // "?") of \((.targets_met // 0) + (.targets_missed // 0))"
   elif is_success then
	"ok \($i + 1) - \(.run)\($on): \($t.gps // "?") grace periods (\($t.gps_per_s // "?")/s), \($t.errors) errors"
   elif is_skipped then
	"ok \($i + 1) - \(.run)\($on) # SKIP \((.why // []) | join("; ") | oneline)"
   else
	"not ok \($i + 1) - \(.run)\($on): \(verdict): \((.why // []) | join("; ") | oneline)"
   end),
($extra | to_entries[] | "\(if .value.ok then "ok" else "not ok" end) \($n + .key + 1) - \(.value.name | oneline)\(if .value.skip then " # SKIP \(.value.why // "" | oneline)" elif .value.why then ": \(.value.why | oneline)" else "" end)"),
(($ARGS.named.notes // [])[] | "# \(oneline)")
