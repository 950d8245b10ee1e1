#!/bin/sh
# tests/rcu/install.t: the library as a user sees it: exactly the LRCU_API
# entry points exported (nm -D against the headers and rcu/librcu.map),
# versioned SONAME, `make install`/`make uninstall` (ldconfig only for a
# system prefix), docs/api.md's private-PREFIX example run as written, and
# linking into one program together with liburcu.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

if [ -n "$SAN" ]; then
	echo "1..0 # SKIP install and link checks run in the plain build (SAN=$SAN)"
	exit 0
fi

so=$BUILD_DIR/librcu.so

# The exports: nm -D, the version script and the LRCU_API declarations of
# the public headers name the same symbols, all under version LRCU_0.
nm -D --defined-only "$so" | awk '{ print $3 }' | sort >"$tmp/nm"
sed 's/@@LRCU_0$//' "$tmp/nm" | grep -v '^LRCU_0$' >"$tmp/exported"
sed -n 's/^[[:space:]]*\(lrcu_[a-z0-9_]*\);$/\1/p' "$TOP/rcu/librcu.map" | sort >"$tmp/map"
# A declaration marked LRCU_API: the first lrcu_ name before ( ; or [.
grep -rh '^\(extern \)\{0,1\}LRCU_API' "$TOP/rcu/include/rcu" |
	sed 's/^[^(;[]*\b\(lrcu_[a-z0-9_]*\)[[:space:]]*[(;[].*/\1/' |
	grep -v '^lrcu_inject_' | sort -u >"$tmp/api"
cmp -s "$tmp/exported" "$tmp/api"
ok $? "librcu.so exports exactly the LRCU_API entry points ($(wc -l <"$tmp/api") of them)$(diff "$tmp/api" "$tmp/exported" | grep '^[<>]' | tr '\n' ' ')"
cmp -s "$tmp/map" "$tmp/api"
ok $? "rcu/librcu.map lists exactly them$(diff "$tmp/api" "$tmp/map" | grep '^[<>]' | tr '\n' ' ')"
# In librcu.a every global symbol is visible: the internal ones are named
# lrcu__*, so that lrcu_* (one underscore) names exactly the public API.
nm --defined-only "$BUILD_DIR/librcu.a" | awk '$2 ~ /^[TDBRC]$/ { print $3 }' |
	grep '^lrcu_[^_]' | grep -v '^lrcu_inject_' | sort -u >"$tmp/static"
cmp -s "$tmp/static" "$tmp/api"
ok $? "librcu.a: the lrcu_ globals are the API, internals are lrcu__$(diff "$tmp/api" "$tmp/static" | grep '^[<>]' | head -5 | tr '\n' ' ')"
# docs/abi.md says why each symbol is exported: its table rows name the
# same symbols, and each wrapper or inline a row names is defined in the
# public headers and uses the symbol in its body (a symbol nothing uses,
# exported for no reason, has no honest row).
abi=$TOP/docs/abi.md
sed -n 's/^| `\(lrcu_[a-z0-9_]*\)` |.*/\1/p' "$abi" | sort >"$tmp/abi"
cmp -s "$tmp/abi" "$tmp/api"
ok $? "docs/abi.md names exactly the exports$(diff "$tmp/api" "$tmp/abi" | grep '^[<>]' | tr '\n' ' ')"
# Pairs "definer symbol": each lrcu_ name used in the body of an inline
# function or macro of the public headers (a body runs from one
# definition to the next).
for h in "$TOP"/rcu/include/rcu/*.h "$TOP"/rcu/include/rcu/static/*.h; do
	awk '/^static inline / { s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); cur = w[n] }
	     /^#define [A-Za-z_0-9]+/ { cur = $2; sub(/\(.*/, "", cur) }
	     /LRCU_API/ || /^[ \t]*\/?\*/ { next }
	     cur != "" { while (match($0, /lrcu_[a-z0-9_]+/)) {
			print cur, substr($0, RSTART, RLENGTH); $0 = substr($0, RSTART + RLENGTH) } }' "$h"
