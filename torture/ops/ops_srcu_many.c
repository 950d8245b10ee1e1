/* SPDX-License-Identifier: MIT */
/*
 * ops_srcu_many.c - "srcum": SRCUM_DOMAINS SRCU domains at once.
 *
 * Each read enters a random domain (nested extendables: two random ones);
 * a grace period of this type is a grace period of every domain: sync()
 * asks all of them at once (start_poll_synchronize_srcu(), so the
 * srcu_worker drives hundreds of domains side by side) and polls each,
 * exp_sync() runs synchronize_srcu_expedited() on each in turn, call()
 * posts callbacks in batches, one call_srcu() on every domain a batch (see
 * below), and cb_barrier() waits for the batches, then runs srcu_barrier()
 * on every domain.  With the library's other domains, the ids span two
 * pages of the per-thread counters.  Readers are not registered.
 */
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include "ops_srcu.h"
#include "builtin.h"

#define SRCUM_DOMAINS	300

static struct srcu_struct srcum_dom[SRCUM_DOMAINS];
static __thread unsigned long srcum_rng;	/* per-thread xorshift */

static int srcum_init(void)
{
	int i;

	if (rcut_init())
		return -1;
	for (i = 0; i < SRCUM_DOMAINS; i++)
		if (lrcu_init_srcu_struct(&srcum_dom[i], "srcum", 0)) {
			fprintf(stderr, "srcum: out of memory\n");
			return -1;
		}
	return 0;
}

static int srcum_pick(void)
{
	unsigned long x = srcum_rng ? srcum_rng : (unsigned long)(uintptr_t)&srcum_rng | 1;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	srcum_rng = x;	/* this thread only (a signal handler's pick may repeat one) */
	return (int)(x % SRCUM_DOMAINS);
}

static int srcum_lock(void)
{
	int d = srcum_pick();

	return d << 2 | srcu_read_lock(&srcum_dom[d]);
}

static void srcum_unlock(int v)
{
	srcu_read_unlock(&srcum_dom[v >> 2], v & 3);
}

static void *srcum_deref(void *const *pp)
{
	return srcu_dereference_check(*pp, &srcum_dom[0], 1);	/* some domain is held */
}

static TORTURE_READ_SECTION(srcum_read_section, srcum_lock, srcum_unlock, srcum_deref)

static void srcum_sync(void)
{
	unsigned long c[SRCUM_DOMAINS];
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++)
		c[i] = start_poll_synchronize_srcu(&srcum_dom[i]);
	for (i = 0; i < SRCUM_DOMAINS; i++)
		while (!poll_state_synchronize_srcu(&srcum_dom[i], c[i]))
			sched_yield();
}

static void srcum_exp_sync(void)
{
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++)
		synchronize_srcu_expedited(&srcum_dom[i]);
}

/*
 * Callbacks go in batches: call() adds to the open batch; a batch is sent
 * (one call_srcu() on every domain) when the one in flight has come back,
 * or at once if none is in flight; when the last of its heads has run,
 * its callbacks are invoked and the open batch is sent.  Every callback
 * was added before its batch was sent, so each domain's grace period
 * covers the readers that domain had at call() time.  Memory stays
 * bounded (two batches) however many callbacks are posted, and the
 * srcu_worker drives the 300 domains' grace periods side by side.
 */
struct srcum_batch {
	struct srcum_head {
		struct rcu_head rh;
		struct srcum_batch *b;
	} head[SRCUM_DOMAINS];
	int left;			/* heads still to run; atomic */
	unsigned long seq;		/* batch number */
	struct torture_cb *cbs;		/* linked through rcu_space[1] */
};

static pthread_mutex_t srcum_mutex = PTHREAD_MUTEX_INITIALIZER;	/* the fields below */
static pthread_cond_t srcum_back = PTHREAD_COND_INITIALIZER;	/* a batch came back */
static struct srcum_batch *srcum_open;		/* collecting */
static bool srcum_in_flight;			/* a batch was sent */
static unsigned long srcum_seq, srcum_back_seq;	/* last opened / come back */

static void srcum_head_cb(struct rcu_head *h);

