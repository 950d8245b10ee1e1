/* SPDX-License-Identifier: MIT */
/*
 * regorder.c - where the readers sit in an RCU's own registry.
 *
 * An RCU that numbers its CPUs (ops->thread_register_cpu: our library)
 * gets its readers placed over every group by the harness.  One that
 * allocates its own slots (a plugin, liburcu's registry, the toy types)
 * hands out positions in registration order, and if the readers always
 * registered first and the helper threads after, a grace period that
 * mishandles one particular position (the highest registered slot, the
 * last of a block ...) would always meet the same kind of thread there
 * and could survive every run.  So for such an RCU, with every run's
 * seed:
 *
 *  - at start, the readers register one at a time in a shuffled order,
 *    after a plan of "filler" registrations: none (readers first), all
 *    of them first (readers last: the helpers, which register after
 *    this, take the fillers' places below the readers), or interleaved
 *    (the helpers take the holes between readers);
 *  - during the run, every 0.5-1.5 s, every reader unregisters and comes
 *    back in a new shuffled order with a new plan of fillers, so that the
 *    readers move over the registry's positions, holes and top included.
 *    Not while the CPU-hotplug analogue runs (onoff.c drives the same
 *    requests; it moves readers too).
 *
 * A filler is a thread that registers, goes offline (an extended
 * quiescent state, as idle helpers are), and unregisters when the plan is
 * done.  Nothing here applies when the RCU limits its threads
 * (ops->thread_capacity): fillers would take the helpers' slots.
 */
#include <stdlib.h>
#include "torture.h"

#define REGORDER_MAX_FILLERS	64
#define REGORDER_ACK_US		30000000UL	/* as onoff.c's */

enum { PLAN_READERS_FIRST, PLAN_READERS_LAST, PLAN_INTERLEAVED };
static const char *const plan_name[] = {
	[PLAN_READERS_FIRST] = "readers first",
	[PLAN_READERS_LAST] = "readers last",
	[PLAN_INTERLEAVED] = "readers interleaved",
};

struct filler {
	pthread_t t;
	int registered;	/* 1 registered, -1 failed; atomic */
	int leave;	/* the plan is done; atomic */
};

static struct filler fillers[REGORDER_MAX_FILLERS];
static int nfillers;			/* the plan walker's */
static unsigned long reshuffles;	/* done during the run; atomic */

bool regorder_applies(void)
{
	/* A uniprocessor type's threads are set up by up.c: no fillers. */
	return cur_ops->thread_register && !cur_ops->thread_register_cpu &&
	       !(cur_ops->thread_capacity && cur_ops->thread_capacity() > 0) &&
	       !(cur_ops->flags & TORTURE_OPS_UP) && tp.nreaders > 0;
}

/* A reader, before it registers at start: wait for its turn. */
void regorder_reader_turn(struct torture_reader *r)
{
	if (!regorder_applies())
		return;
	/* Acquire pairs with plan_walk()'s release. */
	while (!smp_load_acquire(&r->reg_turn) && !torture_must_stop())
		torture_sleep_us(200);
}

/* ... and after it tried (a failure is the reader's to report). */
void regorder_reader_tried(struct torture_reader *r)
{
	smp_store_release(&r->reg_turn, 2);	/* pairs with admit_at_start()'s await */
}

static void *filler_fn(void *arg)
{
	struct filler *f = arg;

	if (cur_ops->thread_register()) {
		smp_store_release(&f->registered, -1);	/* pairs with filler_add() */
		return NULL;
	}
	if (cur_ops->thread_offline)
		cur_ops->thread_offline();
	smp_store_release(&f->registered, 1);	/* pairs with filler_add() */
	while (!smp_load_acquire(&f->leave))	/* fillers_leave()'s release */
		torture_sleep_us(200);
	if (cur_ops->thread_online)
		cur_ops->thread_online();
	cur_ops->thread_unregister();
	return NULL;
}

/* One more registration below whatever registers next; false if none. */
static bool filler_add(void)
{
	struct filler *f;

	if (nfillers == REGORDER_MAX_FILLERS)
		return false;
	f = &fillers[nfillers];
	f->registered = 0;
	f->leave = 0;
	if (pthread_create(&f->t, NULL, filler_fn, f))
		return false;
	nfillers++;
	/* Acquire pairs with filler_fn()'s release. */
	while (!smp_load_acquire(&f->registered))
		torture_sleep_us(100);
	return true;
}

static void fillers_leave(void)
{
	int i;

	for (i = 0; i < nfillers; i++)
		smp_store_release(&fillers[i].leave, 1);	/* pairs with filler_fn() */
	for (i = 0; i < nfillers; i++)
		pthread_join(fillers[i].t, NULL);
	nfillers = 0;
}