done | sort -u >"$tmp/uses"
sed -n 's/^| `\(lrcu_[a-z0-9_]*\)` | \(`.*`\) |$/\1 \2/p' "$abi" |
	while read -r sym users; do
		for u in $(printf '%s' "$users" | tr -d '`,'); do
			grep -qx "$u $sym" "$tmp/uses" || echo "$u does not use $sym"
		done
	done >"$tmp/abi-bad"
[ -s "$tmp/abi" ] && [ ! -s "$tmp/abi-bad" ]
ok $? "each wrapper and inline docs/abi.md names uses its symbol$(sed 's/^/: /' "$tmp/abi-bad" | head -3 | tr '\n' ' ')"
unversioned=$(grep -v '@@LRCU_0$' "$tmp/nm" | grep -v '^LRCU_0$')
[ -z "$unversioned" ]; ok $? "every export has the version LRCU_0${unversioned:+ (not: $unversioned)}"

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "librcu.so.0" ] && [ "$(readlink "$so")" = librcu.so.0 ] &&
	[ "$(readlink "$BUILD_DIR/librcu.so.0")" = "librcu.so.0.1.0" ] && [ -f "$BUILD_DIR/librcu.so.0.1.0" ]
ok $? "SONAME librcu.so.0 ($soname); librcu.so -> librcu.so.0 -> librcu.so.0.1.0"

# ldconfig runs for a system prefix only, never with DESTDIR (dry runs).
make -s -n -C "$TOP" install PREFIX=/usr/local BUILD="$BUILD_DIR" | grep -qx ldconfig &&
	make -s -n -C "$TOP" uninstall PREFIX=/usr BUILD="$BUILD_DIR" | grep -qx ldconfig &&
	! make -s -n -C "$TOP" install PREFIX="$tmp/prefix" BUILD="$BUILD_DIR" | grep -q ldconfig &&
	! make -s -n -C "$TOP" install PREFIX=/usr DESTDIR="$tmp/stage" BUILD="$BUILD_DIR" | grep -q ldconfig
ok $? "make install/uninstall run ldconfig for /usr and /usr/local, not for a private PREFIX or a DESTDIR"

make -s -C "$TOP" install PREFIX="$tmp/prefix" BUILD="$BUILD_DIR" >"$tmp/install.log" 2>&1
ok $? "make install PREFIX=DIR"
lib=$tmp/prefix/lib
[ -f "$tmp/prefix/include/rcu/rcupdate.h" ] && [ -f "$tmp/prefix/include/rcu/static/rcupdate.h" ] &&
	[ -f "$lib/librcu.a" ] && [ -f "$lib/librcu.so.0.1.0" ] && [ "$(readlink "$lib/librcu.so.0")" = librcu.so.0.1.0 ] &&
	[ "$(readlink "$lib/librcu.so")" = librcu.so.0 ] && [ -f "$lib/pkgconfig/rcu.pc" ]
ok $? "headers, librcu.a, librcu.so.0.1.0 with its two links, and rcu.pc installed"
! grep -rl 'INJECT\|TEST_HOOKS\|lrcu_inject_' "$tmp/prefix/include/rcu" >"$tmp/injected"
ok $? "the installed headers carry no deliberate-bug or test hooks$(tr '\n' ' ' <"$tmp/injected")"
grep -q 'LRCU_INJECT' "$TOP/rcu/include/rcu/static/rcupdate.h" &&
	grep -q 'lrcu_inject_gp_kthread_wait' "$TOP/rcu/include/rcu/rcutree.h"
ok $? "(the tree's headers do: the check above can fail)"

