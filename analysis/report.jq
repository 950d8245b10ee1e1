#!/usr/bin/env -S jq -s -r -f
# report.jq - a results folder's index.html from its run records: the
# verdict table (failures first), each failure's reasons and console
# excerpt, the plots, each run's parameters, links to the files.  Plain
# HTML and CSS: no JavaScript, no server, relative links only, so the
# folder can be opened, copied or archived as it is.  bin/report.sh
# passes the optional named arguments:
#
#   jq -s -r -f analysis/report.jq RESULTS/DATE/runs.jsonl \
#      --arg title T --arg testid "$(cat testid.txt)" \
#      --argjson plots '["plots/TREE01-latency-hist.png", ...]' \
#      --argjson excerpts '{"BUSTED": "console lines"}' \
#      --argjson hosts '["h1: 4 runs", ...]' --arg intro TEXT \
#      --argjson links '[{"href": "junit.xml", "text": "JUnit XML"}, ...]' \
#      --argjson compare "[compare.jq's lines]" \
#      --argjson passes "$(cat passes.json)" --argjson drift "$(cat drift.json)" \
#      --argjson sanitizer "$(cat sanitizer.json)"
#
# A run expected to fail (a busted torture type) that failed is not
# counted as failed: its row says "expected"; one that did not fail is.
# With bin/nightly.sh's passes (passes.json) the page has a section per
# pass (its runs, share of the duration, verdicts, trend plots); drift
# lists the figures beyond their spread over the last nights
# (analysis/drift.jq), sanitizer the sanitizer reports collapsed by
# stack (analysis/collapse.jq).
# Without them it still makes a page (no plots, no excerpts).
include "lib" {search: "./"};

