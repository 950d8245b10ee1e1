# latency-hist.gp - histogram of grace-period latency per kind, on a log
# scale (10 bins per decade), from a run's gp-latency.dat.
#
#   gnuplot -c analysis/latency-hist.gp DATAFILE "OUT.png [OUT.svg]" ["sync poll ..."] ["TITLE"]
#
# KINDS: the kinds to draw (default: all six); TITLE: the plot's title.
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
outs = ARG2
kinds = ARGC >= 3 && ARG3 ne "" ? ARG3 : "sync exp cond poll async barrier"
title = ARGC >= 4 ? ARG4 : ""

stats data using (log10(nz($3))) nooutput
lo = floor(STATS_min)
hi = ceil(STATS_max) > lo ? ceil(STATS_max) : lo + 1
set title title noenhanced
set xrange [lo:hi]
set xtics ()
eval us_tics("x", lo, hi, 1)
set xlabel "grace-period latency (log scale)"
set ylabel "grace periods per bin (10 bins a decade)"
set yrange [0:*]
set key top right
do for [o in outs] {
	eval output_cmd(o, 800, 500)
	plot for [k in kinds] data using (strcol(2) eq k ? log10(nz($3)) : NaN):(1) \
		bins = (hi - lo) * 10 binrange [lo:hi] with steps lw 2 lc rgb kind_color(k) title k
	unset output
}
