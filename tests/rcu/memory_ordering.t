#!/bin/sh
# memory_ordering.t: rcu/ (and torture/) keep one memory-ordering vocabulary
# (docs/design/memory-ordering.md):
#   1. no raw __atomic_* / __sync_* builtin or __ATOMIC_* order outside
#      rcu/include/rcu/compiler.h, the header that defines the helpers;
#   2. no kernel spelling (READ_ONCE(), smp_mb(), xchg() ...) in the code
#      of a public header other than <rcu/kernel.h>: they use LRCU_ names;
#   3. every fence, acquire, release, _mb access and ordered
#      read-modify-write has a comment on its line, on the comment-only
#      line above it, or on a line of the same statement.
# Each check first runs on a planted violation, which it must report.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

# The C sources and headers under DIR (the defining headers excluded).
sources() {
	find "$1" -name '*.[ch]' ! -path '*/rcu/include/rcu/compiler.h' \
		! -path '*/torture/include/torture/atomic.h' | sort
}

# 1: raw builtins, anywhere in the file (comments too: nothing else
# needs to name them).
raw_builtins() {
	sources "$1" | xargs grep -nE '__(atomic|sync)_[a-z_]+|__ATOMIC_[A-Z_]+' /dev/null
}

# Print the code of a C file, comments blanked, one output line per line.
strip_comments() {
	awk '
	{
		out = ""; s = $0
		while (s != "") {
			if (inc) {
				e = index(s, "*/")
				if (!e) { s = ""; break }
				s = substr(s, e + 2); inc = 0
			} else {
				b = index(s, "/*"); l = index(s, "//")
				if (l && (!b || l < b)) { out = out substr(s, 1, l - 1); s = ""; break }
				if (!b) { out = out s; s = ""; break }
				out = out substr(s, 1, b - 1) " "; s = substr(s, b + 2); inc = 1
			}
		}
		print out
	}' "$1"
}

# 2: kernel spellings in the public headers' code.
KERNEL_NAMES='READ_ONCE|WRITE_ONCE|smp_[a-z_]+|barrier|likely|unlikely|container_of|ARRAY_SIZE|(try_)?cmpxchg[a-z_]*|xchg[a-z_]*|atomic_[a-z_]+'
kernel_spellings() {
	find "$1" -path '*/rcu/include/rcu/*' -name '*.h' ! -name kernel.h | sort |
	while read -r f; do
		strip_comments "$f" | sed -E 's/^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z0-9_]+//' |
			grep -nE "(^|[^A-Za-z0-9_])($KERNEL_NAMES)[[:space:]]*\\(" |
			sed "s|^|$f:|"
	done
}