if command -v pkg-config >/dev/null 2>&1; then
	# docs/api.md's private-prefix example, as written there, with HOME here.
	sed -n '/<!-- private-prefix example/,/^```$/p' "$TOP/docs/api.md" | sed '1,2d;$d' >"$tmp/example.sh"
	mkdir -p "$tmp/home/opt"
	ln -s "$tmp/prefix" "$tmp/home/opt/rcu"
	# Run in a scratch folder with its own rcu/examples/quickstart.c;
	# make runs in the tree.
	sed -i "s|^make |make -s -C '$TOP' BUILD='$BUILD_DIR' |" "$tmp/example.sh"
	mkdir -p "$tmp/work/rcu/examples"
	cp "$TOP/rcu/examples/quickstart.c" "$tmp/work/rcu/examples/"
	out=$(cd "$tmp/work" && HOME=$tmp/home sh -e "$tmp/example.sh" 2>&1)
	rc=$?
	[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^value=2$')" -eq 2 ]
	ok $? "docs/api.md's private-PREFIX example builds and runs, both ways ($(printf '%s' "$out" | grep -v make | tail -2 | tr '\n' ' '))"
	flags=$(PKG_CONFIG_PATH="$lib/pkgconfig" pkg-config --cflags --libs rcu)
	# shellcheck disable=SC2086
	cc -o "$tmp/quickstart" "$TOP/rcu/examples/quickstart.c" $flags
	needed=$(readelf -d "$tmp/quickstart" | sed -n 's/.*(NEEDED).*\[\(librcu[^]]*\)\].*/\1/p')
	[ "$needed" = librcu.so.0 ]; ok $? "a program linked with -lrcu needs librcu.so.0 ($needed)"
	if ldconfig -p 2>/dev/null | grep -q 'librcu\.so\.0 '; then
		skip "librcu.so.0 is installed system-wide here: the loader finds it anyway"
	else
		"$tmp/quickstart" >"$tmp/noenv.out" 2>&1
		grep -q 'librcu.so.0: cannot open shared object file' "$tmp/noenv.out"
		ok $? "without LD_LIBRARY_PATH or rpath it fails as docs/api.md says"
	fi
else
	skip "pkg-config not installed (Debian package pkg-config)"
	skip "pkg-config not installed (Debian package pkg-config)"
	skip "pkg-config not installed (Debian package pkg-config)"
fi

make -s -C "$TOP" uninstall PREFIX="$tmp/prefix" BUILD="$BUILD_DIR" >"$tmp/uninstall.log" 2>&1 &&
	left=$(find "$tmp/prefix" ! -type d) && [ -z "$left" ] && [ ! -d "$tmp/prefix/include/rcu" ]
ok $? "make uninstall PREFIX=DIR removes every installed file and the rcu/ header folders${left:+ (left: $left)}"

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists liburcu-memb 2>/dev/null; then
	cat >"$tmp/urcu_part.c" <<'C'
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>
static int x = 7, *p = &x;
int urcu_side(void);
int urcu_side(void)
{
	int v;
	urcu_memb_register_thread();
	urcu_memb_read_lock();
	v = *rcu_dereference(p);
	urcu_memb_read_unlock();
	urcu_memb_synchronize_rcu();
	urcu_memb_unregister_thread();
	return v;
}
C
	cat >"$tmp/both.c" <<'C'
#include <rcu/rcupdate.h>
#include <stdio.h>
int urcu_side(void);
int main(void)
{
	rcu_register_thread();
	rcu_read_lock();
	rcu_read_unlock();
	synchronize_rcu();
	rcu_unregister_thread();
	printf("both=%d\n", urcu_side());
	return 0;
}
C
	# shellcheck disable=SC2046
	cc -o "$tmp/both" "$tmp/both.c" "$tmp/urcu_part.c" -I"$TOP/rcu/include" \
		"$BUILD_DIR/librcu.a" $(pkg-config --cflags --libs liburcu-memb) -pthread &&
		out=$("$tmp/both")
	[ "$out" = "both=7" ]; ok $? "links and runs in one program with liburcu-memb ($out)"
else
	skip "liburcu-dev not installed (Debian package liburcu-dev)"
fi
done_testing