/* Wait until *p reads v (the reader's release), or the run stops. */
static bool await(int *p, int v)
{
	unsigned long start = torture_now_us();

	while (smp_load_acquire(p) != v) {	/* pairs with the reader's release */
		if (torture_must_stop() || torture_now_us() - start > REGORDER_ACK_US)
			return false;
		torture_sleep_us(100);
	}
	return true;
}

/*
 * Register the readers in a shuffled order among fillers, as `plan'
 * says; admit(r) lets reader r register and waits until it has.  Returns
 * the number of fillers placed.
 */
static int plan_walk(int plan, struct torture_random *rng,
		     bool (*admit)(struct torture_reader *r))
{
	long n = tp.nreaders, i, j, k, placed = 0, nf = 0;
	long *order = malloc((size_t)n * sizeof(*order));

	if (!order)
		return 0;
	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		j = (long)(torture_random(rng) % (unsigned long)(i + 1));
		k = order[i];
		order[i] = order[j];
		order[j] = k;
	}
	k = plan == PLAN_READERS_FIRST ? 0 :
	    1 + (long)(torture_random(rng) % (unsigned long)(n + 6));
	while (placed < n && !torture_must_stop()) {
		if (nf < k && (plan == PLAN_READERS_LAST || (torture_random(rng) & 1))) {
			nf += filler_add();
			if (nf < k && nfillers == REGORDER_MAX_FILLERS)
				k = nf;	/* no more room */
			continue;
		}
		if (!admit(&torture_readers[order[placed++]]))
			break;
	}
	free(order);
	return (int)nf;
}

static bool admit_at_start(struct torture_reader *r)
{
	smp_store_release(&r->reg_turn, 1);	/* pairs with regorder_reader_turn() */
	return await(&r->reg_turn, 2);
}

static bool admit_again(struct torture_reader *r)
{
	/* reader_onoff() registers again on ONLINE after UNREGISTERED. */
	smp_store_release(&r->onoff_req, ONOFF_ONLINE);	/* pairs with reader_onoff() */
	return await(&r->onoff_ack, ONOFF_ONLINE);
}

static void reshuffle(struct torture_random *rng)
{
	long i;
	int plan = (int)(torture_random(rng) % 3), nf;

	for (i = 0; i < tp.nreaders; i++) {
		struct torture_reader *r = &torture_readers[i];

		smp_store_release(&r->onoff_req, ONOFF_UNREGISTERED);	/* pairs with reader_onoff() */
		if (!await(&r->onoff_ack, ONOFF_UNREGISTERED)) {
			if (!torture_must_stop())
				torout(" regorder: reader %ld did not unregister", i);
			break;
		}
	}
	nf = plan_walk(plan, rng, admit_again);
	fillers_leave();
	/* Whoever did not come back (the run is stopping): online. */
	for (i = 0; i < tp.nreaders; i++)
		smp_store_release(&torture_readers[i].onoff_req, ONOFF_ONLINE);	/* ditto */
	torverbose(" regorder: readers registered again, %s, %d fillers", plan_name[plan], nf);
	atomic_inc(&reshuffles);	/* a count: orders nothing */
}

static void *regorder_thread(void *arg)
{
	struct torture_random rng;

	(void)arg;
	torture_random_init(&rng, 0x9000);
	while (!torture_must_stop()) {
		torture_hrtimeout_us(500000 + torture_random(&rng) % 1000000, 0, &rng);
		if (!torture_must_stop())
			reshuffle(&rng);
	}
	return NULL;
}

unsigned long regorder_reshuffles(void)
{
	return READ_ONCE(reshuffles);	/* a count */
}

/* After readers_start(), before the helpers start: the start's plan. */
int regorder_start(void)
{
	struct torture_random rng;
	int plan, nf;

	if (!regorder_applies())
		return 0;
	torture_random_init(&rng, 0x9001);
	plan = (int)(torture_random(&rng) % 3);
	nf = plan_walk(plan, &rng, admit_at_start);
	fillers_leave();
	torout(" regorder: %s registers its own slots: readers registered %s (%d fillers)%s",
	       cur_ops->name, plan_name[plan], nf,
	       tp.onoff_interval > 0 ? "; the CPU-hotplug analogue moves them during the run" :
	       "; they register again in a new order every 0.5-1.5 s");
	if (tp.onoff_interval > 0)
		return 0;
	return torture_spawn("rcu_torture_regorder", regorder_thread, NULL);
}
