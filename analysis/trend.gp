# trend.gp - one figure across dates (nightly trend lines): one line per
# scenario.
#
#   gnuplot -c analysis/trend.gp DATAFILE "NAME..." "OUT.png [OUT.svg]" "YLABEL" [log]
#
# DATAFILE: one block per scenario (same order as NAME), blocks separated
# by two blank lines, rows "YYYY.MM.DD-HH.MM.SS value".  "log": log y.
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
names = ARG2
outs = ARG3
ylabel = ARG4
if (ARGC >= 5 && ARG5 eq "log") { set logscale y }

set xdata time
set timefmt "%Y.%m.%d-%H.%M.%S"
set format x "%m-%d\n%H:%M"
set xlabel "date"
set ylabel ylabel noenhanced
set key outside right top noenhanced
if (ARGC < 5 || ARG5 ne "log") { set yrange [0:*] }
do for [o in outs] {
	eval output_cmd(o, 900, 500)
	plot for [i = 1:words(names)] data index (i - 1) using 1:2 with linespoints lw 2 pt 7 title word(names, i)
	unset output
}
