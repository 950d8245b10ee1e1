# histograms.gp - a run's Reader Pipe and Reader Batch histograms (the
# kernel prints them as text only), log y.  Reader Pipe entries past
# index 1 are errors (a grace period too short) and drawn red; Reader
# Batch entries past index 1 are close calls.
#
#   gnuplot -c analysis/histograms.gp DATAFILE "OUT.png [OUT.svg]" ["TITLE"]
#
# DATAFILE: "index pipe batch" rows (histograms.jq's lines, as a table).
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
outs = ARG2
title = ARGC >= 3 ? ARG3 : ""

pos(y) = y > 0 ? y : NaN
set logscale y
set format y "10^{%L}"
set yrange [0.5:*]
set xrange [-0.6:10.6]
set xtics 1
set boxwidth 0.7
unset key
do for [o in outs] {
	eval output_cmd(o, 800, 500)
	set multiplot layout 1, 2 title title noenhanced
	set title "Reader Pipe (index >= 2: errors)"
	set xlabel "grace periods the element aged during the read"
	plot data using 1:(pos($2)):($1 >= 2 ? 0xd62728 : 0x1f77b4) with boxes lc rgb variable
	set title "Reader Batch (index >= 2: close calls)"
	set xlabel "grace periods that started during the read"
	plot data using 1:(pos($3)):($1 >= 2 ? 0xff7f0e : 0x2ca02c) with boxes lc rgb variable
	unset multiplot
	unset output
}
