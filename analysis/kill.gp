# kill.gp - bin/mutation.sh's kill table as bars: per deliberate bug, the
# share of runs (all scenarios) that caught it; must-catch bugs in blue,
# measured-only ones in grey, the unmodified build ("none": false alarms)
# in red.
#
#   gnuplot -c analysis/kill.gp DATAFILE "OUT.png [OUT.svg]"
#
# DATAFILE rows: "bug pct kind" (kind 0 must-catch, 1 measured, 2 none).
lastslash(s, i) = i < 1 ? 0 : s[i:i] eq "/" ? i : lastslash(s, i - 1)
gpdir = ARG0[1:lastslash(ARG0, strlen(ARG0))]
load gpdir.'common.gp'

data = ARG1
outs = ARG2
set style fill solid 0.8 border -1
set boxwidth 0.7
set yrange [0:105]
set ylabel "runs that caught it (%)"
set xtics rotate by -40 left noenhanced
set key off
set bmargin 9
do for [o in outs] {
	eval output_cmd(o, 1000, 520)
	plot data using 0:2:($3 == 0 ? 0x3366cc : $3 == 1 ? 0x999999 : 0xcc3333):xtic(1) \
		with boxes lc rgb variable
	unset output
}
