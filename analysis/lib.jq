# analysis/lib.jq - definitions shared by the jq filters of analysis/.
# Included with `include "lib" {search: "./"};` (the including file's
# folder), so the filters run from any working directory.
#
# The filters accept either a run's summary.json (torture/INTERFACE.md) or
# a run record (a line of RESULTS/DATE/runs.jsonl, written by
# bin/lib/analysis.sh: summary.json's keys plus run, date, verdict, why,
# timeline, pipe, batch ...; see analysis/README.md).

# verdict: the run's judged result.  A record carries the judge's verdict;
# a bare summary.json its own result; a run without either is INCOMPLETE
# (it never got to its end line), never SUCCESS.
def verdict: .verdict // .result // "INCOMPLETE";

# Any result other than SUCCESS and SKIPPED is a failure (FAILURE,
# INCOMPLETE, or whatever a later judge adds).
def is_success: verdict == "SUCCESS";
def is_skipped: verdict == "SKIPPED";
def is_failed: (is_success or is_skipped) | not;

# is_expected_failure: the run is meant to fail (its record's expect,
# analysis/run.jq: a deliberately broken torture type or a BUSTED*
# scenario); is_red: the run makes a night red: an expected failure that
# did not end in FAILURE (a SUCCESS means the tester is broken; an
# INCOMPLETE proves nothing), any other failed run.
def is_expected_failure: .expect == "FAILURE";
def is_red:
	if is_expected_failure then verdict != "FAILURE" and (is_skipped | not)
	else is_failed end;

# verdict_rank: sort key putting failures first (FAILURE, then the other
# failed verdicts), then successes, then skipped runs.
def verdict_rank:
	if verdict == "FAILURE" then 0
	elif is_failed then 1
	elif is_success then 2
	else 3 end;

# run_name: the run's folder name (TREE01, TREE01.2); for a bare
# summary.json, the folder the file is in.
def run_name:
	.run // ((input_filename // "") | split("/") | if length >= 2 then .[-2] else .scenario end)
	// .scenario;

# date_name: the results folder (RESULTS/DATE) the run belongs to.
def date_name:
	.date // ((input_filename // "") | split("/") | if length >= 3 then .[-3] else null end);

# grace_periods: grace periods completed, or the writer's updates (ver)
# for the types that cannot count grace periods (gps null), as the
# kernel's scripts count them.
def grace_periods: .gps // .ver;

# per_second(X): X per second of the run, null when unknown.
def per_second(x):
	if (.duration_s // 0) > 0 and (x | type) == "number" then x / .duration_s else null end;

# error_total: the sum of the error counters.
def error_total: [(.errors // {})[] | numbers] | add // 0;

# nonzero_errors: the error counters that are not zero.
def nonzero_errors: (.errors // {}) | with_entries(select(.value != 0 and .value != null));

# pct(P): of a sorted array, the value at index round(P * (n - 1)), as
# torture/output.c computes summary.json's latency_us (so the two agree).
def pct(p):
	if length == 0 then null else .[(p * (length - 1) + 0.5) | floor] end;

# latency_figures: of an array of latencies (any order), the figures of
# summary.json's latency_us object.
def latency_figures:
	sort as $s
	| ($s | length) as $n
	| {count: $n, min: $s[0], p50: ($s | pct(0.5)), p90: ($s | pct(0.9)),
	   p99: ($s | pct(0.99)), max: $s[-1],
	   mean: (if $n > 0 then (($s | add) / $n * 10 | round / 10) else null end)};

# kind_order: the grace-period kinds of gp-latency.dat in display order.
def kind_order: . as $k | ["sync", "exp", "cond", "poll", "async", "barrier"] | index($k) // 99;

# round_to(N): a number rounded to N decimals (null stays null).
def round_to(n):
	if type == "number" then (. * pow(10; n) | round) / pow(10; n) else . end;

# parse_lines(NAME): a text (a file's contents) as JSON lines: each
# non-blank line parsed, tagged with its number; a malformed line gives
# {"problem": "NAME:LINE: ..."} instead, so the rest is still used.
def parse_lines(name):
	split("\n") | to_entries[]
	| select(.value | test("\\S"))
	| (.key + 1) as $line
	| .value as $text
	| (try ($text | fromjson) catch null) as $v
	| if ($v | type) == "object" then {line: $line, value: $v}
	  else {problem: "\(name):\($line): malformed JSON line (\($text | .[0:60])\(if ($text | length) > 60 then "..." else "" end)): skipped"}
	  end;

# stats_timeline: stats.jsonl objects (in order) -> one point per line:
# t, ver, gps, reads, errors, close_calls and the rates over the interval
# since the previous line (the first from the start of the run).
def stats_timeline:
	[foreach .[] as $s ({prev: {t: 0, gps: 0, ver: 0, reads: 0}};
		.cur = $s
		| (($s.t // 0) - (.prev.t // 0)) as $dt
		| .point = {
			t: $s.t, ver: $s.ver, gps: $s.gps, reads: $s.reads,
			errors: $s.errors, close_calls: $s.close_calls, final: ($s.final // false),
			gps_per_s: (if $dt > 0 and ($s.gps | type) == "number" then (($s.gps - (.prev.gps // 0)) / $dt | round_to(2)) else null end),
			ver_per_s: (if $dt > 0 and ($s.ver | type) == "number" then (($s.ver - (.prev.ver // 0)) / $dt | round_to(2)) else null end),
			reads_per_s: (if $dt > 0 and ($s.reads | type) == "number" then (($s.reads - (.prev.reads // 0)) / $dt | round) else null end)}
		| .prev = $s;
		.point)];

# histogram_rows: a stats object's Reader Pipe and Batch (and Free-Block
# Circulation) histograms as rows {index, pipe, batch, fbc}.
def histogram_rows:
	. as $s | [range(0; 11) | {index: ., pipe: ($s.pipe[.] // null), batch: ($s.batch[.] // null), fbc: ($s.fbc[.] // null)}];

# totals: one row of figures for a run (summary.json or record).
def totals:
	{run: run_name, date: date_name, scenario, torture_type, result: verdict,
	 gps: grace_periods, gps_counted: (.gps != null), ver, reads,
	 duration_s,
	 gps_per_s: (per_second(grace_periods) | round_to(1)),
	 reads_per_s: (per_second(.reads) | round_to(0)),
	 errors: error_total, close_calls, stalls,
	 latency_p50_us: .latency_us.p50, latency_p99_us: .latency_us.p99,
	 latency_count: .latency_us.count};

# The figures that roll-ups and trends follow, in display order, with a
# label and unit each.
def figures:
	[{key: "gps_per_s", label: "grace periods per second", unit: "/s"},
	 {key: "reads_per_s", label: "reader iterations per second", unit: "/s"},
	 {key: "latency_p50_us", label: "grace-period latency p50", unit: "us"},
	 {key: "latency_p99_us", label: "grace-period latency p99", unit: "us"},
	 {key: "errors", label: "errors", unit: ""},
	 {key: "close_calls", label: "Reader Batch close calls", unit: ""}];

# mean_of(F): the mean of the numbers F gives over an array, or null.
def mean_of(f): [.[] | f | numbers] | if length > 0 then add / length else null end;
