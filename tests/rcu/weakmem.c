/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/weakmem.c - the weak-memory emulation of a `make WEAKMEM=1`
 * build (rcu/src/weakmem.c, docs/design/weakmem.md), with the classic
 * litmus shapes written with the library's helpers (<rcu/kernel.h>):
 *
 *   SB  x=1; r0=y  ||  y=1; r1=x     r0=r1=0: store-load reordering
 *   MP  d=1; f=1   ||  r0=f; r1=d    r0=1, r1=0: store-store reordering
 *   LB  r0=x; y=1  ||  r1=y; x=1     r0=r1=1: load-store reordering
 *
 * Each runs ITER times in each mode (weakmem.mode=0 TSO, 1 weak); the
 * verdicts are on counts of the outcome, never on a time.  The forbidden
 * outcome must appear where the mode allows it and no fence forbids it
 * (SB without smp_mb(); MP without release/acquire in the weak mode),
 * and never otherwise (SB with smp_mb() or smp_store_mb()/smp_load_mb(),
 * MP with release/acquire, MP in TSO, LB: the emulation delays no load).
 * Then own-load forwarding, a fully ordered read-modify-write, and the
 * membarrier() path (lrcu__heavy_fence()) draining other threads.
 *
 * Last, the library under the emulation: a reader's first section after
 * registering, its word store still buffered, must hold up a grace
 * period whose scans run before the heavy fence (rcutree.gp_defer_fence;
 * docs/design/weakmem.md, "The gp.c finding").
 */
#include <pthread.h>
#include <stdio.h>
#include <sched.h>
#include <time.h>
#include <stdlib.h>
#include <rcu/rcupdate.h>
#include <rcu/rcutree.h>
#include <rcu/kernel.h>
#include "tap.h"

#ifndef LRCU_WEAKMEM
int main(void)
{
	skip_all("the weak-memory emulation is in the make WEAKMEM=1 build only (build/weakmem)");
	return 0;
}
#else

void lrcu__heavy_fence(void);		/* rcu/src/membarrier.c */
extern int lrcu_has_membarrier;

#define ITER	400

enum shape { SB, SB_MB, SB_STORE_MB, MP, MP_REL_ACQ, LB };

static const char *const shape_name[] = {
	[SB] = "SB", [SB_MB] = "SB+smp_mb", [SB_STORE_MB] = "SB+smp_store_mb/smp_load_mb",
	[MP] = "MP", [MP_REL_ACQ] = "MP+release/acquire", [LB] = "LB",
};

static unsigned long x, y;
static int r[2];
static enum shape cur;
static pthread_barrier_t start, mid, done;

/* One side of the current shape: me 0 or 1; SB and LB are symmetric,
 * MP's side 0 writes and side 1 reads. */
static void side(int me)
{
	unsigned long *mine = me ? &y : &x, *theirs = me ? &x : &y;
	int spins = 0;

	switch (cur) {
	case SB:
		WRITE_ONCE(*mine, 1);
		r[me] = READ_ONCE(*theirs);
		break;
	case SB_MB:
		WRITE_ONCE(*mine, 1);
		smp_mb();	/* pairs with the other side's */
		r[me] = READ_ONCE(*theirs);
		break;
	case SB_STORE_MB:
		smp_store_mb(*mine, 1);	/* pairs with the other side's */
		r[me] = smp_load_mb(theirs);	/* with the stores */
		break;
	case MP:
		if (!me) {
			WRITE_ONCE(y, 1);	/* the data */
			WRITE_ONCE(x, 1);	/* the flag */
			break;
		}
		/* Wait for the flag (bounded), then read the data. */
		while (!(r[0] = (int)READ_ONCE(x)) && ++spins < 1000000)
			;
		r[1] = (int)READ_ONCE(y);
		break;
	case MP_REL_ACQ:
		if (!me) {
			WRITE_ONCE(y, 1);
			smp_store_release(&x, 1);	/* pairs with the acquire below */
			break;
		}
		while (!(r[0] = (int)smp_load_acquire(&x)) && ++spins < 1000000)
			;	/* pairs with the release above */
		r[1] = (int)READ_ONCE(y);
		break;
	case LB:
		r[me] = READ_ONCE(*mine);
		WRITE_ONCE(*theirs, 1);
		break;
	}
}

