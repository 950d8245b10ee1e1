#!/usr/bin/env -S jq -c -f
# compare.jq - a compare.json (bin/compare-liburcu.sh; the shape is in
# analysis/README.md) checked and summed up: one line per metric with
# each result's median, min and max over its repeated samples, and each
# pair's ratio of medians, ours over the other RCU's (liburcu, ck, DPDK),
# with its spread (best and worst case over the samples).  A pair names
# the other RCU's flavor `other' (schema 2) or `liburcu' (schema 1, read
# as the same).  A metric with "check": NAME (another metric of
# the same pairs, measured another way) gives each pair a "check":
# {metric, ratio, differs}, differs when the two ratios are more than 15%
# apart (the larger over the smaller).  A missing or mistyped key gives
# {"problem": "FILE: metrics[I]...: ..."} instead of that metric.
#
#   analysis/compare.jq results/DATE/compare.json
include "lib" {search: "./"};

def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
	else (.[length / 2 - 1] + .[length / 2]) / 2 end;
def figures: {median: (.samples | median), min: (.samples | min), max: (.samples | max), n: (.samples | length)};
# A pair of either schema: {ours, other}.
def pair: {ours, other: (.other // .liburcu)};

# A pair's cross-check against the same pair of metric $c among $all.
def checked($all; $c):
	. as $p
	| ([$all[] | select(.metric == $c) | .pairs[] | select(.ours == $p.ours and .other == $p.other)
	    | .ratio] | first) as $r
	| if $r == null then .
	  else . + {check: {metric: $c, ratio: $r,
			    differs: ($p.ratio != null and $r > 0 and $p.ratio > 0
				      and ([$p.ratio, $r] | max / min) > 1.15)}} end;

(input_filename // "compare.json") as $file
| if (.metrics | type) != "array" then {problem: "\($file): metrics: missing or not an array"}
  else [.metrics[].name] as $names
  | [.metrics | to_entries[] | .key as $i | .value as $m
  | [ (if ($m.name | type) != "string" or ($m.name | test("^[A-Za-z0-9_]+$") | not) then "name: a word of letters, digits, _" else empty end),
      (if $m.better != null and (any("lower", "higher", "neither"; . == $m.better) | not)
       then "better: lower, higher or neither" else empty end),
      (if ($m.results | type) != "array" or ($m.results | length) == 0 then "results: missing or empty" else empty end),
      ($m.results // [] | to_entries[]
	| .key as $j | .value
	| (if (.flavor | type) != "string" then "results[\($j)].flavor: missing" else empty end),
	  (if (.impl | type) != "string" then "results[\($j)].impl: missing" else empty end),
	  (if (.samples | type) != "array" or (.samples | length) == 0 or any(.samples[]; type != "number")
	   then "results[\($j)].samples: not a non-empty array of numbers" else empty end)),
      ($m.pairs // [] | to_entries[] | .key as $j | .value | pair
	| . as $p | [$m.results[]?.flavor] as $fl
	| if ($fl | any(.[]; . == $p.ours) and any(.[]; . == $p.other)) then empty
	  else "pairs[\($j)]: names a flavor without results" end),
      (if $m.check == null or ($m.check | type) == "string" and ($names | index([$m.check])) != null
       then empty else "check: names no metric of this file" end) ] as $bad
  | if ($bad | length) > 0 then {problem: "\($file): metrics[\($i)] (\($m.name // "?")): \($bad[0])"}
    else {metric: $m.name, label: ($m.label // $m.name), unit: ($m.unit // ""), better: ($m.better // "lower"),
	  check: $m.check,
	  results: [$m.results[] | {flavor, impl} + figures],
	  pairs: [($m.pairs // [])[] | pair | . as $p
		  | ($m.results[] | select(.flavor == $p.ours) | figures) as $o
		  | ($m.results[] | select(.flavor == $p.other) | figures) as $l
		  | {ours: $p.ours, other: $p.other,
		     ratio: (if $l.median != 0 then $o.median / $l.median | round_to(3) else null end),
		     ratio_low: (if $l.max != 0 then $o.min / $l.max | round_to(3) else null end),
		     ratio_high: (if $l.min != 0 then $o.max / $l.min | round_to(3) else null end)}]}
    end]
  | . as $all
  | .[] | .check as $c | if $c then .pairs |= map(checked($all; $c)) else . end | del(.check | nulls)
  end