/* Send the open batch, if any and none is in flight (srcum_mutex held). */
static void srcum_send_locked(void)
{
	struct srcum_batch *b = srcum_open;
	int i;

	if (!b || srcum_in_flight)
		return;
	srcum_open = NULL;
	srcum_in_flight = true;
	/* Relaxed: call_srcu() orders it before any head runs. */
	WRITE_ONCE(b->left, SRCUM_DOMAINS);
	for (i = 0; i < SRCUM_DOMAINS; i++) {
		b->head[i].b = b;
		call_srcu(&srcum_dom[i], &b->head[i].rh, srcum_head_cb);
	}
}

static void srcum_head_cb(struct rcu_head *h)
{
	struct srcum_batch *b = LRCU_CONTAINER_OF(h, struct srcum_head, rh)->b;
	struct torture_cb *cb, *next;

	/* Fully ordered: the last one sees every head's callback done. */
	if (atomic_dec_return(&b->left))
		return;
	for (cb = b->cbs; cb; cb = next) {
		next = cb->rcu_space[1];
		cb->func(cb);	/* may call() again: into the open batch */
	}
	pthread_mutex_lock(&srcum_mutex);
	srcum_in_flight = false;
	srcum_back_seq = b->seq;
	pthread_cond_broadcast(&srcum_back);
	srcum_send_locked();
	pthread_mutex_unlock(&srcum_mutex);
	free(b);
}

static void srcum_call(struct torture_cb *cb)
{
	pthread_mutex_lock(&srcum_mutex);
	if (!srcum_open) {
		srcum_open = calloc(1, sizeof(*srcum_open));
		if (!srcum_open)
			abort();
		srcum_open->seq = ++srcum_seq;
	}
	cb->rcu_space[1] = srcum_open->cbs;
	srcum_open->cbs = cb;
	srcum_send_locked();
	pthread_mutex_unlock(&srcum_mutex);
}

/* Every callback posted before: the batches holding them came back. */
static void srcum_cb_barrier(void)
{
	unsigned long target;
	int i;

	pthread_mutex_lock(&srcum_mutex);
	target = srcum_seq;
	/* Batches come back in order; "before", not "!=": a later batch may
	 * come back before we wake (concurrent barriers hung on that). */
	while ((long)(srcum_back_seq - target) < 0)
		pthread_cond_wait(&srcum_back, &srcum_mutex);
	pthread_mutex_unlock(&srcum_mutex);
	for (i = 0; i < SRCUM_DOMAINS; i++)
		srcu_barrier(&srcum_dom[i]);	/* the heads' own last steps */
}

static unsigned long srcum_gps(void)
{
	return srcu_batches_completed(&srcum_dom[SRCUM_DOMAINS - 1]);	/* every GP covers it */
}

static void srcum_stats(FILE *out)
{
	struct lrcu_srcu_stats st;
	unsigned long gps = 0, open = 0, lo = ULONG_MAX, hi = 0;
	int i;

	for (i = 0; i < SRCUM_DOMAINS; i++) {
		lrcu_srcu_get_stats(&srcum_dom[i], &st);
		gps += st.gps_completed;
		open += st.readers[0] + st.readers[1];
		lo = st.id < lo ? st.id : lo;
		hi = st.id > hi ? st.id : hi;
	}
	fprintf(out, "srcum: %d domains (ids %lu..%lu): %lu grace periods in all, %lu readers "
		"inside now\n", SRCUM_DOMAINS, lo, hi, gps, open);
}

/* One protecting entry, as for srcu (ops_srcu.c). */
static const struct torture_read_flavor srcum_flavors[] = {
	{ "SRCUM_1", srcum_lock, srcum_unlock, 1 },
	{ "SRCUM_2", srcum_lock, srcum_unlock, 0 },
};

const struct torture_ops srcum_ops = {
	SRCUT_BASE,
	.name = "srcum",
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.init = srcum_init,
	.readlock = srcum_lock,
	.readunlock = srcum_unlock,
	.dereference = srcum_deref,
	.read_section = srcum_read_section,
	.read_flavors = srcum_flavors,
	.n_read_flavors = 2,
	.gps_completed = srcum_gps,
	.sync = srcum_sync,
	.exp_sync = srcum_exp_sync,
	.call = srcum_call,
	.cb_barrier = srcum_cb_barrier,
	.stats = srcum_stats,
	.gp_state = srcum_stats,
};