static int forbidden(void)
{
	switch (cur) {
	case SB: case SB_MB: case SB_STORE_MB:
		return r[0] == 0 && r[1] == 0;
	case MP: case MP_REL_ACQ:
		return r[0] == 1 && r[1] == 0;
	case LB:
		return r[0] == 1 && r[1] == 1;
	}
	return 0;
}

static void *other(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_barrier_wait(&start);
		if (__atomic_load_n(&cur, __ATOMIC_RELAXED) == (enum shape)-1)
			return NULL;
		side(1);
		pthread_barrier_wait(&mid);	/* both sides ran before either drains */
		smp_mb();	/* drain: the next round starts from memory */
		pthread_barrier_wait(&done);
	}
}

static pthread_t tid;

static int run(enum shape s)
{
	int n = 0;

	cur = s;
	for (int i = 0; i < ITER; i++) {
		WRITE_ONCE(x, 0);
		WRITE_ONCE(y, 0);
		smp_mb();	/* the zeroes are visible before the round */
		pthread_barrier_wait(&start);
		side(0);
		pthread_barrier_wait(&mid);
		smp_mb();	/* drain */
		pthread_barrier_wait(&done);
		n += forbidden();
	}
	return n;
}

static void set(const char *name, const char *v)
{
	char err[256];

	if (lrcu_param_set(name, v, err, sizeof(err))) {
		printf("Bail out! %s=%s: %s\n", name, v, err);
		exit(1);
	}
}

static void litmus(int mode)
{
	static const int allowed[2][6] = {
		/*           SB SB_MB SB_STORE_MB MP MP_REL_ACQ LB */
		[0] = {      1, 0,    0,          0, 0,         0 },	/* TSO */
		[1] = {      1, 0,    0,          1, 0,         0 },	/* weak */
	};

	set("weakmem.mode", mode ? "1" : "0");
	for (enum shape s = SB; s <= LB; s++) {
		int n = run(s);

		if (allowed[mode][s])
			ok(n > 0, "%s mode: %s: the reordered outcome appears (%d of %d)",
			   mode ? "weak" : "TSO", shape_name[s], n, ITER);
		else
			ok(n == 0, "%s mode: %s: the forbidden outcome never appears (%d of %d)",
			   mode ? "weak" : "TSO", shape_name[s], n, ITER);
	}
}

/* A store parked for up to a second: seen by its thread, not by others. */
static unsigned long parked;
static int parked_seen;

static void *park(void *arg)
{
	(void)arg;
	WRITE_ONCE(parked, 1);
	parked_seen = (int)READ_ONCE(parked);
	pthread_barrier_wait(&start);	/* stored */
	pthread_barrier_wait(&done);	/* the main thread looked */
	return NULL;
}

static void test_drains(void)
{
	pthread_t t;
	int before = 0, n;

	set("weakmem.delay_us", "1000000");
	/* Own loads see own stores; another thread's do not, until a
	 * membarrier() makes every thread's visible. */
	for (n = 0; n < 20; n++) {
		WRITE_ONCE(parked, 0);
		smp_mb();	/* drain the zero */
		pthread_create(&t, NULL, park, NULL);
		pthread_barrier_wait(&start);
		before += READ_ONCE(parked) == 0;
		if (!lrcu_has_membarrier)
			break;
		lrcu__heavy_fence();
		if (READ_ONCE(parked) != 1)
			break;
		pthread_barrier_wait(&done);
		pthread_join(t, NULL);
		if (parked_seen != 1)
			break;
	}
	if (n < 20) {
		pthread_barrier_wait(&done);
		pthread_join(t, NULL);
	}
	ok(n == 20 && parked_seen == 1, "own loads see own stores; after membarrier() (lrcu__heavy_fence()) every thread's store is visible (%d rounds%s)",
	   n, lrcu_has_membarrier ? "" : ", but this process has no membarrier()");
	ok(before > 10, "before it, another thread's parked store was not visible (%d of %d)", before, n);

	/* A fully ordered read-modify-write on the object of a pending store
	 * of another thread sees that store and is seen at once. */
	WRITE_ONCE(parked, 0);
	smp_mb();	/* drain the zero */
	pthread_create(&t, NULL, park, NULL);
	pthread_barrier_wait(&start);
	n = (int)READ_ONCE(parked);
	unsigned long old = xchg(&parked, 5);	/* fully ordered: the test's point */
	ok(old == 1 && READ_ONCE(parked) == 5,
	   "xchg() sees and replaces another thread's pending store (saw %d before, xchg returned %lu)", n, old);
	pthread_barrier_wait(&done);
	pthread_join(t, NULL);
	set("weakmem.delay_us", "2000");
}

