# latency-cdf.gp - cumulative distribution of grace-period latency per
# kind (log x), from a run's gp-latency.dat: the fraction of grace
# periods that took at most x us.
#
#   gnuplot -c analysis/latency-cdf.gp DATAFILE "OUT.png [OUT.svg]" ["sync poll ..."] ["TITLE"]
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
outs = ARG2
kinds = ARGC >= 3 && ARG3 ne "" ? ARG3 : "sync exp cond poll async barrier"
title = ARGC >= 4 ? ARG4 : ""

set title title noenhanced
set logscale x
set xtics ()
eval us_tics("x", -1, 8, 0)
set xlabel "grace-period latency"
set ylabel "fraction of grace periods"
set yrange [0:1.02]
set ytics (0, 0.25, 0.5, 0.75, 0.9, 0.99)
set key bottom right
do for [o in outs] {
	eval output_cmd(o, 800, 500)
	plot for [k in kinds] of_kind(data, k) using (nz($3)):(1) \
		smooth cnormal with lines lw 2 lc rgb kind_color(k) title k
	unset output
}
