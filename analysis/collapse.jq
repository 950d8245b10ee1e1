#!/usr/bin/env -S jq -R -s -c -f
# collapse.jq - sanitizer reports collapsed by stack: analysis/collapse.awk's
# lines (FILE, KIND, SUMMARY, STACK, tab-separated) in, one JSON array
# out, one entry per distinct kind and stack (a report without a stack,
# as UBSan's one line: per kind and summary), most frequent first:
#   {kind, summary, frames: [the stacks' function names, "|" between the
#    two stacks], count, runs: [the runs it came from, each once]}
# (a run is the folder its console.log is in).
#
#   awk -f analysis/collapse.awk RESULTS/DATE/*/console.log | analysis/collapse.jq
[split("\n")[] | select(length > 0) | split("\t")
 | {run: (.[0] | split("/") | if length >= 2 then .[-2] else .[0] end),
    kind: .[1], summary: .[2], stack: (.[3] // "")}]
| group_by([.kind, .stack, (if .stack == "" then .summary else "" end)])
| map({kind: .[0].kind, summary: .[0].summary,
       frames: (.[0].stack | split(" ") | map(select(. != "<"))),
       count: length, runs: (map(.run) | unique)})
| sort_by(-.count, .kind, .summary)