($ARGS.named.plots // []) as $plots
| ($ARGS.named.compare // []) as $compare
| ($ARGS.named.excerpts // {}) as $excerpts
| ($ARGS.named.hosts // []) as $hosts
| ($ARGS.named.links // []) as $links
| ($ARGS.named.testid // "") as $testid
| (sort_by(verdict_rank, .run)) as $runs
| ($runs | map(select(is_red)) | length) as $nfailed
| ($runs | map(select(is_skipped)) | length) as $nskipped
| ($runs | map(select(is_expected_failure and (is_red | not) and (is_skipped | not))) | length) as $nxfail
| ($ARGS.named.passes // []) as $passes
| ($ARGS.named.drift // []) as $drift
| ($ARGS.named.sanitizer // []) as $sanitizer
| ($ARGS.named.title // "Torture results \($runs[0].date // "")") as $title

# h: text made safe for HTML.
| def h: tostring | @html;
# num: a count with thousands separators; "-" for null.
  def num:
	if type != "number" then "-"
	else (round | tostring) as $s
	| ($s | test("^-") ) as $neg
	| ($s | ltrimstr("-") | explode | reverse | [range(0; length; 3) as $i | .[$i:$i + 3]]
	   | map(reverse | implode) | reverse | join(",")) as $g
	| (if $neg then "-" else "" end) + $g end;
# us: a latency in microseconds, in the unit that reads best.
  def us:
	if type != "number" then "-"
	elif . >= 1000000 then "\(. / 10000 | round / 100) s"
	elif . >= 1000 then "\(. / 10 | round / 100) ms"
	else "\(.) us" end;
  def anchor: gsub("[^A-Za-z0-9_.-]"; "_");
  def plots_of($run): [$plots[] | select(startswith("plots/\($run)-"))];
  def link($href; $text): "<a href=\"\($href | @uri | gsub("%2F"; "/"))\">\($text | h)</a>";
  def file_links: (.files // {}) | to_entries | map(link(.value; (.value | split("/") | last))) | join(" · ");

"<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>\($title | h)</title>
<style>
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fff; max-width: 1100px; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f0f0f0; } td.l, th.l { text-align: left; }
tr.fail td.verdict { background: #f8d0d0; font-weight: bold; color: #900; }
tr.ok td.verdict { background: #d6f0d6; color: #060; }
tr.skip td.verdict { background: #eee; color: #555; }
tr.xfail td.verdict { background: #e0e8f8; color: #036; }
.banner { padding: 0.6em 1em; font-size: 1.2em; font-weight: bold; }
.banner.fail { background: #f8d0d0; color: #900; } .banner.ok { background: #d6f0d6; color: #060; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 0.5em; overflow-x: auto; font-size: 0.85em; }
section.failure { border-left: 4px solid #c00; padding-left: 1em; margin-bottom: 1.5em; }
img { max-width: 100%; height: auto; border: 1px solid #eee; margin: 0.3em 0; }
.small { font-size: 0.85em; color: #555; }
table.params td, table.params th { font-size: 0.85em; }
</style>
</head>
<body>
<h1>\($title | h)</h1>
<p class=\"banner \(if $nfailed > 0 then "fail" else "ok" end)\">\(
	if ($runs | length) == 0 then "No runs."
	elif $nfailed > 0 then "\($nfailed) of \($runs | length) runs failed."
	elif $nxfail > 0 then "All \($runs | length - $nskipped) runs ended as expected (\($nxfail) expected failure\(if $nxfail > 1 then "s" else "" end))."
	else "All \($runs | length - $nskipped) runs succeeded." end)\(
	if $nskipped > 0 then " \($nskipped) skipped." else "" end)</p>
\(if ($ARGS.named.intro // "") != "" then "<p>\($ARGS.named.intro | h)</p>" else "" end)
\(if $testid != "" then "<p class=\"small\">Tree: <code>\($testid | split("\n") | map(select(length > 0)) | .[0:6] | join(" ") | h)</code></p>" else "" end)
\(if ($links | length) > 0 then "<p>" + ($links | map(link(.href; .text)) | join(" · ")) + "</p>" else "" end)
\([$runs[] | .problems // [] | .[]] | if length > 0 then "<h2 id=\"problems\">Malformed input (skipped)</h2>\n<ul class=\"small\">" + (map("<li>\(h)</li>") | join("")) + "</ul>" else "" end)
\(if ($passes | length) > 0 then "<h2 id=\"passes\">Passes</h2>
<table class=\"passes\"><thead><tr><th class=\"l\">pass</th><th>runs</th><th>red</th><th>expected failures</th><th>share of the duration</th><th>each run</th><th class=\"l\">result</th></tr></thead><tbody>
" + ($passes | map(. as $p | [$runs[] | select((.pass // "rcutorture") == $p.pass)] as $pr
	| ($pr | map(select(is_red)) | length) as $red
	| "<tr><td class=\"l\"><a href=\"#pass-\($p.pass | anchor)\">\($p.pass | h)</a></td><td>\($p.runs // ($pr | length))</td><td>\($red)</td><td>\($pr | map(select(is_expected_failure)) | length)</td><td>\(if $p.share_s then "\($p.share_s) s" else "-" end)</td><td>\(if $p.run_s then "\($p.run_s) s" else "-" end)</td><td class=\"l\">\(if $p.kind == "here" then "see the TAP summary" elif $red > 0 then "\($red) red" else "green" end)</td></tr>") | join("\n"))
+ "</tbody></table>\n"
+ ($passes | map(. as $p | [$runs[] | select((.pass // "rcutorture") == $p.pass)] as $pr
	| "<section class=\"pass\" id=\"pass-\($p.pass | anchor)\"><h3>Pass \($p.pass | h)</h3>\n"
	+ (if $p.kind == "here" then "<p>Run on this machine after the runs; its verdict is a test of the TAP summary.</p>"
	   else "<p>" + ($pr | map("<a href=\"#row-\(.run | anchor)\">\(.run | h)</a> \(verdict | h)\(if is_expected_failure then " (expected FAILURE)" else "" end)") | join(" · ")) + "</p>" end)
	+ ([$plots[] | select(if $p.pass == "rcutorture" then (startswith("plots/trend-") and (test("^plots/trend-(" + ($passes | map(.pass) | join("|")) + ")-") | not)) else startswith("plots/trend-\($p.pass)-") end)]
	   | map("<p><img src=\"\(.)\" alt=\"trend \(ltrimstr("plots/trend-") | rtrimstr(".png"))\" width=\"900\" height=\"500\"></p>") | join("\n"))
	+ "</section>") | join("\n")) else "" end)
\(if ($drift | length) > 0 then "<h2 id=\"drift\">Figures beyond their spread</h2>
<p>Tonight's value more than three spreads (standard deviation, at least 2% of the mean) from the mean of the last nights.</p>
<table class=\"drift\"><thead><tr><th class=\"l\">pass</th><th class=\"l\">series</th><th class=\"l\">figure</th><th>tonight</th><th>mean</th><th>sd</th><th>nights</th><th class=\"l\">band</th><th class=\"l\">moved</th></tr></thead><tbody>
" + ($drift | map("<tr><td class=\"l\">\(.pass | h)</td><td class=\"l\">\(.series | h)</td><td class=\"l\">\(.figure | h)</td><td>\(.value)</td><td>\(.mean)</td><td>\(.sd)</td><td>\(.nights)</td><td class=\"l\">\(.low) – \(.high)</td><td class=\"l\">\(.direction | h)</td></tr>") | join("\n")) + "</tbody></table>" else "" end)
\(if ($sanitizer | length) > 0 then "<h2 id=\"sanitizer\">Sanitizer reports, collapsed by stack</h2>
<table class=\"sanitizer\"><thead><tr><th>count</th><th class=\"l\">report</th><th class=\"l\">stack</th><th class=\"l\">runs</th></tr></thead><tbody>
" + ($sanitizer | map("<tr><td>\(.count)</td><td class=\"l\">\(.summary | h)</td><td class=\"l\"><code>\(.frames | join(" ") | h)</code></td><td class=\"l\">\(.runs | map("<a href=\"#row-\(anchor)\">\(h)</a>") | join(" "))</td></tr>") | join("\n")) + "</tbody></table>" else "" end)
<h2 id=\"verdicts\">Verdicts</h2>
<table class=\"verdicts\">
<thead><tr><th class=\"l\">run</th><th class=\"l\">type</th><th class=\"l\">result</th><th>grace periods</th><th>per second</th><th>reads per second</th><th>errors</th><th>latency p50</th><th>latency p99</th><th>seconds</th><th class=\"l\">files</th></tr></thead>
<tbody>
\($runs | map(totals as $t | "<tr class=\"\(if is_red then "fail" elif is_skipped then "skip" elif is_expected_failure then "xfail" else "ok" end)\" id=\"row-\(.run | anchor)\"><td class=\"l\"><a href=\"#run-\(.run | anchor)\">\(.run | h)</a>\(if .host then " <span class=\"small\">(\(.host | h))</span>" else "" end)\(if is_expected_failure then " <span class=\"small\">expected to fail</span>" else "" end)</td><td class=\"l\">\(.torture_type // "-" | h)</td><td class=\"l verdict\">\(verdict | h)</td><td>\($t.gps | num)\(if $t.gps != null and ($t.gps_counted | not) then "*" else "" end)</td><td>\($t.gps_per_s // "-")</td><td>\($t.reads_per_s | num)</td><td>\($t.errors | num)</td><td>\($t.latency_p50_us | us)</td><td>\($t.latency_p99_us | us)</td><td>\(.duration_s // "-")</td><td class=\"l\">\(if .files.console then link(.files.console; "console.log") else "no console.log" end)</td></tr>") | join("\n"))
</tbody>
</table>
<p class=\"small\">* the type cannot count grace periods: the writer's updates (ver), as the kernel's scripts count them.  Latency: grace periods waited for by the writer and fake writers.</p>
\(if ($runs | map(select(is_failed)) | length) > 0 then "<h2 id=\"failures\">Failures</h2>\n" + ($runs | map(select(is_failed) | "<section class=\"failure\" id=\"fail-\(.run | anchor)\">
<h3>\(.run | h): \(verdict | h)\(if is_expected_failure and (is_red | not) then " (expected: the torture type is deliberately broken)" else "" end)</h3>
<ul>\((.why // []) | map("<li>\(h)</li>") | join(""))</ul>
\(if $excerpts[.run] then "<pre class=\"excerpt\">\($excerpts[.run] | h)</pre>" else "" end)
<p class=\"small\">\(file_links)</p>
</section>") | join("\n")) else "" end)
<h2 id=\"plots\">Plots</h2>
\(if ($plots | length) == 0 then "<p>No plots: run <code>bin/plot.sh</code> (needs gnuplot, Debian package gnuplot-nox).</p>" else "" end)
\([$plots[] | select(startswith("plots/latency-cdf."))] | map("<p><img src=\"\(.)\" alt=\"grace-period latency of every run\" width=\"800\" height=\"500\"></p>") | join("\n"))
\([$plots[] | select(startswith("plots/trend-"))] | if length > 0 then "<h3 id=\"trends\">Trends across dates</h3>\n" + (map("<p><img src=\"\(.)\" alt=\"trend \(ltrimstr("plots/trend-") | rtrimstr(".png"))\" width=\"900\" height=\"500\"></p>") | join("\n")) else "" end)
\($runs | map(. as $r | "<section class=\"run\" id=\"run-\(.run | anchor)\">
<h3>\(.run | h) <span class=\"small\">\(verdict | h)\(if .notes and (.notes | length) > 0 then "; " + (.notes | join("; ") | h) else "" end)</span></h3>
\(plots_of(.run) | map("<p><img src=\"\(.)\" alt=\"\($r.run | h) \(ltrimstr("plots/\($r.run)-") | rtrimstr(".png"))\" width=\"800\" height=\"\(if test("-timeline") then 700 else 500 end)\"> <a class=\"small\" href=\"\(rtrimstr(".png")).svg\">SVG</a></p>") | join("\n"))
</section>") | join("\n"))
\(if ($compare | length) > 0 then "<h2 id=\"compare\">Comparison with the other RCUs (liburcu, ck, DPDK)</h2>
<table class=\"compare\"><thead><tr><th class=\"l\">metric</th><th class=\"l\">ours</th><th class=\"l\">other</th><th>ours median</th><th>other median</th><th>ratio ours/other</th><th>over the runs</th><th class=\"l\">better</th></tr></thead><tbody>
" + ($compare | map(. as $m | .pairs[] | . as $p
	| ($m.results[] | select(.flavor == $p.ours)) as $o | ($m.results[] | select(.flavor == $p.other)) as $l
	| "<tr><td class=\"l\">\($m.label | h)</td><td class=\"l\">\($p.ours | h)</td><td class=\"l\">\($p.other | h)</td><td>\($o.median) \($m.unit | h)</td><td>\($l.median) \($m.unit | h)</td><td>\($p.ratio)</td><td>\($p.ratio_low) – \($p.ratio_high)</td><td class=\"l\">\($m.better | h)</td></tr>") | join("\n"))
+ "</tbody></table>\n" + ([$plots[] | select(startswith("plots/compare-"))] | map("<p><img src=\"\(.)\" alt=\"\(ltrimstr("plots/") | rtrimstr(".png"))\" width=\"800\" height=\"500\"></p>") | join("\n")) else "" end)
<h2 id=\"parameters\">Parameters</h2>
\($runs | map("<details><summary>\(.run | h): \(.torture_type // "?" | h), seed \(.seed // "?"), \(.duration_s // "?") s</summary>
\(if .params then "<table class=\"params\"><tbody>" + (.params | to_entries | map("<tr><th class=\"l\">\(.key | h)</th><td class=\"l\">\(.value | h)</td></tr>") | join("")) + "</tbody></table>" else "<p>No summary.json.</p>" end)
<p class=\"small\">\(file_links)</p>
</details>") | join("\n"))
\(if ($hosts | length) > 0 then "<h2 id=\"hosts\">Hosts</h2>\n<ul>" + ($hosts | map("<li>\(h)</li>") | join("")) + "</ul>" else "" end)
</body>
</html>"
