#!/bin/sh
# rcu_install.t: the library as a user sees it: only lrcu_-prefixed
# exports, `make install` + pkg-config, the README's example, and linking
# into one program together with liburcu.
TOP=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
. "$TOP/tests/rcu_tap.sh"

if [ -n "$SAN" ]; then
	echo "1..0 # SKIP install and link checks run in the plain build (SAN=$SAN)"
	exit 0
fi

bad=$(nm -D --defined-only "$BUILD_DIR/librcu.so" | awk '$3 !~ /^lrcu_/ { print $3 }')
[ -z "$bad" ]; ok $? "librcu.so exports only lrcu_* symbols${bad:+ (found: $bad)}"

make -s -C "$TOP" install PREFIX="$tmp/prefix" BUILD="$BUILD_DIR" >"$tmp/install.log" 2>&1
ok $? "make install PREFIX=DIR"
[ -f "$tmp/prefix/include/rcu/rcupdate.h" ] && [ -f "$tmp/prefix/include/rcu/static/rcupdate.h" ] &&
	[ -f "$tmp/prefix/lib/librcu.a" ] && [ -f "$tmp/prefix/lib/librcu.so" ] &&
	[ -f "$tmp/prefix/lib/pkgconfig/rcu.pc" ]
ok $? "headers, libraries and rcu.pc installed"

if command -v pkg-config >/dev/null 2>&1; then
	flags=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs rcu)
	ok $? "pkg-config --cflags --libs rcu: $flags"
	# shellcheck disable=SC2086
	cc -Wall -Wextra -Werror -o "$tmp/quickstart" "$TOP/tests/quickstart.c" $flags &&
		out=$(LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/quickstart")
	[ "$out" = "value=2" ]; ok $? "the README example builds with pkg-config and prints value=2 ($out)"
else
	skip "pkg-config not installed (Debian package pkg-config)"
	skip "pkg-config not installed (Debian package pkg-config)"
fi

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
