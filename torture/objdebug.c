/* SPDX-License-Identifier: MIT */
/*
 * objdebug.c - object_debug (rcu_test_debug_objects): call() the same
 * callback twice while the first is still queued; an RCU with debug
 * objects on must report the duplicate, drop it, and count a misuse.  Run
 * once at start, only where ops->debug_objects() says it is safe.  Both
 * calls are made inside one read-side critical section, so the first
 * callback cannot have run (and its head be free again) before the second.
 */
#include "torture.h"

static int objdebug_invoked;

static void objdebug_cb(struct torture_cb *cb)
{
	(void)cb;
	/* Read after cb_barrier(), which orders the callbacks before it. */
	atomic_inc(&objdebug_invoked);
}

int object_debug_test(void)
{
	struct torture_cb cb;
	unsigned long before, after;
	int n;

	if (!tp.object_debug)
		return 0;
	if (!cur_ops->call || !cur_ops->cb_barrier || !cur_ops->misuse_count ||
	    !cur_ops->debug_objects || !cur_ops->debug_objects()) {
		torout(" rcu_test_debug_objects: Not testing: %s does not detect duplicate "
		       "call() (our types: run with debug_objects=1)", cur_ops->name);
		return 0;
	}
	int idx;

	if (!torture_updater_start(UPD_PRIO_SLOT, "rcu_test_debug_objects", "not tested") &&
	    cur_ops->thread_register)
		return 0;
	torture_online();
	before = cur_ops->misuse_count();
	idx = cur_ops->readlock();
	torture_call(&cb, objdebug_cb);
	cur_ops->call(&cb);	/* the duplicate (->func already set) */
	cur_ops->readunlock(idx);
	torture_offline();
	cur_ops->cb_barrier();
	after = cur_ops->misuse_count();
	torture_updater_stop();
	n = READ_ONCE(objdebug_invoked);	/* after the barrier */
	STAT_ADD(tc.misuse_expected, after - before);
	if (after > before && n == 1) {
		torout(" rcu_test_debug_objects: duplicated callback was detected");
		return 0;
	}
	torout(" rcu_test_debug_objects: duplicated call() NOT detected (misuses %lu -> %lu, "
	       "callback invoked %d times)", before, after, n);
	return -1;
}
