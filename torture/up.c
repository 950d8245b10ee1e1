/* SPDX-License-Identifier: MIT */
/*
 * up.c - running the torture on a uniprocessor RCU (TORTURE_OPS_UP: Tiny
 * RCU, make TINY=1; docs/design/tiny.md).
 *
 * Tiny RCU's assumption is made true by the scheduler: the main thread
 * pins itself to one CPU (the first this process may use) and becomes
 * SCHED_FIFO at UP_PRIO before the RCU starts, and every thread it starts
 * inherits both.  Such a thread runs until it blocks or yields, which
 * brings two duties:
 *
 *   - readers never block or yield inside a section (reader.c's delays
 *     spin instead, and a section's GP-spanning sleep becomes a spin);
 *   - a loop that waits for another thread without sleeping would wait
 *     forever: it calls torture_cond_resched(), the kernel's cond_resched()
 *     (sched_yield() rotates the threads of one priority), as the
 *     kernel's rcutorture does on a non-preemptible uniprocessor.
 *
 * The watchers (the main thread while the test runs, the statistics
 * thread, the grace-period hang watchdog and the drain watchdog) must see
 * a thread that spins forever: they run at UP_PRIO + 1 on the same CPU
 * (torture_up_watcher()), so they preempt the group whenever they wake.
 * They never read under RCU nor wait for a grace period (the RCU checks:
 * a reader or synchronize_*() above the group's priority stops the
 * program), so preempting a reader breaks nothing.  The main thread goes
 * back to UP_PRIO (torture_up_member()) once the threads have stopped,
 * to drain the callbacks (the drain watchdog still watches it).  Real-time throttling stays on: it keeps the
 * machine usable if a thread spins (only threads that are not real-time
 * run in the throttled time, and none of ours reads then: every thread
 * that reads is SCHED_FIFO, which the RCU checks).
 *
 * And one check of the RCU that only a uniprocessor RCU needs from the
 * harness: now and then a reader queues a callback inside its section,
 * which must not run before that section ends (a Tiny RCU that invoked
 * callbacks at once would run it there): counted as cb_early.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "torture.h"

#define UP_PRIO	1	/* the group's SCHED_FIFO priority */

static bool up_mode;	/* set by main before any thread starts */

static bool up_on(void)
{
	return cur_ops && (cur_ops->flags & TORTURE_OPS_UP);
}

const char *torture_up_refused(void)
{
	static char why[160];

	if (!up_on())
		return NULL;
	if (!torture_may_rt(UP_PRIO + 1)) {
		snprintf(why, sizeof(why), "torture_type=%s (Tiny RCU) needs its threads SCHED_FIFO "
			 "on one CPU, refused here (CAP_SYS_NICE: run as root)", cur_ops->name);
		return why;
	}
	return NULL;
}

int torture_up_setup(void)
{
	struct sched_param sp = { .sched_priority = UP_PRIO };
	cpu_set_t set;
	int c;

	if (!up_on())
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &set); c++)
		;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
		fprintf(stderr, "rcutorture: cannot run on CPU %d under SCHED_FIFO %d: %s\n", c,
			UP_PRIO, strerror(errno));
		return -1;
	}
	up_mode = true;
	torout(" Tiny RCU: every thread on CPU %d, SCHED_FIFO priority %d (watchers at %d)", c,
	       UP_PRIO, UP_PRIO + 1);
	return 0;
}

bool torture_up(void)
{
	return up_mode;
}

static void up_prio(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (up_mode && pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		torout(" cannot set SCHED_FIFO priority %d: %s", prio, strerror(errno));
}

void torture_up_watcher(void)
{
	up_prio(UP_PRIO + 1);
}

void torture_up_member(void)
{
	up_prio(UP_PRIO);
}

/*
 * A Tiny RCU kernel does not build Tree RCU's files (tree.c, the stall
 * warnings), so it drops their parameters as unknown module parameters:
 * the same here, on a uniprocessor type.
 */
const char *torture_up_tree_param(const char *name)
{
	static const char *const tree_only[] = {
		"rcutree.", "rcupdate.rcu_cpu_stall_", "rcupdate.rcu_exp_cpu_stall_",
		"rcupdate.rcu_exp_stall_",
	};
	size_t i;

	for (i = 0; up_on() && i < sizeof(tree_only) / sizeof(tree_only[0]); i++)
		if (!strncmp(name, tree_only[i], strlen(tree_only[i])))
			return "Tree RCU's: a Tiny RCU kernel has none (it drops them)";
	return NULL;
}

void torture_cond_resched(void)
{
	if (up_mode)
		sched_yield();
}

/* ------------------------------------------------------------------ */
/* Callbacks queued inside a section */

struct up_cb {
	struct torture_cb cb;	/* first: the RCU's head */
	int open;		/* the queueing section is still open */
	int refs;		/* the reader's and the callback's */
};

static void up_cb_put(struct up_cb *c)
{
	/* Full: the last one frees after the other's accesses. */
	if (!atomic_dec_return(&c->refs))
		free(c);
}

static void up_cb_fn(struct torture_cb *cb)
{
	struct up_cb *c = (struct up_cb *)(void *)cb;

	/* Relaxed: the grace period orders the reader's store before us. */
	if (READ_ONCE(c->open) && !STAT_INC(tc.gpo_cb_early))
		torout(" a callback queued inside a read-side section ran before the section "
		       "ended");
	up_cb_put(c);
}

void *torture_up_read_begin(struct torture_random *rng)
{
	struct up_cb *c;

	if (!up_mode || !cur_ops->call || torture_random(rng) % 64)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->open = 1;
	c->refs = 2;
	c->cb.func = up_cb_fn;
	cur_ops->call(&c->cb);
	return c;
}

void torture_up_read_end(void *p)
{
	struct up_cb *c = p;

	if (!c)
		return;
	WRITE_ONCE(c->open, 0);	/* inside the section: the GP orders it */
	up_cb_put(c);
}
