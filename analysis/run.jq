# analysis/run.jq - one run record from a scenario folder's files: the
# line of RESULTS/DATE/runs.jsonl that every other filter, plot and the
# report read.  bin/lib/analysis.sh (analysis_record) calls it:
#
#   jq -n -c -f analysis/run.jq --arg dir RESULTS/DATE/TREE01 --arg run TREE01 \
#      --arg date DATE --arg when YYYY.MM.DD-HH.MM.SS --arg host HOST \
#      --rawfile summary .../summary.json --rawfile stats .../stats.jsonl \
#      --rawfile diags .../console.log.diags --rawfile warnings .../Warnings \
#      --rawfile exitst .../exit_status --argjson kinds '["sync",...]' \
#      --arg present "console.log summary.json ..." --rawfile problems FILE \
#      --arg pass PASS --rawfile perf .../perf.jsonl
#
# (a missing file is passed as /dev/null; present lists the folder's
# files; problems holds the malformed-input messages found elsewhere, one
# a line).  The record is summary.json's
# object plus: run, date, when (the date as YYYY.MM.DD-HH.MM.SS), host,
# verdict, why (reasons for a failed verdict), notes, timeline
# (stats_timeline), pipe, batch, fbc (the final stats line),
# latency_kinds, files, problems (malformed input, each "FILE:LINE: ..."),
# pass (bin/nightly.sh's pass: rcutorture, kasan, refscale ...; a perf
# program's suite, else rcutorture), series (the run without its repeat
# suffix: what the trends follow), expect ("FAILURE" for a run meant to
# fail: a torture type named busted, busted_*, *_busted*, *-busted, the
# deliberately broken ones flagged TORTURE_OPS_BROKEN, or a BUSTED*
# scenario; else null), expect_why (which of the two), perf (a perf program's figures: one
# {name, value} per summary line and figure, the median).
#
# The verdict is the judge's (bin/lib/judge.sh): a "BUG:" line in
# console.log.diags or a "!!!" line in Warnings makes any run a FAILURE;
# otherwise an "INCOMPLETE: why" line in Warnings (bin/nightly.sh's mark
# of a run lost with its host) makes it INCOMPLETE; otherwise
# summary.json's result (SUCCESS, FAILURE, or a later INCOMPLETE or
# SKIPPED); no summary.json: INCOMPLETE.  SUCCESS needs summary.json to
# say so and nothing against it.
include "lib" {search: "./"};

def lines_of: split("\n") | map(sub("\\s+$"; "")) | map(select(length > 0));

# The files a record links to, by key (relative to the results folder).
def file_keys:
	{"console.log": "console", "summary.json": "summary", "stats.jsonl": "stats",
	 "gp-latency.dat": "latency", "cmdline": "cmdline", "ConfigFragment": "config",
	 "console.log.diags": "diags", "Warnings": "warnings", "torture.log": "log",
	 "perf.jsonl": "perf", "output.txt": "output"};

# busted_type: a deliberately broken torture type's name.
def busted_type: test("(^|[-_])busted([-_]|$)");

# perf_figures: a perf program's JSON lines (perf.jsonl) as
# [{name: "TEST FLAVOR PARAM=V ... FIGURE", value: median}].
def perf_figures:
	[parse_lines("perf.jsonl") | .value // empty | select(.kind == "summary")
	 | ((.params // {}) | to_entries | map(select((.value | type) == "number" and .value != 0) | "\(.key)=\(.value)") | join(" ")) as $p
	 | .test as $t | .flavor as $f
	 | (.figures // {}) | to_entries[] | select(.value.median != null)
	 | {name: ("\($t) \($f) \($p) \(.key)" | gsub(" +"; " ")), value: .value.median}];

($summary | if test("\\S") then (try fromjson catch "bad") else null end) as $sum
| (if ($sum | type) == "object" then $sum else {} end) as $s0
| [$stats | parse_lines("\($dir)/stats.jsonl")] as $parsed
| [$parsed[] | select(.value) | .value] as $st
| ($diags | lines_of) as $dl
| ($warnings | lines_of) as $wl
| ($exitst | gsub("\\s"; "") | if test("^[0-9]+$") then tonumber else null end) as $xst
| [$dl[] | select(startswith("BUG:")) | sub("^BUG: *"; "") | sub("^\($run) "; "") | sub("^\($s0.scenario // "") "; "")] as $bugs
| [$wl[] | select(startswith("!!!")) | sub("^!!! *"; "")] as $runner
| [$wl[] | select(startswith("INCOMPLETE:")) | sub("^INCOMPLETE: *"; "")] as $lost
| [$dl[] | select(startswith("WARNING:")) | sub("^WARNING: *"; "") | sub("^\($run) "; "") | sub("^\($s0.scenario // "") "; "")] as $notes
| (if ($sum | type) == "object" then $sum else {} end) as $s
| ($s.result // null) as $result
| (if ($bugs + $runner | length) > 0 then "FAILURE"
   elif ($lost | length) > 0 then "INCOMPLETE"
   elif $result == "SUCCESS" and $xst != null and $xst != 0 then "FAILURE"
   elif $result != null then $result
   else "INCOMPLETE" end) as $verdict
| ($st | map(select(.final == true)) | last // ($st | last) // null) as $final
| $s + {
	run: $run, date: $date, when: $when,
	host: (if $host == "" then null else $host end),
	scenario: ($s.scenario // ($run | sub("\\.[0-9]+$"; ""))),
	pass: (if ($ARGS.named.pass // "") != "" then $ARGS.named.pass else ($s.suite // "rcutorture") end),
	series: ($run | sub("\\.[0-9]+$"; "")),
	expect: (if (($s.torture_type // $s.params.torture_type // "") | busted_type)
		    or (($s.scenario // $run) | test("^BUSTED")) then "FAILURE" else null end),
	expect_why: (if (($s.torture_type // $s.params.torture_type // "") | busted_type)
		     then "torture type \($s.torture_type // $s.params.torture_type) is deliberately broken"
		     elif (($s.scenario // $run) | test("^BUSTED")) then "scenario \($s.scenario // $run) must fail"
		     else null end),
	perf: (($ARGS.named.perf // "") | perf_figures),
	verdict: $verdict,
	why: (if $verdict == "SUCCESS" then []
	      else ($bugs + $runner + $lost
		    + (if ($bugs + $runner + $lost | length) == 0 and ($s.reason // "") != "" then [$s.reason] else [] end)
		    + (if $verdict == "FAILURE" and ($bugs + $runner | length) == 0 and $result == "SUCCESS"
		       then ["summary.json says SUCCESS, rcutorture exited \($xst)"] else [] end)
		    + (if $verdict == "INCOMPLETE" and $sum == null and ($lost | length) == 0 then ["no summary.json: the run did not get to its end"] else [] end)
		    + (if $sum == "bad" then ["summary.json is not valid JSON"] else [] end))
	      end),
	notes: $notes,
	exit_status: ($s.exit_status // $xst),
	timeline: ($st | stats_timeline),
	pipe: ($final.pipe // null), batch: ($final.batch // null), fbc: ($final.fbc // null),
	latency_kinds: ($kinds | sort_by(kind_order)),
	files: ([$present | split(" ")[] | select(length > 0) | {key: file_keys[.], value: "\($run)/\(.)"}] | from_entries),
	problems: ([$parsed[] | select(.problem) | .problem]
		   + (if $sum == "bad" then ["\($dir)/summary.json: not valid JSON: ignored"] else [] end)
		   + ($problems | lines_of))
  }
