# compare.gp - one metric of a compare.json as a bar chart: one bar per
# flavor (ours blue, liburcu orange, ck green, DPDK red) at its median over the repeated
# runs, error bars from the smallest to the largest run, the median
# printed above.
#
#   gnuplot -c analysis/compare.gp DATAFILE "OUT.png [OUT.svg]" "TITLE" "YLABEL"
#
# DATAFILE: rows "index flavor impl median min max" (compare.jq's
# results of one metric, as a table).
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
outs = ARG2
title = ARGC >= 3 ? ARG3 : ""
ylabel = ARGC >= 4 ? ARG4 : ""

stats data using 1 nooutput
set xrange [-0.6:STATS_max + 0.6]
set yrange [0:*]
set title title noenhanced
set ylabel ylabel noenhanced
set boxwidth 0.6
set xtics nomirror noenhanced
set grid noxtics
set key top right
impl_color(s) = s eq "ours" ? 0x1f77b4 : s eq "ck" ? 0x2ca02c : s eq "dpdk" ? 0xd62728 : 0xff7f0e
do for [o in outs] {
	eval output_cmd(o, 800, 500)
	plot data using 1:4:(impl_color(strcol(3))):xtic(2) with boxes lc rgb variable notitle, \
	     data using 1:4:5:6 with yerrorbars lc rgb "black" pt -1 lw 1.5 notitle, \
	     data using 1:6:(sprintf("%.3g", $4)) with labels offset 0, 0.8 notitle, \
	     keyentry with boxes lc rgb impl_color("ours") title "ours", \
	     keyentry with boxes lc rgb impl_color("liburcu") title "liburcu", \
	     keyentry with boxes lc rgb impl_color("ck") title "ck", \
	     keyentry with boxes lc rgb impl_color("dpdk") title "DPDK"
	unset output
}