/*
 * A freshly registered thread's word is 0 until its first section stores
 * one.  The section's store may still be buffered when a grace period
 * scans (only a compiler barrier follows it: membarrier() is the
 * updater's half), and the reader announces itself with a relaxed store
 * that, in the weak mode, may become visible first: an order arm64 allows
 * (a release orders what precedes it, not what follows).  The scans
 * before the heavy fence must not take that 0 for a word that sampled
 * the new grace period; within the first RCU_SEQ_WRAP_SOON grace periods
 * of a process (gp_seq starts below the wrap point) a sample of 0
 * compares as later than any of them.  Keep this test before anything
 * that runs many grace periods.
 */
#define FRESH_ROUNDS	60
#define FRESH_SECTION_MS 30

struct fresh {
	int started;	/* the reader is inside (relaxed: may pass its word) */
	int out;	/* the reader is about to leave its section */
};

static void *fresh_reader(void *arg)
{
	struct fresh *f = arg;
	struct timespec ts = { 0, FRESH_SECTION_MS * 1000000L };

	if (rcu_register_thread())
		return NULL;
	rcu_read_lock();
	WRITE_ONCE(f->started, 1);	/* relaxed on purpose: see above */
	nanosleep(&ts, NULL);
	smp_store_release(&f->out, 1);	/* pairs with the acquire after synchronize_rcu() */
	rcu_read_unlock();
	rcu_unregister_thread();
	return NULL;
}

static void test_fresh_reader(void)
{
	int early = 0, i;

	set("weakmem.mode", "1");
	for (i = 0; i < FRESH_ROUNDS; i++) {
		struct fresh f = { 0, 0 };
		pthread_t t;
		long spins = 0;

		pthread_create(&t, NULL, fresh_reader, &f);
		while (!READ_ONCE(f.started) && ++spins < 2000000000L)
			sched_yield();
		synchronize_rcu();
		early += !smp_load_acquire(&f.out);	/* pairs with fresh_reader()'s release */
		pthread_join(t, NULL);
	}
	ok(early == 0, "a fresh reader's first section, its word store still buffered, holds up "
	   "synchronize_rcu() (returned early %d of %d times)", early, FRESH_ROUNDS);
}

int main(void)
{
	plan(16);
	if (lrcu_init()) {
		printf("Bail out! lrcu_init failed\n");
		return 1;
	}
	/* Windows far wider than a barrier wake-up on a loaded machine. */
	set("weakmem.delay_us", "2000");
	test_fresh_reader();	/* first: within the first grace periods */
	pthread_barrier_init(&start, NULL, 2);
	pthread_barrier_init(&mid, NULL, 2);
	pthread_barrier_init(&done, NULL, 2);
	pthread_create(&tid, NULL, other, NULL);
	litmus(0);
	litmus(1);
	__atomic_store_n(&cur, (enum shape)-1, __ATOMIC_RELAXED);
	pthread_barrier_wait(&start);
	pthread_join(tid, NULL);
	test_drains();
	return tap_exit_status();
}
#endif
