#!/bin/sh
# tests/rcu/sparse.t: __rcu is sparse's address space.  A plain dereference of
# an RCU-protected pointer is reported; the RCU accessors are not.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v sparse >/dev/null 2>&1; then
	echo "1..0 # SKIP sparse not installed (Debian package sparse)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/good.c" <<'C'
#include <rcu/rcupdate.h>
struct foo { int a; };
static struct foo __rcu *gp;
static struct foo init_foo;
struct holder { struct foo __rcu *p; };
static struct holder h = { RCU_POINTER_INITIALIZER(p, &init_foo) };
int readers(void);
int readers(void)
{
	int v;

	rcu_read_lock();
	v = rcu_dereference(gp)->a + rcu_dereference_check(gp, 1)->a;
	v += rcu_dereference_raw(gp)->a + rcu_dereference_bh(gp)->a;
	rcu_read_unlock();
	rcu_read_lock_sched();
	v += rcu_dereference_sched(gp)->a;
	rcu_read_unlock_sched();
	return v + (rcu_access_pointer(gp) != NULL);
}
void updaters(struct foo *f);
void updaters(struct foo *f)
{
	struct foo *old = rcu_dereference_protected(gp, 1);

	rcu_assign_pointer(gp, f);
	RCU_INIT_POINTER(h.p, NULL);
	(void)old;
}
C
cat >"$tmp/bad.c" <<'C'
#include <rcu/rcupdate.h>
struct foo { int a; };
static struct foo __rcu *gp;
int bad(void);
int bad(void) { return gp->a; }
C
good=$(sparse -I"$TOP/rcu/include" -D_GNU_SOURCE "$tmp/good.c" 2>&1)
if [ -z "$good" ]; then echo "ok 1 - sparse: the RCU accessors are clean"; else
	echo "not ok 1 - sparse: the RCU accessors are clean"; printf '%s\n' "$good" | sed 's/^/# /'; fi
bad=$(sparse -I"$TOP/rcu/include" -D_GNU_SOURCE "$tmp/bad.c" 2>&1)
case "$bad" in
*"dereference of noderef expression"*) echo "ok 2 - sparse: a plain dereference of an __rcu pointer is reported" ;;
*) echo "not ok 2 - sparse: a plain dereference of an __rcu pointer is reported"; printf '%s\n' "$bad" | sed 's/^/# /' ;;
esac
echo "1..2"
