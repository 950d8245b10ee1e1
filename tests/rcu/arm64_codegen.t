#!/bin/sh
# tests/rcu/arm64_codegen.t: on arm64 the helpers of <rcu/compiler.h>
# compile to the instructions docs/design/memory-ordering.md promises:
# smp_mb() a dmb ish, an acquire load ldar, a release store stlr, the
# sequentially consistent store and load stlr and ldar, READ_ONCE() a
# plain ldr (no barrier), a fully ordered exchange an ldaxr/stlxr loop
# (swpal with LSE).  Cross-compiles a small object with Debian's
# gcc-aarch64-linux-gnu at the build's -O2 and reads it with objdump.
# The checker first runs on a planted object whose "acquire" is relaxed,
# which it must reject.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

CC=aarch64-linux-gnu-gcc
OBJDUMP=aarch64-linux-gnu-objdump
if ! command -v "$CC" >/dev/null 2>&1 || ! command -v "$OBJDUMP" >/dev/null 2>&1; then
	echo "1..0 # SKIP $CC not installed (Debian package gcc-aarch64-linux-gnu)"
	exit 0
fi

cat >"$tmp/helpers.c" <<'EOF'
#include <rcu/compiler.h>
unsigned long x;
void f_mb(void);
unsigned long f_acquire(void);
void f_release(unsigned long v);
unsigned long f_read_once(void);
void f_store_mb(unsigned long v);
unsigned long f_load_mb(void);
unsigned long f_xchg(unsigned long v);
void f_mb(void) { LRCU_SMP_MB(); }
#ifdef PLANT
unsigned long f_acquire(void) { return LRCU_READ_ONCE(x); }
#else
unsigned long f_acquire(void) { return LRCU_LOAD_ACQUIRE(&x); }
#endif
void f_release(unsigned long v) { LRCU_STORE_RELEASE(&x, v); }
unsigned long f_read_once(void) { return LRCU_READ_ONCE(x); }
void f_store_mb(unsigned long v) { LRCU_STORE_MB(x, v); }
unsigned long f_load_mb(void) { return LRCU_LOAD_MB(&x); }
unsigned long f_xchg(unsigned long v) { return LRCU_XCHG(&x, v); }
EOF

# body OBJ FUNC: the instructions of FUNC, one mnemonic a line.
body() {
	"$OBJDUMP" -d --no-show-raw-insn "$1" |
		awk -v f="<$2>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on && NF >= 2 { print $2 }'
}

# check OBJ: one line per helper whose code is not what it must be.
check() {
	body "$1" f_mb | grep -qx 'dmb' && "$OBJDUMP" -d "$1" | grep -q 'dmb[[:space:]]*ish' ||
		echo "smp_mb(): no dmb ish"
	body "$1" f_acquire | grep -qx 'ldar' || echo "acquire load: no ldar"
	body "$1" f_release | grep -qx 'stlr' || echo "release store: no stlr"
	body "$1" f_read_once | grep -qxE 'ldar|dmb' && echo "READ_ONCE(): a barrier"
	body "$1" f_read_once | grep -qx 'ldr' || echo "READ_ONCE(): no ldr"
	body "$1" f_store_mb | grep -qx 'stlr' || echo "seq_cst store: no stlr"
	body "$1" f_load_mb | grep -qx 'ldar' || echo "seq_cst load: no ldar"
	{ body "$1" f_xchg | grep -qx 'ldaxr' && body "$1" f_xchg | grep -qx 'stlxr'; } ||
		body "$1" f_xchg | grep -qx 'swpal' || echo "xchg(): neither ldaxr/stlxr nor swpal"
}

# The flags of the build (Makefile), and no out-of-line atomics: the
# exchange is inline, as the library's is with -march=armv8-a.
flags="-Ircu/include -D_GNU_SOURCE -std=gnu11 -O2 -mno-outline-atomics"

cd "$TOP" || exit 1
$CC $flags -DPLANT -c "$tmp/helpers.c" -o "$tmp/plant.o"
check "$tmp/plant.o" >"$tmp/plant.out"
grep -qx 'acquire load: no ldar' "$tmp/plant.out"
ok $? "the checker rejects a relaxed load as the acquire ($(tr '\n' ' ' <"$tmp/plant.out"))"

$CC $flags -c "$tmp/helpers.c" -o "$tmp/helpers.o"
check "$tmp/helpers.o" >"$tmp/out"
[ ! -s "$tmp/out" ]
ok $? "arm64: dmb ish, ldar, stlr, ldr, ldaxr/stlxr where promised$(tr '\n' ' ' <"$tmp/out")"

$CC $flags -march=armv8.1-a -c "$tmp/helpers.c" -o "$tmp/lse.o"
check "$tmp/lse.o" >"$tmp/lse.out"
[ ! -s "$tmp/lse.out" ]
ok $? "arm64 with LSE atomics (-march=armv8.1-a): the same, xchg() as swpal$(tr '\n' ' ' <"$tmp/lse.out")"
done_testing
