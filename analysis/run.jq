# analysis/run.jq - one run record from a scenario folder's files: the
# line of RESULTS/DATE/runs.jsonl that every other filter, plot and the
# report read.  bin/lib/analysis.sh (analysis_record) calls it:
#
#   jq -n -c -f analysis/run.jq --arg dir RESULTS/DATE/TREE01 --arg run TREE01 \
#      --arg date DATE --arg when YYYY.MM.DD-HH.MM.SS --arg host HOST \
#      --rawfile summary .../summary.json --rawfile stats .../stats.jsonl \
#      --rawfile diags .../console.log.diags --rawfile warnings .../Warnings \
#      --rawfile exitst .../exit_status --argjson kinds '["sync",...]' \
#      --arg present "console.log summary.json ..." --rawfile problems FILE
#
# (a missing file is passed as /dev/null; present lists the folder's
# files; problems holds the malformed-input messages found elsewhere, one
# a line).  The record is summary.json's
# object plus: run, date, when (the date as YYYY.MM.DD-HH.MM.SS), host,
# verdict, why (reasons for a failed verdict), notes, timeline
# (stats_timeline), pipe, batch, fbc (the final stats line),
# latency_kinds, files, problems (malformed input, each "FILE:LINE: ...").
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
	 "console.log.diags": "diags", "Warnings": "warnings", "torture.log": "log"};

($summary | if test("\\S") then (try fromjson catch "bad") else null end) as $sum
| [$stats | parse_lines("\($dir)/stats.jsonl")] as $parsed
| [$parsed[] | select(.value) | .value] as $st
| ($diags | lines_of) as $dl
| ($warnings | lines_of) as $wl
| ($exitst | gsub("\\s"; "") | if test("^[0-9]+$") then tonumber else null end) as $xst
| [$dl[] | select(startswith("BUG:")) | sub("^BUG: *"; "") | sub("^\($run) "; "")] as $bugs
| [$wl[] | select(startswith("!!!")) | sub("^!!! *"; "")] as $runner
| [$wl[] | select(startswith("INCOMPLETE:")) | sub("^INCOMPLETE: *"; "")] as $lost
| [$dl[] | select(startswith("WARNING:")) | sub("^WARNING: *"; "") | sub("^\($run) "; "")] as $notes
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
