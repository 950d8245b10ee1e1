#!/usr/bin/env -S jq -s -r -f
# junit.jq - a JUnit XML file of run records (RESULTS/DATE/runs.jsonl),
# for CI systems: one testsuite (the results folder), one testcase per run
# (classname rcutorture.SCENARIO, name the run, time its duration); a
# FAILURE is a <failure>, INCOMPLETE and other failed verdicts an
# <error>, SKIPPED a <skipped>; the figures and host in <system-out>.  A
# run expected to fail (a busted torture type) that failed passes, with
# the property expected=FAILURE and "expected failure" in <system-out>;
# one that did not fail is a <failure type="UNEXPECTED-SUCCESS"> (or
# UNEXPECTED-INCOMPLETE ...).  Extra tests (bin/nightly.sh's mutation and
# compare-liburcu passes) follow the runs.
#
#   analysis/junit.jq results/DATE/runs.jsonl [--arg name "nightly DATE"]
#                     [--argjson extra '[{"ok": true, "name": "...", "why": "...", "pass": "mutation"}]']
include "lib" {search: "./"};

def x: tostring | @html;
def count(f): map(select(f)) | length;
# failure_kind: a run's JUnit outcome: failure, error, skipped or pass.
def failure_kind:
	if is_expected_failure then (if is_red then "failure" elif is_skipped then "skipped" else "pass" end)
	elif verdict == "FAILURE" then "failure"
	elif is_skipped then "skipped"
	elif is_failed then "error"
	else "pass" end;
($ARGS.named.extra // []) as $extra
| (.[0].date // "") as $date
| ($ARGS.named.name // "rcutorture \($date)") as $name
| (map(.duration_s // 0) | add // 0) as $time
| (length + ($extra | length)) as $tests
| (count(failure_kind == "failure") + ($extra | map(select(.ok | not)) | length)) as $failures
| "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
  "<testsuites name=\"\($name | x)\" tests=\"\($tests)\" failures=\"\($failures)\" errors=\"\(count(failure_kind == "error"))\" skipped=\"\(count(failure_kind == "skipped"))\" time=\"\($time)\">",
  "  <testsuite name=\"\($name | x)\" tests=\"\($tests)\" failures=\"\($failures)\" errors=\"\(count(failure_kind == "error"))\" skipped=\"\(count(failure_kind == "skipped"))\" time=\"\($time)\">",
  (.[] | totals as $t | ((.why // []) | join("; ")) as $why
   | "    <testcase classname=\"\(.pass // "rcutorture").\(.scenario | x)\" name=\"\(.run | x)\" time=\"\(.duration_s // 0)\">",
     (if is_expected_failure then
	"      <properties><property name=\"expected\" value=\"FAILURE\"/></properties>",
	(if failure_kind == "failure" then "      <failure type=\"UNEXPECTED-\(verdict | x)\" message=\"\("expected to fail (\(.expect_why)), but \(verdict)" | x)\">\($why | x)</failure>"
	 elif failure_kind == "skipped" then "      <skipped message=\"\($why | x)\"/>"
	 else empty end)
      elif verdict == "FAILURE" then "      <failure type=\"FAILURE\" message=\"\($why | x)\">\((.why // []) | join("\n") | x)</failure>"
      elif is_skipped then "      <skipped message=\"\($why | x)\"/>"
      elif is_failed then "      <error type=\"\(verdict | x)\" message=\"\($why | x)\">\((.why // []) | join("\n") | x)</error>"
      else empty end),
     "      <system-out>\("\(if is_expected_failure and verdict == "FAILURE" then "expected failure: " else "" end)\(verdict) \(.torture_type // "?") grace periods \($t.gps // "-") (\($t.gps_per_s // "-")/s), reads/s \($t.reads_per_s // "-"), errors \($t.errors), latency p50 \($t.latency_p50_us // "-") us p99 \($t.latency_p99_us // "-") us\(if .host then ", host \(.host)" else "" end)" | x)</system-out>",
     "    </testcase>"),
  ($extra[] | "    <testcase classname=\"\(.pass // "extra" | x)\" name=\"\(.name | x)\" time=\"0\">",
     (if .skip then "      <skipped message=\"\(.why // "" | x)\"/>"
      elif .ok then empty else "      <failure type=\"FAILURE\" message=\"\(.why // "" | x)\">\(.why // "" | x)</failure>" end),
     "    </testcase>"),
  "  </testsuite>",
  "</testsuites>"
