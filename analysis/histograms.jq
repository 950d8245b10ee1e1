#!/usr/bin/env -S jq -R -s -c -f
# histograms.jq - a run's Reader Pipe, Reader Batch and Free-Block
# Circulation histograms (the last stats line, the final one when
# present), one line per index 0..10, and one line of totals: reads,
# pipe_errors (Reader Pipe entries past index 1: a grace period too
# short), close_calls (Reader Batch entries past index 1).  Malformed lines:
# {"problem": "FILE:LINE: ..."}, skipped.
#
#   analysis/histograms.jq results/DATE/TREE01/stats.jsonl
include "lib" {search: "./"};

[parse_lines(input_filename // "stdin")] as $p
| [$p[] | select(.value) | .value] as $s
| ($s | map(select(.final == true)) | last // ($s | last)) as $last
| ($p[] | select(.problem)),
  (if $last == null then empty
   else ($last | histogram_rows[]),
	{reads: ($last.pipe // [] | add), pipe_errors: ($last.pipe // [] | .[2:] | add // 0),
	 close_calls: ($last.batch // [] | .[2:] | add // 0), final: ($last.final // false), t: $last.t}
   end)
