#!/bin/sh
# tests/rcu/headers.t: the library's headers live beside a program's own kernel
# helpers.  tests/fixtures/headers_prog.c includes every public header
# with, in turn:
#   - tests/fixtures/hostile_helpers.h first (READ_ONCE, smp_mb, likely...
#     defined as poison): the library's inlines and macros use none of them;
#   - tests/fixtures/perfbook/api.h (a stand-in for perfbook's api.h: its
#     own barrier/smp_mb/READ_ONCE/WRITE_ONCE-as-a-statement/likely, and
#     liburcu's rcu_dereference/rcu_assign_pointer) before and after the
#     library's headers, with liburcu's real headers when liburcu-dev is
#     installed: no warning (-Werror), and the program's helpers are still
#     its own afterwards;
#   - the opt-in <rcu/kernel.h>, alone and after api.h;
# builds it with -Wall -Wextra -Werror (and with clang, if installed) and
# runs it linked with librcu.a: it prints "headers ok".
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

if [ -n "$SAN" ]; then
	echo "1..0 # SKIP header checks run in the plain build (SAN=$SAN)"
	exit 0
fi
fx=$TOP/tests/fixtures
prog=$fx/headers_prog.c
flags="-std=gnu11 -O2 -Wall -Wextra -Werror -Wshadow -D_GNU_SOURCE -I$TOP/rcu/include -I$fx -I$fx/perfbook -pthread"
urcu_flags=
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists liburcu 2>/dev/null; then
	urcu_flags="-DPERFBOOK_WITH_LIBURCU $(pkg-config --cflags liburcu)"
fi

# build NAME COMPILER DEFINES...: compile and link; 0 if both worked.
build() {
	name=$1 compiler=$2
	shift 2
	# shellcheck disable=SC2086
	$compiler $flags "$@" -o "$tmp/$name" "$prog" "$BUILD_DIR/librcu.a" >"$tmp/$name.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/$name.log" | head -20
	return $rc
}

# check NAME DESCRIPTION DEFINES...: build with cc, run, expect "headers ok".
check() {
	name=$1 what=$2
	shift 2
	out=
	build "$name" cc "$@" && out=$("$tmp/$name" 2>&1)
	[ "$out" = "headers ok" ]; ok $? "$what${out:+: $out}"
}

check hostile "no library header uses the kernel-spelled helpers (poisoned before them)" -DHOSTILE
check hostile_k "<rcu/kernel.h> after poisoned helpers keeps the program's and warns about nothing" -DHOSTILE -DKERNEL_H
# Without liburcu, api.h's stand-in for liburcu's pointer header is a system
# header (-isystem), as liburcu's are.
check pb_first "perfbook-style api.h before the library's headers: no warning, its helpers kept" \
	-DPERFBOOK -DAPI_FIRST "-isystem$fx/perfbook/sys"
check pb_after "perfbook-style api.h after the library's headers: no warning, its helpers kept" \
	-DPERFBOOK "-isystem$fx/perfbook/sys"
check pb_kernel "api.h, then the library's headers and <rcu/kernel.h>: api.h's helpers kept" \
	-DPERFBOOK -DAPI_FIRST -DKERNEL_H "-isystem$fx/perfbook/sys"
check kernel "<rcu/kernel.h> alone supplies the kernel spellings" -DKERNEL_H
if [ -n "$urcu_flags" ]; then
	# shellcheck disable=SC2086
	check urcu_first "api.h with liburcu's headers, before the library's: no warning" \
		-DPERFBOOK -DAPI_FIRST $urcu_flags
	# shellcheck disable=SC2086
	check urcu_after "api.h with liburcu's headers, after the library's: no warning" \
		-DPERFBOOK $urcu_flags
else
	skip "liburcu-dev not installed (Debian package liburcu-dev)"
	skip "liburcu-dev not installed (Debian package liburcu-dev)"
fi

if command -v clang >/dev/null 2>&1; then
	res=0
	for defs in "-DHOSTILE" "-DPERFBOOK -DAPI_FIRST -isystem$fx/perfbook/sys" \
		"-DPERFBOOK -isystem$fx/perfbook/sys" "-DKERNEL_H"; do
		# shellcheck disable=SC2086
		clang $flags $defs -fsyntax-only "$prog" >"$tmp/clang.log" 2>&1 ||
			{ res=1; sed 's/^/# /' "$tmp/clang.log" | head -20; }
	done
	ok $res "clang -Werror: the same configurations compile"
else
	skip "clang not installed (Debian package clang)"
fi
done_testing