# 3: ordered helpers without a comment next to them.  A site is a line
# whose code (comments removed) calls one, outside a top-level
# declaration and the #define that names it.  It passes with a comment on
# a line of its statement (the lines up to the one that ends it with ; {
# or }, and back to the end of the previous one), or on the comment-only
# line right above that statement.  The headers that define helpers
# (kernel.h, atomic.h, lockdep.h) are not sites.
ORDERED='smp_mb|smp_load_acquire|smp_store_release|STORE_RELEASE_LOCKED|smp_store_mb|smp_load_mb|LRCU_SMP_MB|LRCU_LOAD_ACQUIRE|LRCU_STORE_RELEASE|LRCU_LOAD_CONSUME|LRCU_STORE_MB|LRCU_LOAD_MB|(try_)?cmpxchg(_acquire|_release)?|xchg(_acquire|_release)?|LRCU_(TRY_)?CMPXCHG(_ACQUIRE|_RELEASE|_FULL)?|LRCU_XCHG(_ACQUIRE|_RELEASE)?|atomic_(fetch_[a-z]+|[a-z]+_return)(_acquire|_release)?|LRCU_(FETCH_[A-Z]+|[A-Z]+_RETURN)(_ACQUIRE|_RELEASE)?|lrcu_reader_fence|lrcu__heavy_fence'
uncommented() {
	sources "$1" | grep -v -e '/rcu/include/rcu/kernel\.h$' -e '/rcu/src/atomic\.h$' \
		-e '/rcu/src/lockdep\.h$' |
	while read -r f; do
		strip_comments "$f" >"$tmp/code"
		awk -v f="$f" -v re="(^|[^A-Za-z0-9_])($ORDERED)[[:space:]]*\\\\(" '
		NR == FNR { code[FNR] = $0; next }
		{
			line[FNR] = $0; nl = FNR
			c = code[FNR]; gsub(/[[:space:]]/, "", c)
			l = $0; gsub(/[[:space:]]/, "", l)
			cmt[FNR] = (c != l)
			cont = (c ~ /\\$/); sub(/\\$/, "", c)
			only[FNR] = (c == "" && cmt[FNR])
			ends[FNR] = (c ~ /[;{}]$/ || (c ~ /^#/ && !cont) || c == "")
		}
		END {
			for (i = 1; i <= nl; i++) {
				s = code[i]
				sub(/^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z0-9_]+/, "", s)
				if (s !~ re || code[i] ~ /^[A-Za-z_]/)
					continue
				for (a = i; a > 1 && !ends[a - 1]; a--)
					;
				for (b = i; b < nl && !ends[b]; b++)
					;
				found = only[a - 1]
				for (j = a; j <= b && !found; j++)
					found = cmt[j]
				if (!found)
					printf "%s:%d:%s\n", f, i, line[i]
			}
		}' "$tmp/code" "$f"
	done
}

# report NAME FINDINGS DESCRIPTION: ok if FINDINGS is empty, else list them.
report() {
	if [ -s "$2" ]; then
		ok 1 "$3"
		sed 's/^/# /' "$2"
	else
		ok 0 "$3"
	fi
}

# The checks catch planted violations.
mkdir -p "$tmp/plant/rcu/src" "$tmp/plant/rcu/include/rcu"
cat >"$tmp/plant/rcu/src/bad.c" <<'C'
static int flag, data;
void publish(void)
{
	data = 1;
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	smp_mb();
	/* pairs with the load in consume() */
	smp_store_release(&flag, 2);
	if (xchg(&flag, 0) &&	/* fully ordered: see consume() */
	    try_cmpxchg(&flag, &data, 3))
		data = 4;
	smp_store_mb(flag, 4);
	WRITE_ONCE(flag, 5);	/* relaxed needs no comment */
	atomic_inc(&data);
}
C
cat >"$tmp/plant/rcu/include/rcu/bad.h" <<'C'
/* READ_ONCE() in a comment is fine */
static inline int peek(int *p) { return READ_ONCE(*p); }
static inline int rcu_barrier_like(int *p) { return LRCU_READ_ONCE(*p); }
C
raw_builtins "$tmp/plant" >"$tmp/found"
grep -q 'bad.c:5:' "$tmp/found" && [ "$(wc -l <"$tmp/found")" -eq 1 ]
ok $? "a planted raw builtin is reported (and nothing else)"
kernel_spellings "$tmp/plant" >"$tmp/found"
grep -q 'bad.h:2:' "$tmp/found" && [ "$(wc -l <"$tmp/found")" -eq 1 ]
ok $? "a planted READ_ONCE() in a public header is reported (and nothing else)"
uncommented "$tmp/plant" >"$tmp/found"
[ "$(cut -d: -f2 "$tmp/found" | tr '\n' ' ')" = "6 12 " ]
ok $? "a planted smp_mb() and smp_store_mb() without comments are reported (and nothing else)"
sed 's/^/# /' "$tmp/found"

# The library.
raw_builtins "$TOP/rcu" >"$tmp/found"
report raw "$tmp/found" "rcu/: raw __atomic/__sync builtins only in rcu/include/rcu/compiler.h"
kernel_spellings "$TOP/rcu" >"$tmp/found"
report kernel "$tmp/found" "public headers: only LRCU_ spellings in code (<rcu/kernel.h> apart)"
uncommented "$TOP/rcu" >"$tmp/found"
report comments "$tmp/found" "rcu/: every fence, acquire, release and ordered RMW has a comment next to it"

# The harness follows the same rule with its own header.
raw_builtins "$TOP/torture" >"$tmp/found"
report raw "$tmp/found" "torture/: raw __atomic/__sync builtins only in torture/include/torture/atomic.h"
uncommented "$TOP/torture" >"$tmp/found"
report comments "$tmp/found" "torture/: every fence, acquire, release and ordered RMW has a comment next to it"

done_testing
