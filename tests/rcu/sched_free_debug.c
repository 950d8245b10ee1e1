/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/sched_free_debug.c - the debug build (CONFIG_PROVE_RCU) of a
 * free-marker program (LRCU_SCHED_FREE_MARKERS): its markers count again
 * and report a section on a thread that is not online in rcu_sched,
 * which its release build would leave unprotected.
 */
#ifndef CONFIG_PROVE_RCU	/* make DEBUG=1 defines it already */
#define CONFIG_PROVE_RCU
#endif
#define LRCU_SCHED_FREE_MARKERS 1
#include "rcu_test.h"

int main(void)
{
	unsigned long m;

	if (rcu_register_thread())
		return 1;
	m = lrcu_misuse_count();
	rcu_read_lock_sched();	/* registered, never joined */
	ok(rcu_read_lock_sched_held(), "the debug build counts the depth");
	rcu_read_unlock_sched();
	ok(lrcu_misuse_count() == m + 1, "a section before the first quiescent state is reported");
	rcu_quiescent_state();	/* joins */
	rcu_read_lock_sched();
	rcu_read_unlock_sched();
	ok(lrcu_misuse_count() == m + 1, "once joined, sections are not reported");
	rcu_thread_offline();
	rcu_read_lock_sched();	/* offline: a momentary section */
	rcu_read_unlock_sched();
	ok(lrcu_misuse_count() == m + 2, "a section on an offline thread is reported");
	rcu_thread_online();
	rcu_unregister_thread();
	return done_testing();
}
