/* SPDX-License-Identifier: MIT */
/*
 * ops_trivial_preempt.c - "trivial-preempt", the kernel's textbook
 * preemptible RCU (CONFIG_TRIVIAL_PREEMPT_RCU), with the torture's
 * registered threads as the kernel's tasks; and "trivial-preempt-busted".
 *
 * Each registered thread's slot (trivial_slots.h) holds its read-side
 * nesting depth.  rcu_read_lock() increments it and then orders the
 * section after the increment with a full barrier; rcu_read_unlock()
 * decrements it with release.  synchronize() waits until the counter of
 * every thread but the caller has been seen at zero: a reader that was
 * inside when the grace period began has left, and a later one starts
 * after the caller's removal.  Unlike ops_trivial.c's snapshot, this
 * wait can be held off by a reader that re-enters at once, as the
 * kernel's can (its stall warnings).
 *
 * As the kernel's ops: synchronize() for both normal and expedited grace
 * periods, no callbacks, barriers or polled cookies, no Reader Batch
 * clock, and not irq-capable.
 *
 * trivial-preempt-busted skips the caller's own slot by number, but an
 * updater, which never registers, has no slot and its "no slot" is read
 * as slot 0: the reader in slot 0 is never waited for.
 */
#include <sched.h>
#include <torture/ops.h>
#include "builtin.h"
#include "trivial_slots.h"

static int tp_lock(void)
{
	unsigned long *n = trivial_my_ctr();

	WRITE_ONCE(*n, *n + 1);	/* only the owner stores it */
	/* The nesting before the section's loads; pairs with the smp_mb()
	 * in tp_wait_readers() between the removal and the counter loads. */
	smp_mb();
	return 0;
}

static void tp_unlock(int idx)
{
	unsigned long *n = trivial_my_ctr();

	(void)idx;
	/* Release: the section's loads before the decrement; pairs with
	 * the acquire load in tp_wait_readers(). */
	smp_store_release(n, *n - 1);
}

static TORTURE_READ_SECTION(tp_read_section, tp_lock, tp_unlock, trivial_dereference)

/* A grace period: every slot but skip seen with no reader inside. */
static void tp_wait_readers(int skip)
{
	int i;

	/* The caller's removal before the counter loads; pairs with the
	 * smp_mb() in tp_lock(). */
	smp_mb();
	for (i = 0; i < TRIVIAL_SLOTS; i++) {
		if (i == skip)
			continue;	/* never wait for our own sections */
		/* Acquire pairs with tp_unlock()'s release: the reader's
		 * loads are over before the caller frees what it removed. */
		while (smp_load_acquire(&trivial_slot[i].ctr))
			sched_yield();
	}
	trivial_gp_done();
}

static void tp_sync(void)
{
	tp_wait_readers(trivial_my_slot);
}

static void tp_busted_sync(void)
{
	/* BROKEN on purpose: an unregistered caller's -1 taken as slot 0. */
	tp_wait_readers(trivial_my_slot < 0 ? 0 : trivial_my_slot);
}

#define TP_COMMON							\
	TORTURE_OPS_HEAD,						\
	.thread_register = trivial_register,				\
	.thread_unregister = trivial_unregister,			\
	.readlock = tp_lock,						\
	.readunlock = tp_unlock,					\
	.dereference = trivial_dereference,				\
	.read_section = tp_read_section,				\
	.gps_completed = trivial_gps_completed

const struct torture_ops trivial_preempt_ops = {
	TP_COMMON,
	.name = "trivial-preempt",
	.sync = tp_sync,
	.exp_sync = tp_sync,
};

const struct torture_ops trivial_preempt_busted_ops = {
	TP_COMMON,
	.name = "trivial-preempt-busted",
	.flags = TORTURE_OPS_BROKEN,
	.sync = tp_busted_sync,
	.exp_sync = tp_busted_sync,
};
