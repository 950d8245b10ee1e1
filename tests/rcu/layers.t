#!/bin/sh
# tests/rcu/layers.t: the files of rcu/src call each other in the order that
# rcu/src/internal.h's header comment gives ("Who calls whom"): a file
# calls functions of its own level or below, never above, except the
# calls listed there.  Read from the built objects (nm): a function a file
# uses (U) that another file defines (T) is a call between the two.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD_DIR=${BUILD_DIR:-$TOP/build}
obj=$BUILD_DIR/obj/rcu/src
if ! command -v nm >/dev/null 2>&1; then
	echo "1..0 # SKIP nm not installed (Debian package binutils)"
	exit 0
fi
if [ ! -f "$obj/tree.o" ]; then
	echo "1..0 # SKIP $obj: the library is not built (make)"
	exit 0
fi

# Levels, lowest first (internal.h).  init.c is the state's home (data:
# not checked) and lrcu__start()/lrcu__stop() (functions: at the top).
levels='
weakmem 0
time 0
lock 0
params 0
segcblist 0
debug 0
lockdep_graph 0
kthread 1
geometry 2
membarrier 2
tree 3
tree_exp 3
tree_stall 3
boost 3
registry 4
callbacks 5
lazy 5
tree_nocb 5
update 6
barrier 6
stats 6
srcu 6
srcu_cb 6
srcu_readers 6
tasks_trace 6
tasks 6
tasks_classic 6
tasks_rude 6
init 7
lifecycle 7
inject 8
'
# The calls up that internal.h names: FROM TO FUNCTION.
allowed='
* lifecycle lrcu__init_once
* lifecycle lrcu_init
debug registry lrcu__reader_unprotected
registry callbacks lrcu__migrate_callbacks
registry tree_nocb lrcu__nocb_cpu_online
params inject lrcu__inject_select
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n_files=0
for o in "$obj"/*.o; do
	f=$(basename "$o" .o)
	n_files=$((n_files + 1))
	nm "$o" | awk -v f="$f" '$1 == "U" { print "U", f, $2 } $2 == "T" { print "T", f, $3 }'
done >"$tmp/syms"

echo "1..3"
unknown=$(awk 'NR == FNR { if (NF) lvl[$1] = 1; next } $1 == "T" && !($2 in lvl) { print $2 }' \
	- "$tmp/syms" <<EOF | sort -u | tr '\n' ' '
$levels
EOF
)
if [ -z "$unknown" ]; then
	echo "ok 1 - every file of rcu/src has a level ($n_files objects)"
else
	echo "not ok 1 - files without a level (add them here and to internal.h): $unknown"
fi

# check_up SYMS: print the calls up; the count of calls to stderr.
check_up() {
	awk -v levels="$levels" -v allowed="$allowed" '
	BEGIN {
		n = split(levels, l, "\n")
		for (i = 1; i <= n; i++) if (split(l[i], w, " ") == 2) lvl[w[1]] = w[2]
		n = split(allowed, a, "\n")
		for (i = 1; i <= n; i++) if (split(a[i], w, " ") == 3) ok[w[1] " " w[2] " " w[3]] = 1
	}
	$1 == "T" { def[$3] = $2; next }
	$1 == "U" { use[++nu] = $2 " " $3 }
	END {
		for (i = 1; i <= nu; i++) {
			split(use[i], w, " ")
			from = w[1]; fn = w[2]; to = def[fn]
			if (to == "" || to == from) continue
			calls++
			if (lvl[to] <= lvl[from]) continue
			if ((from " " to " " fn) in ok || ("* " to " " fn) in ok) { excused++; continue }
			print from ".c -> " to ".c " fn "()"
		}
		printf "%d calls between files, %d of them the listed calls up\n", calls, excused >"/dev/stderr"
}' "$1"
}

check_up "$tmp/syms" >"$tmp/up" 2>"$tmp/count"
if [ -s "$tmp/up" ]; then
	echo "not ok 2 - calls up the levels of internal.h:"
	sed 's/^/#   /' "$tmp/up"
else
	echo "ok 2 - no call goes up the levels of internal.h ($(cat "$tmp/count"))"
fi

# The check itself: a call up must be found.  tree.c (level 3) calling
# lrcu__start() (init.c, level 7) would be one.
{ cat "$tmp/syms"; echo "U tree lrcu__start"; } >"$tmp/syms.bad"
if [ "$(check_up "$tmp/syms.bad" 2>/dev/null)" = "tree.c -> init.c lrcu__start()" ]; then
	echo "ok 3 - a call up added to the objects' symbols is found (tree.c -> init.c)"
else
	echo "not ok 3 - a call up added to the objects' symbols was not found"
fi
