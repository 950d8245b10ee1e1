# analysis/common.gp - loaded by the other gnuplot scripts of analysis/:
#   load gpdir.'common.gp'   (gpdir: the scripts' folder, from ARG0)
# Defines:
#   outputs(W, H, FILES)  a command setting the terminal and output for
#                         each file in turn is made by output_cmd(o, W, H):
#                         .svg -> svg, anything else -> PNG (pngcairo when
#                         the gnuplot build has it, else png), W x H pixels
#   nz(x)                 latency for a log axis: x, or 0.5 for 0 us
#   of_kind(FILE, KIND)   the lines of a gp-latency.dat of one kind (a
#                         "< awk" source: "smooth cnormal" cannot skip
#                         the others); FILE must not contain a quote
#   us_tics(AXIS, LO, HI, LOG10)  a command labelling the decades LO..HI
#                         of a latency axis (x or y) in us, ms and s; LOG10
#                         1 when the axis holds log10(latency)
# and a plain common style (grid, key, fonts).

has_cairo = strstrt(GPVAL_TERMINALS, "pngcairo") > 0
output_cmd(o, w, h) = (o[strlen(o)-3:] eq ".svg") \
	? sprintf('set terminal svg size %d,%d dynamic enhanced font "sans,11" background "white"; set output "%s"', w, h, o) \
	: has_cairo \
	? sprintf('set terminal pngcairo size %d,%d enhanced font "sans,10" background "white"; set output "%s"', w, h, o) \
	: sprintf('set terminal png size %d,%d enhanced font "sans,10" background "#ffffff"; set output "%s"', w, h, o)
nz(x) = x > 0 ? x : 0.5
of_kind(f, k) = sprintf("< awk '$2 == \"%s\"' '%s'", k, f)
us_label(d) = d < 3 ? sprintf("%g us", 10 ** d) : d < 6 ? sprintf("%g ms", 10 ** (d - 3)) : sprintf("%g s", 10 ** (d - 6))
us_tics(axis, lo, hi, lg) = lo > hi ? "" : \
	sprintf('set %stics add ("%s" %g); ', axis, us_label(lo), lg ? lo : 10 ** lo) . us_tics(axis, lo + 1, hi, lg)

set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set border lc rgb "#555555"
# Legend entries are data (kinds, flavors, scenario names such as
# "poll_exp"): never enhanced text, where _ would make a subscript.
set key top left box opaque samplen 2 noenhanced
set style fill solid 0.7 border -1
# One colour per grace-period kind, the same in every plot.
kind_color(k) = k eq "sync" ? 0x1f77b4 : k eq "exp" ? 0xd62728 : k eq "cond" ? 0x2ca02c : \
	k eq "poll" ? 0x9467bd : k eq "async" ? 0xff7f0e : k eq "barrier" ? 0x8c564b : 0x7f7f7f
