/* SPDX-License-Identifier: MIT */
/*
 * tasks_classic.c - RCU Tasks' grace period: which threads it waits for
 * and when each has passed a voluntary quiescent state, read from Linux's
 * own accounting in /proc/self/task.
 *
 * Theory of operation (docs/design/tasks.md)
 *
 * A reader is any stretch of code that does not block, so a thread has
 * left every reader it was in once it has been switched out voluntarily:
 * Linux counts those switches (voluntary_ctxt_switches in
 * /proc/self/task/TID/status: the scheduler's nvcsw, bumped only when a
 * thread that is no longer runnable is switched out; a preemption or
 * sched_yield() counts in nonvoluntary_ctxt_switches).  The snapshot
 * (after the start fence) lists every thread of the process but the
 * library's own and this one, and keeps as holdouts those that are
 * runnable: a thread that is blocked now has ended whatever reader it
 * was in before the grace period, and will see the removals when it runs
 * again.  "Blocked" is read from /proc/self/task/TID/wchan, which Linux
 * shows only for a thread that is off its runqueue (not from the State
 * letter, which says S as soon as a thread prepares to sleep, before it
 * knows whether it will: a futex wait that finds its word changed
 * returns without a switch, inside the reader).  A holdout is done once
 * its voluntary count moved, it is off its runqueue (with the count
 * unchanged it has been asleep since before the snapshot), it exited,
 * or it called rcu_tasks_qs() (its record's count moved).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tasks_internal.h"

static unsigned long status_field(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	return p ? strtoul(p + strlen(key), NULL, 10) : 0;
}

/* What a holdout looks like now; false if it exited. */
struct task_now {
	unsigned long nvcsw, nivcsw;
	bool blocked;		/* off its runqueue */
};

static bool task_look(int tid, struct task_now *tn)
{
	char buf[2048];

	if (lrcu__tasks_task_file(tid, "status", buf, sizeof(buf)) < 0)
		return false;
	tn->nvcsw = status_field(buf, "\nvoluntary_ctxt_switches:");
	tn->nivcsw = status_field(buf, "\nnonvoluntary_ctxt_switches:");
	if (LRCU_INJECTED(LRCU_BUG_TASKS_PREEMPT_QS))
		tn->nvcsw += tn->nivcsw;	/* INJECTED: preemptions count */
	/* wchan is "0" while the thread is on its runqueue (or unknown:
	 * then the thread is a holdout until its count moves). */
	if (lrcu__tasks_task_file(tid, "wchan", buf, sizeof(buf)) < 0)
		return false;
	tn->blocked = buf[0] && strcmp(buf, "0") != 0;
	return true;
}

/* The rcu_tasks_qs() count of thread tid (threads lock held), or 0. */
static unsigned long qs_count(int tid, bool *found)
{
	struct lrcu_tasks_thread *t;

	for (t = lrcu__tasks_threads_first(); t; t = t->next) {
		if (t->tid == tid) {
			*found = true;
			/* Acquire pairs with lrcu_tasks_qs()'s release. */
			return smp_load_acquire(&t->qs);
		}
	}
	*found = false;
	return 0;
}

static void classic_snapshot(struct lrcu_tasks *tp)
{
	struct lrcu_tasks_holdout *h;
	struct task_now tn;
	struct dirent *de;
	bool found;
	DIR *d;
	int tid, i, self = lrcu__tid();

	d = opendir("/proc/self/task");
	if (!d)
		lrcu__fatal("%s: cannot list /proc/self/task", tp->name);
	while ((de = readdir(d))) {
		tid = atoi(de->d_name);
		if (tid <= 0 || tid == self || lrcu__kthread_tid(tid))
			continue;
		if (!task_look(tid, &tn) || tn.blocked)
			continue;	/* gone, or asleep: quiescent */
		h = lrcu__tasks_holdout_add(tp, tid);
		h->nvcsw = tn.nvcsw;
		lrcu__tasks_comm(tid, h->name, sizeof(h->name));
	}
	closedir(d);
	lrcu__tasks_threads_lock();
	for (i = 0; i < tp->nh; i++)
		tp->h[i].qs = qs_count(tp->h[i].tid, &found);
	lrcu__tasks_threads_unlock();
}

static void classic_scan(struct lrcu_tasks *tp)
{
	struct task_now tn;
	bool found;
	int i;

	lrcu__tasks_threads_lock();
	for (i = tp->nh - 1; i >= 0; i--) {
		struct lrcu_tasks_holdout *h = &tp->h[i];
		unsigned long qs = qs_count(h->tid, &found);

		if ((found && qs != h->qs) || !task_look(h->tid, &tn) ||
		    tn.nvcsw != h->nvcsw || tn.blocked)
			lrcu__tasks_holdout_drop(tp, i);
	}
	lrcu__tasks_threads_unlock();
}

static void classic_print(struct lrcu_tasks *tp, struct lrcu_stall_out *o, unsigned long now)
{
	unsigned long ms = (now - READ_ONCE(tp->gp_start_us)) / 1000;
	struct task_now tn = { 0, 0, false };
	int i;

	for (i = 0; i < tp->nh; i++) {
		struct lrcu_tasks_holdout *h = &tp->h[i];

		task_look(h->tid, &tn);
		lrcu__stall_holdout(o, -1, h->tid, h->name, ms, 0);
		lrcu__stall_printf(o, "rcu: \tP%d %s: %c nvcsw: %lu/%lu nivcsw: %lu holdout: 1 "
				   "(running %lu ms without a voluntary switch)\n",
				   h->tid, h->name, tn.blocked ? 'S' : 'R', h->nvcsw, tn.nvcsw,
				   tn.nivcsw, ms);
	}
}

const struct lrcu_tasks_gp_ops lrcu__tasks_classic_ops = {
	.snapshot = classic_snapshot,
	.scan = classic_scan,
	.print = classic_print,
	.first_wait_us = 100 * LRCU_JIFFY_US,	/* the kernel's init_fract, HZ / 10 */
};
