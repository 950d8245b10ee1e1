/* SPDX-License-Identifier: MIT */
/*
 * updown.c - up/down readers (rcutorture.n_up_down; the kernel's
 * rcu_torture_updown()): read-side sections that one thread begins and
 * another ends.
 *
 * rcu_torture_updown keeps n_up_down sections open: for each free slot it
 * calls ops->down_read(), dereferences the current element and starts the
 * read's checks, then hands the slot over with a due time, and sleeps one
 * to two milliseconds between rounds.  rcu_torture_updown_end (the
 * kernel's hrtimer handler) ends each section once it is due: the read's
 * last checks, then ops->up_read() on its thread, not the one that began
 * it.  A section lasts a random 0 to 1 ms, or 200 ms when that draw is
 * under 10 us, as in the kernel.  The checks are a reader's (reader.c:
 * Reader Pipe, Reader Batch, the oracle), counted in the same histograms,
 * so a down_read() that holds off nothing fails the run as a broken
 * rcu_read_lock() does.  At the end of the run every open section is
 * ended before the threads are joined.
 */
#include <sched.h>
#include <stdlib.h>
#include "torture.h"

/* A slot: free, or a section begun and not yet ended. */
struct updown {
	int busy;			/* 1 from the begin to the end; atomic */
	int idx;			/* what up_read() needs */
	unsigned long due_us;		/* when the section is to end */
	struct read_check rc;		/* the read's checks */
};

#define UPDOWN_WHO	(-3)		/* the readers' number in reports */

static struct updown *slots;
static long nslots;
static int begins_done;		/* rcu_torture_updown stopped; atomic */

static void *updown_deref(void *const *pp)
{
	return OPS_HAS(dereference_updown) ? cur_ops->dereference_updown(pp) :
					     cur_ops->dereference(pp);
}

/* The kernel's: a random 0..0xfffff ns, 200 ms below 10 us. */
static unsigned long updown_len_us(struct torture_random *rng)
{
	unsigned long us = (torture_random(rng) & 0xfffff) / 1000;

	return us < 10 ? 200000 : us;
}

/* Begin a section in a free slot; false if there is no element yet. */
static bool updown_begin(struct updown *u, struct torture_random *rng)
{
	u->idx = cur_ops->down_read();
	if (!read_check_begin(&u->rc, updown_deref, UPDOWN_WHO)) {
		cur_ops->up_read(u->idx);
		return false;
	}
	u->due_us = torture_now_us() + updown_len_us(rng);
	/* Release: the slot's fields before the ender sees it busy; pairs
	 * with updown_scan()'s acquire. */
	smp_store_release(&u->busy, 1);
	return true;
}

static void *rcu_torture_updown(void *arg)
{
	struct torture_random rng;
	long i;

	(void)arg;
	torture_random_init(&rng, 0x7000);
	torverbose(" rcu_torture_updown task started");
	while (!torture_must_stop()) {
		for (i = 0; i < nslots && !torture_must_stop(); i++)
			/* Acquire pairs with updown_end()'s release: the ender
			 * is done with the slot. */
			if (!smp_load_acquire(&slots[i].busy) && !updown_begin(&slots[i], &rng))
				break;	/* the writer has not started yet */
		torture_hrtimeout_us(1000, 1000, &rng);
		stutter_wait("rcu_torture_updown");
	}
	/* Release: the last begins before the ender's final sweep; pairs with
	 * its acquire. */
	smp_store_release(&begins_done, 1);
	torverbose(" rcu_torture_updown task stopping");
	return NULL;
}

/* End a busy slot's section, on this thread: the checks, up_read(), the count. */
static void updown_end(struct updown *u)
{
	read_check_end(&u->rc, UPDOWN_WHO);
	cur_ops->up_read(u->idx);
	read_check_record(&u->rc);
	STAT_INC(tc.updown_reads);
	/* Release: done with the slot before it is reused; pairs with
	 * rcu_torture_updown()'s acquire. */
	smp_store_release(&u->busy, 0);
}

/* End the sections that are due (all with `all'); when the next is due. */
static unsigned long updown_scan(bool all)
{
	unsigned long now = torture_now_us(), next = now + 1000;
	long i;

	for (i = 0; i < nslots; i++) {
		struct updown *u = &slots[i];

		/* Acquire pairs with updown_begin()'s release. */
		if (!smp_load_acquire(&u->busy))
			continue;
		if (all || u->due_us <= now)
			updown_end(u);
		else if (u->due_us < next)
			next = u->due_us;
	}
	return next;
}

static void *rcu_torture_updown_end(void *arg)
{
	unsigned long next, now;
	bool last;

	(void)arg;
	do {
		/* Acquire pairs with rcu_torture_updown()'s release. */
		last = smp_load_acquire(&begins_done);
		next = updown_scan(last);
		now = torture_now_us();
		if (torture_must_stop())
			sched_yield();	/* the sleep would return at once */
		else if (next > now)
			torture_sleep_us(next - now);
	} while (!last);
	return NULL;
}

/*
 * Can this type's up/down readers run with the reader flavors asked for?
 * The kernel's srcu_torture_have_up_down(): reader_flavor 0 counts as
 * the normal flavor.
 */
static bool updown_possible(void)
{
	unsigned int rf = tp.reader_flavor ? (unsigned int)tp.reader_flavor : 1;

	return OPS_HAS(down_read) && OPS_HAS(up_read) && (cur_ops->have_up_down & rf);
}

void updown_adjust(void)
{
	if (tp.n_up_down <= 0 || updown_possible())
		return;
	if (!params_given("n_up_down"))
		;	/* the kernel's default: none for such a type, quietly */
	else if (!OPS_HAS(down_read) || !cur_ops->have_up_down)
		params_unhonour("n_up_down", "torture_type=%s has no up/down readers",
				cur_ops->name);
	else
		params_unhonour("n_up_down", "torture_type=%s has no up/down readers with "
				"reader_flavor=%#lx", cur_ops->name, tp.reader_flavor);
	tp.n_up_down = 0;	/* the kernel's default for such a type: none */
}

int updown_start(void)
{
	if (tp.n_up_down <= 0)
		return 0;
	nslots = tp.n_up_down;
	slots = calloc((size_t)nslots, sizeof(*slots));
	if (!slots)
		return -1;
	if (torture_spawn("rcu_torture_updown", rcu_torture_updown, NULL))
		return -1;
	return torture_spawn("rcu_torture_updown_end", rcu_torture_updown_end, NULL);
}
