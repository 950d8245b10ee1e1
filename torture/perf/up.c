/* SPDX-License-Identifier: MIT */
/*
 * up.c - the perf programs on a uniprocessor RCU (TORTURE_OPS_UP: Tiny
 * RCU, make TINY=1; docs/design/tiny.md), as torture/up.c does it for
 * rcutorture.
 *
 * Tiny RCU's assumption is made true by the scheduler: the main thread
 * pins itself to one CPU (the first this process may use) and becomes
 * SCHED_FIFO at UP_PRIO before the RCU starts, and every thread it starts
 * inherits both.  Such a thread runs until it blocks or yields, so:
 *
 *   - no thread waits for another by spinning: the perf programs' waits
 *     block (the start gates, joins, rcu_barrier(), condition variables,
 *     sleeps) or, where a thread loops on its own work while others must
 *     run too (rcuscale's readers and writers, refscale's updater), it
 *     calls perf_up_yield() between iterations, outside any section: the
 *     kernel's cond_resched() on a non-preemptible uniprocessor.  Nothing
 *     timed includes a yield;
 *   - readers never block or yield inside a section (rcuscale's callback
 *     memory test holds grace periods off with the queueing thread's own
 *     section here, not a reader that blocks);
 *   - the measurement watchdog, which must see a thread that spins
 *     forever, runs at UP_PRIO + 1 on the same CPU (perf_up_watcher()):
 *     it preempts the group when it wakes and never reads nor waits for a
 *     grace period (the RCU would stop it);
 *   - "one per CPU" means one: perf_ncpus() is 1 and perf_pin() leaves
 *     every thread on the group's CPU.
 *
 * The figures are the uniprocessor's: what one CPU does when nothing
 * runs beside it.  Every JSON line says which RCU ran ("host": {"rcu":
 * "tiny" or "tree", "up_cpu": the one CPU, or null}).
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include "perf.h"

/* From torture/may_rt.c: SCHED_FIFO at prio tried, then undone. */
bool torture_may_rt(int prio);

#define UP_PRIO	1	/* the group's SCHED_FIFO priority, as rcutorture's */

static int up_cpu = -1;	/* the group's CPU once perf_up_setup() ran */

/* Whether the types of cli are uniprocessor ones: 1 all, 0 none, -1 a
 * mix (one CPU under SCHED_FIFO cannot hold the others' threads). */
static int up_types(const struct perf_cli *cli)
{
	int i, n = 0;

	for (i = 0; i < cli->ntypes; i++)
		n += !!(cli->types[i]->flags & TORTURE_OPS_UP);
	return !n ? 0 : n == cli->ntypes ? 1 : -1;
}

int perf_up_check(const struct perf_cli *cli)
{
	int up = up_types(cli);

	if (up < 0) {
		fprintf(stderr, "%s.scale_type: %s is a uniprocessor type (Tiny RCU): it cannot be "
			"measured beside the others, which need every CPU\n", cli->prog,
			cli->types[0]->flags & TORTURE_OPS_UP ? cli->types[0]->name :
			cli->types[cli->ntypes - 1]->name);
		return 2;
	}
	if (up && !torture_may_rt(UP_PRIO + 1)) {
		/* The last ": " starts the reason (bin/lib/perf.sh's skip). */
		fprintf(stderr, "%s: torture type %s: Tiny RCU needs its threads SCHED_FIFO on one "
			"CPU, refused here (CAP_SYS_NICE, run as root)\n", cli->prog,
			cli->types[0]->name);
		return 4;
	}
	return 0;
}

int perf_up_setup(const struct perf_cli *cli)
{
	struct sched_param sp = { .sched_priority = UP_PRIO };
	cpu_set_t set;
	int c;

	if (up_types(cli) <= 0)
		return 0;
	if (sched_getaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "%s: sched_getaffinity: %s\n", cli->prog, strerror(errno));
		return 4;
	}
	for (c = 0; c < CPU_SETSIZE && !CPU_ISSET(c, &set); c++)
		;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
		fprintf(stderr, "%s: cannot run on CPU %d under SCHED_FIFO %d: %s\n", cli->prog, c,
			UP_PRIO, strerror(errno));
		return 4;
	}
	up_cpu = c;
	fprintf(cli->table, "%s: Tiny RCU: every thread on CPU %d, SCHED_FIFO priority %d "
		"(the watchdog at %d)\n", cli->prog, c, UP_PRIO, UP_PRIO + 1);
	return 0;
}

bool perf_up(void)
{
	return up_cpu >= 0;	/* set by the main thread before any other starts */
}

void perf_up_yield(void)
{
	if (perf_up())
		sched_yield();
}

void perf_up_watcher(void)
{
	struct sched_param sp = { .sched_priority = UP_PRIO + 1 };

	if (perf_up())
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

void perf_up_json(struct jw *w)
{
#ifdef CONFIG_TINY_RCU
	jw_str(w, "rcu", "tiny");
#else
	jw_str(w, "rcu", "tree");
#endif
	/* The CPU every thread ran on, SCHED_FIFO UP_PRIO; null: as usual. */
	jw_num(w, "up_cpu", perf_up() ? up_cpu : NAN);
}
