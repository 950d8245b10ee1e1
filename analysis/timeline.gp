# timeline.gp - a run over time: grace-period latency of every grace
# period (top, log y, one colour per kind, from gp-latency.dat) and the
# rates over each stats interval (bottom): RATESFILE has rows
# "t gps_per_s ver_per_s reads_per_s" (rates.jq's figures), each rate
# holding over the interval that ends at t; a first row at t = 0 starts
# the first interval.
#
#   gnuplot -c analysis/timeline.gp LATENCYFILE RATESFILE "OUT.png [OUT.svg]" ["sync ..."] ["TITLE"]
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

lat = ARG1
rates = ARG2
outs = ARG3
kinds = ARGC >= 4 && ARG4 ne "" ? ARG4 : "sync exp cond poll async barrier"
title = ARGC >= 5 ? ARG5 : ""

# Both panels span the run: to the last stats line or grace period.
stats rates using 1 nooutput
tmax = STATS_max
stats lat using 1 nooutput
tmax = STATS_max > tmax ? STATS_max : tmax
set xrange [0:tmax]
do for [o in outs] {
	eval output_cmd(o, 800, 700)
	set multiplot layout 2, 1 title title noenhanced
	set logscale y
	set ytics ()
	eval us_tics("y", -1, 8, 0)
	set xlabel "time (s)"
	set ylabel "grace-period latency"
	unset y2tics
	plot for [k in kinds] lat using 1:(strcol(2) eq k ? nz($3) : NaN) \
		with points pt 7 ps 0.3 lc rgb kind_color(k) title k
	unset logscale y
	set ytics autofreq
	set yrange [0:*]
	set y2range [0:*]
	set ylabel "grace periods (writer updates) per second"
	set y2label "reader iterations per second"
	set ytics nomirror
	set y2tics
	plot rates using 1:2 with fsteps lw 2 lc rgb 0x1f77b4 title "grace periods/s", \
	     rates using 1:3 with fsteps lw 2 lc rgb 0x2ca02c title "writer updates (ver)/s", \
	     rates using 1:4 axes x1y2 with fsteps lw 2 dt 2 lc rgb 0xff7f0e title "reads/s (right)"
	unset multiplot
	unset output
	unset y2tics
	unset y2label
	set autoscale y
	set ytics mirror
}
