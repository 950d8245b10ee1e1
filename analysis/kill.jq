# kill.jq - bin/mutation.sh's kill table (kill.json, one object per bug
# and scenario) folded per bug: runs and kills over all scenarios, the
# fastest median, and whether a must-catch bug survived a round.
#   jq -s -f analysis/kill.jq RESULTS/mutation-DATE/kill.json
# Output: one object per bug (in table order):
#   {bug, class, must, runs, caught, pct, median_s, scenarios, best}
# where best is the scenario with the most kills (ties: fastest).
def fold:
  group_by(.bug) as $groups
  | [ .[] | .bug ] as $order
  | [ $groups[]
      | { bug: .[0].bug, class: .[0].class, must: .[0].must,
          runs: (map(.runs) | add), caught: (map(.caught) | add),
          median_s: (map(.median_s // empty) | min),
          scenarios: (map(.scenario) | join(" ")),
          best: (sort_by([-.caught, (.median_s // 1e9)]) | .[0].scenario) }
      | .pct = (if .runs > 0 then (100 * .caught / .runs) else 0 end) ]
  | sort_by(.bug as $b | $order | index($b));
fold[]
