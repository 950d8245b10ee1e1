# kill-html.jq - bin/mutation.sh's kill table as a plain HTML page (no
# JavaScript), with the bar chart when there is one.
#   jq -s -r -f analysis/kill-html.jq --arg title T --arg plot PNG|"" kill.json
def esc: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;") | gsub("\""; "&quot;");
def row:
  (if .bug == "none" then (if .caught > 0 then "bad" else "ok" end)
   elif .must == "yes" then (if .caught == .runs then "ok" elif .caught > 0 then "partial" else "bad" end)
   else "measured" end) as $cls
  | "<tr class=\"\($cls)\"><td>\(.bug | esc)</td><td>\(.class | esc)</td><td>\(.must | esc)</td>"
    + "<td>\(.scenario | esc)</td><td>\(.caught)/\(.runs)</td>"
    + "<td>\(if .median_s == null then "-" else (.median_s | tostring) end)</td>"
    + "<td>\(if .class == "liveness" then "\(.hang_reported) (\(.holdout_named // 0))" else "-" end)</td>"
    + "<td>\(.reason | esc)</td></tr>";
"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>\($title | esc)</title>"
+ "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
+ "td,th{border:1px solid #bbb;padding:3px 8px;text-align:left;vertical-align:top}"
+ "tr.ok td{background:#e8f5e9}tr.bad td{background:#ffebee}tr.partial td{background:#fff8e1}"
+ "tr.measured td{background:#f3f3f3}</style></head><body>\n"
+ "<h1>\($title | esc)</h1>\n"
+ "<p>Each deliberate bug of a <code>make INJECT=1</code> build, run on each scenario with "
+ "<code>stop_on_error</code>; <em>none</em> is the unmodified build (false alarms).</p>\n"
+ (if $plot != "" then "<p><img src=\"\($plot | esc)\" alt=\"share of runs that caught each bug\"></p>\n" else "" end)
+ "<table>\n<tr><th>bug</th><th>class</th><th>must</th><th>scenario</th><th>caught</th>"
+ "<th>median s</th><th>hang reported (holdout named)</th><th>reason</th></tr>\n"
+ (map(row) | join("\n")) + "\n</table>\n</body></html>"
