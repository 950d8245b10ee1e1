# latency-cdf-all.gp - the grace-period latency distributions of several
# runs on one plot (all kinds together, log x): one line per run.
#
#   gnuplot -c analysis/latency-cdf-all.gp "FILE..." "NAME..." "OUT.png [OUT.svg]" ["TITLE"]
#
# FILE: each run's gp-latency.dat, NAME: its label (same order).
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

files = ARG1
names = ARG2
outs = ARG3
title = ARGC >= 4 ? ARG4 : ""

set title title noenhanced
set logscale x
set xtics ()
eval us_tics("x", -1, 8, 0)
set xlabel "grace-period latency"
set ylabel "fraction of grace periods"
set yrange [0:1.02]
set ytics (0, 0.25, 0.5, 0.75, 0.9, 0.99)
set key bottom right noenhanced
do for [o in outs] {
	eval output_cmd(o, 800, 500)
	plot for [i = 1:words(files)] word(files, i) using (nz($3)):(1) \
		smooth cnormal with lines lw 2 title word(names, i)
	unset output
}
