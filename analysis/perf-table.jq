#!/usr/bin/env -S jq -r -f
# perf-table.jq - one machine's section of docs/performance.md from a
# compare.json (bin/compare-liburcu.sh; the shape is in
# analysis/README.md): a heading naming the machine (CPU model, cores,
# kernel, date, liburcu version and the other libraries'), one table row
# per ours/other pair of
# every metric (both medians, their ratio, its spread, which way is
# better), then the targets the programs printed.  The figures come from
# compare.jq's lines, passed as a named argument; bin/perf-table.sh checks
# the input first and calls it so:
#
#   jq -r -f analysis/perf-table.jq RESULTS/DATE/compare.json \
#      --argjson figures "[compare.jq's lines]"

# fmt: a figure with three significant digits, k and M for large ones;
# "-" for null.
def sig3:
	if . == 0 then "0"
	else (fabs | log10 | floor) as $e | pow(10; 2 - $e) as $m
	| (. * $m | round) / $m | tostring end;
def fmt:
	if type != "number" then "-"
	elif fabs >= 1e6 then (. / 1e6 | sig3) + "M"
	elif fabs >= 1e4 then (. / 1e3 | sig3) + "k"
	else sig3 end;
# cell: text safe inside a markdown table cell.
def cell: tostring | gsub("\\|"; "\\|") | gsub("\n"; " ");
# day: "2026.12.06-10.00.00" -> "2026-12-06"; any other name as it is.
def day:
	if type == "string" and test("^[0-9]{4}\\.[0-9]{2}\\.[0-9]{2}-")
	then .[0:10] | gsub("\\."; "-") else (. // "date not recorded" | tostring) end;
def better_text: {lower: "ours if < 1", higher: "ours if > 1"}[.] // "informational";
# check_text: a pair's cross-check by another method (compare.jq), if any.
def check_text:
	if .check == null then ""
	elif .check.differs then "; **the two methods disagree: \(.check.metric) gives \(.check.ratio | fmt)**"
	else "; \(.check.metric) agrees (\(.check.ratio | fmt))" end;
def side($r; $unit): if $r == null then "-" else "\($r.flavor) \($r.median | fmt) \($unit)" end;

. as $c
| ($c.host // {}) as $h
| ($ARGS.named.figures // []) as $figs
| "### \($h.cpu_model // "CPU model not recorded" | cell) (\($h.cores // "?") cores), Linux \($h.kernel // "?"), \($c.started // $c.date | day), liburcu \($h.liburcu // "?")\(if $h.ck then ", ck \($h.ck)" else "" end)\(if $h.dpdk then ", DPDK \($h.dpdk)" else "" end)",
  "",
  "Made by `bin/perf-table.sh` from `\($c.date // "?")/compare.json`: `bin/compare-liburcu.sh`, every figure measured \($c.repeats // "?") times, the flavors interleaved; `membarrier()` \(if $h.membarrier == true then "available" elif $h.membarrier == false then "absent" else "not recorded" end).  Ratio: ours / the other RCU (liburcu, ck, DPDK) of the medians; spread: its best and worst case over the runs (min/max .. max/min).",
  "",
  "| metric | ours | other | ratio | spread | better |",
  "|---|---:|---:|---:|---|---|",
  ($figs[] | . as $m
   | if ($m.pairs | length) > 0 then
	$m.pairs[] | . as $p
	| ($m.results[] | select(.flavor == $p.ours)) as $o
	| ($m.results[] | select(.flavor == $p.other)) as $l
	| "| \($m.label | cell) | \(side($o; $m.unit) | cell) | \(side($l; $m.unit) | cell) | \($p.ratio | fmt) | \($p.ratio_low | fmt) .. \($p.ratio_high | fmt) | \($m.better | better_text)\($p | check_text | cell) |"
     else
	$m.results[]
	| "| \($m.label | cell) | \(if .impl != "ours" then "-" else side(.; $m.unit) | cell end) | \(if .impl != "ours" then side(.; $m.unit) | cell else "-" end) | - | - | \($m.better | better_text) |"
     end),
  (($c.targets // []) as $t
   | if ($t | length) == 0 then empty
     else "",
	"Targets the programs printed (medians over the runs; printed, never asserted):",
	"",
	"| target | value | limit | |",
	"|---|---:|---:|---|",
	($t[] | "| \(.what // "?" | cell) | \(.value | fmt) \(.unit // "" | cell) | \(if .at_least then ">=" else "<=" end) \(.limit | fmt) | \(if .met then "met" elif .within_spread then "missed, within the spread (not resolved)" else "**missed**" end) |")
     end)
