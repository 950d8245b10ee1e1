#!/usr/bin/env -S jq -s -r -f
# junit.jq - a JUnit XML file of run records (RESULTS/DATE/runs.jsonl),
# for CI systems: one testsuite (the results folder), one testcase per run
# (classname rcutorture.SCENARIO, name the run, time its duration); a
# FAILURE is a <failure>, INCOMPLETE and other failed verdicts an
# <error>, SKIPPED a <skipped>; the figures and host in <system-out>.
#
#   analysis/junit.jq results/DATE/runs.jsonl [--arg name "nightly DATE"]
include "lib" {search: "./"};

def x: tostring | @html;
def count(f): map(select(f)) | length;
(.[0].date // "") as $date
| ($ARGS.named.name // "rcutorture \($date)") as $name
| (map(.duration_s // 0) | add // 0) as $time
| "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
  "<testsuites name=\"\($name | x)\" tests=\"\(length)\" failures=\"\(count(verdict == "FAILURE"))\" errors=\"\(count(is_failed and verdict != "FAILURE"))\" skipped=\"\(count(is_skipped))\" time=\"\($time)\">",
  "  <testsuite name=\"\($name | x)\" tests=\"\(length)\" failures=\"\(count(verdict == "FAILURE"))\" errors=\"\(count(is_failed and verdict != "FAILURE"))\" skipped=\"\(count(is_skipped))\" time=\"\($time)\">",
  (.[] | totals as $t | ((.why // []) | join("; ")) as $why
   | "    <testcase classname=\"rcutorture.\(.scenario | x)\" name=\"\(.run | x)\" time=\"\(.duration_s // 0)\">",
     (if verdict == "FAILURE" then "      <failure type=\"FAILURE\" message=\"\($why | x)\">\((.why // []) | join("\n") | x)</failure>"
      elif is_skipped then "      <skipped message=\"\($why | x)\"/>"
      elif is_failed then "      <error type=\"\(verdict | x)\" message=\"\($why | x)\">\((.why // []) | join("\n") | x)</error>"
      else empty end),
     "      <system-out>\("\(verdict) \(.torture_type // "?") grace periods \($t.gps // "-") (\($t.gps_per_s // "-")/s), reads/s \($t.reads_per_s // "-"), errors \($t.errors), latency p50 \($t.latency_p50_us // "-") us p99 \($t.latency_p99_us // "-") us\(if .host then ", host \(.host)" else "" end)" | x)</system-out>",
     "    </testcase>"),
  "  </testsuite>",
  "</testsuites>"
