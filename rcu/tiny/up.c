/* SPDX-License-Identifier: MIT */
/*
 * up.c - making Tiny RCU's assumption true, and checking it.
 *
 * The kernel's Tiny RCU runs on one CPU whose kernel is not preemptible:
 * a reader never gives the CPU away inside its section, so a grace
 * period is any moment where the thread that looks is outside a section.
 * In a process that holds when every thread that reads or waits for a
 * grace period (the group) runs SCHED_FIFO at one priority on one CPU:
 * such a thread runs until it blocks or yields, and readers must do
 * neither (docs/design/tiny.md has the whole argument, and what does not
 * break it: signal handlers, higher-priority threads that never read,
 * real-time throttling).
 *
 * The first thread that starts the library fixes the group's CPU and
 * priority; it must itself be SCHED_FIFO on exactly one CPU.  Each
 * thread is checked at its first read-side section or registration, and
 * at every synchronize_*() (whose instant answer relies on the
 * assumption); a thread that fails is refused (lrcu_init() and
 * rcu_register_thread() fail, a reader or synchronize_*() stops the
 * program: an RCU that went on would be wrong, not slow).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include "tiny.h"

__thread struct lrcu_tiny_reader lrcu_tiny_reader;

static int up_cpu = -1;		/* the group's CPU; set once, at start */
static int up_prio;		/* the group's SCHED_FIFO priority */

/* The calling thread's one CPU, or -1 (with why) if it may run on more. */
static int thread_cpu(char *why, size_t len)
{
	cpu_set_t set;
	int c;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(why, len, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	if (CPU_COUNT(&set) != 1) {
		snprintf(why, len, "the thread may run on %d CPUs (pin it to one: taskset -c N)",
			 CPU_COUNT(&set));
		return -1;
	}
	for (c = 0; !CPU_ISSET(c, &set); c++)
		;
	return c;
}

/* The calling thread's SCHED_FIFO priority, or -1 with why. */
static int thread_fifo_prio(char *why, size_t len)
{
	struct sched_param sp;
	int policy = sched_getscheduler(0);

	if (policy < 0 || sched_getparam(0, &sp)) {
		snprintf(why, len, "sched_getscheduler: %s", strerror(errno));
		return -1;
	}
	if ((policy & ~SCHED_RESET_ON_FORK) != SCHED_FIFO) {
		snprintf(why, len, "the thread is not SCHED_FIFO (policy %d: a thread left at "
			 "SCHED_OTHER would run while a SCHED_FIFO reader is throttled)",
			 policy & ~SCHED_RESET_ON_FORK);
		return -1;
	}
	return sp.sched_priority;
}

int lrcu__tiny_up_init(char *why, size_t len)
{
	int cpu = thread_cpu(why, len), prio;

	if (cpu < 0)
		return -1;
	prio = thread_fifo_prio(why, len);
	if (prio < 0)
		return -1;
	up_prio = prio;
	WRITE_ONCE(up_cpu, cpu);	/* read by the callers of start, after it */
	return 0;
}

int lrcu__tiny_up_cpu(void)
{
	return READ_ONCE(up_cpu);	/* set once at start */
}

int lrcu__tiny_up_thread_ok(char *why, size_t len)
{
	int cpu = thread_cpu(why, len), prio;

	if (cpu < 0)
		return -1;
	if (cpu != lrcu__tiny_up_cpu()) {
		snprintf(why, len, "the thread runs on CPU %d, the group on CPU %d", cpu,
			 lrcu__tiny_up_cpu());
		return -1;
	}
	prio = thread_fifo_prio(why, len);
	if (prio < 0)
		return -1;
	if (prio != up_prio) {
		snprintf(why, len, "the thread runs at SCHED_FIFO priority %d, the group at %d "
			 "(a higher one would preempt readers)", prio, up_prio);
		return -1;
	}
	return 0;
}

static void check_thread_or_die(const char *what)
{
	char why[200];

	if (lrcu__tiny_start())
		lrcu__tiny_fatal(what, "Tiny RCU could not start", NULL);
	if (lrcu__tiny_up_thread_ok(why, sizeof(why)))
		lrcu__tiny_fatal(what, "on a thread that breaks Tiny RCU's assumption "
				 "(docs/design/tiny.md)", why);
}

void lrcu_tiny_check_thread(void)
{
	check_thread_or_die("rcu_read_lock()");
	lrcu_tiny_reader.flags |= LRCU_TINY_CHECKED;
}

void lrcu__tiny_blocking_check(const char *caller)
{
	if (lrcu_tiny_reader.nesting || lrcu_tiny_reader.sched_nesting)
		lrcu__tiny_fatal(caller, "called inside a read-side critical section", NULL);
	if (lrcu_tiny_reader.flags & LRCU_TINY_IN_CALLBACK)
		lrcu__tiny_fatal(caller, "called from an RCU callback", NULL);
}

void lrcu__tiny_update_check(const char *caller)
{
	lrcu__tiny_blocking_check(caller);
	check_thread_or_die(caller);
}

/* ------------------------------------------------------------------ */
/* Threads: registration only checks (no slots, nobody waits for a
 * thread); offline only makes rcu_is_watching() false. */

int lrcu_register_thread(void)
{
	char why[200];

	if (lrcu_tiny_reader.flags & LRCU_TINY_REGISTERED) {
		errno = EBUSY;
		return -1;
	}
	if (lrcu__tiny_start())
		return -1;
	if (lrcu__tiny_up_thread_ok(why, sizeof(why))) {
		fprintf(stderr, "rcu: rcu_register_thread(): %s (Tiny RCU: docs/design/tiny.md)\n",
			why);
		errno = EPERM;
		return -1;
	}
	lrcu_tiny_reader.flags |= LRCU_TINY_REGISTERED | LRCU_TINY_CHECKED;
	return 0;
}

/* The one CPU is 0, as the kernel numbers a uniprocessor's. */
int lrcu_register_thread_cpu(int cpu)
{
	if (cpu != 0) {
		errno = EINVAL;
		return -1;
	}
	return lrcu_register_thread();
}

int lrcu_unregister_thread(void)
{
	if (!(lrcu_tiny_reader.flags & LRCU_TINY_REGISTERED)) {
		errno = EINVAL;
		return -1;
	}
	lrcu_tiny_reader.flags &= ~(unsigned int)(LRCU_TINY_REGISTERED | LRCU_TINY_OFFLINE);
	return 0;
}

void lrcu_thread_offline(void)
{
	lrcu_tiny_reader.flags |= LRCU_TINY_OFFLINE;
}

void lrcu_thread_online(void)
{
	lrcu_tiny_reader.flags &= ~(unsigned int)LRCU_TINY_OFFLINE;
}

int lrcu_thread_slot(void)
{
	return lrcu_tiny_reader.flags & LRCU_TINY_REGISTERED ? 0 : -1;
}
