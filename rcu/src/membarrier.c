/* SPDX-License-Identifier: MIT */
/*
 * membarrier.c - the updater's half of the asymmetric reader fence.
 *
 * Readers of the rcu flavor issue only a compiler barrier where this
 * process can use membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): before the
 * grace-period thread reads reader words it runs lrcu__heavy_fence(), which
 * makes every running thread of the process execute a full barrier.  That
 * pairs with lrcu_reader_fence() in each reader.  Without membarrier (or
 * with rcupdate.use_membarrier=0, or under ThreadSanitizer: see
 * <rcu/compiler.h>) readers fence themselves and the heavy fence is an
 * ordinary smp_mb().
 */
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

int lrcu_has_membarrier;
unsigned long lrcu_tsan_fence;	/* LRCU_SMP_MB() in ThreadSanitizer builds */

static long sys_membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

/* Called once at init, before any thread can register (so before any rcu
 * reader reads lrcu_has_membarrier; SRCU readers may already run). */
void lrcu__membarrier_init(void)
{
	long mask;

	if (!LRCU_USE_MEMBARRIER || !lrcu__params.use_membarrier)	/* <rcu/compiler.h> */
		return;
	mask = sys_membarrier(MEMBARRIER_CMD_QUERY);
	if (mask < 0 || !(mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return;
	if (sys_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		return;
	/*
	 * Relaxed: a reader that still sees 0 fences itself, which is safe
	 * with either kind of updater fence; every updater runs after init
	 * (lrcu__init_once()), so it sees the final value and uses
	 * membarrier() whenever a reader may have relied on it.
	 */
	WRITE_ONCE(lrcu_has_membarrier, 1);
}

/*
 * In a fork() child: if membarrier() no longer works (the registration is
 * per process), register again, or fall back to fences.  Safe to switch
 * here: the forking thread is the only reader, and fork() itself made its
 * reader-word stores visible.
 */
void lrcu__membarrier_fork_child(void)
{
	if (!READ_ONCE(lrcu_has_membarrier))	/* see init */
		return;
	if (!sys_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
	    !sys_membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
		return;
	WRITE_ONCE(lrcu_has_membarrier, 0);	/* see init */
}

void lrcu__heavy_fence(void)
{
	if (READ_ONCE(lrcu_has_membarrier)) {	/* see above */
		/* Pairs with the readers' compiler-barrier lrcu_reader_fence(). */
		if (sys_membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED))
			lrcu__fatal("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed after registration");
#ifdef LRCU_WEAKMEM
		/* Every thread ran a full barrier: every store buffer drains. */
		lrcu__wm_membarrier();
#endif
		return;
	}
	smp_mb();	/* pairs with the readers' smp_mb() lrcu_reader_fence() */
}
