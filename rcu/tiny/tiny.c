/* SPDX-License-Identifier: MIT */
/*
 * tiny.c - Tiny RCU: grace periods and callbacks for a group of threads
 * that share one CPU under SCHED_FIFO (up.c; docs/design/tiny.md).
 *
 * Theory of operation.  A thread of the group that runs is outside every
 * section of every other thread of the group: each of those gave the CPU
 * away by blocking or yielding, which readers never do inside a section.
 * So when a thread of the group outside its own sections looks, a grace
 * period has elapsed for everything removed before it looked:
 *
 *   synchronize_rcu()   checks that its caller is in the group and
 *                       outside a section (up.c), counts a grace period
 *                       and returns: the kernel's Tiny does the same.
 *   call_rcu()          pushes the callback on a lock-free stack (it may
 *                       be called inside a section, from any thread, and
 *                       from a signal handler) and wakes the callback
 *                       thread "rcu_tiny", the kernel's RCU softirq.
 *   rcu_tiny            runs only when every thread of the group is
 *                       outside its sections, so every callback on the
 *                       stack when it takes it has had its grace period,
 *                       those queued inside a section included (that
 *                       section ended before the queueing thread gave
 *                       the CPU away).  It counts a grace period and runs
 *                       them in the order they were queued, yielding every
 *                       64 callbacks and after each batch (the kernel's
 *                       cond_resched(): a callback that queues itself
 *                       again must not keep the CPU).
 *   polled cookies      a cookie is the grace-period count; it has
 *                       completed once the count moved (only a thread
 *                       outside every section moves it).  start_poll
 *                       wakes rcu_tiny, which moves it.
 *   rcu_barrier()       queues a callback of its own and sleeps until it
 *                       ran: rcu_tiny runs callbacks in order.
 *
 * Ordering: every thread that reads or moves the count runs on the one
 * CPU, which sees its own accesses in program order, and the kernel's
 * context switch between two threads is a full barrier; what remains is
 * to keep the compiler from moving accesses, which the markers' compiler
 * barriers and the atomics below do.  Threads outside the group (a
 * watchdog on another CPU) only read statistics.
 *
 * Expedited grace periods are normal ones (every one is instant), and
 * there is no lazy callback, no offloading, no stall warning, no
 * boosting: the kernel's Tiny RCU has none of them either.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tiny.h"

unsigned long lrcu_tiny_gp_seq;

static struct rcu_head *cb_stack;	/* pushed by call_rcu(), taken by rcu_tiny */
static unsigned int cb_wake;	/* futex: bumped to wake rcu_tiny */
static int cb_stop;		/* rcu_tiny: run what is queued, then exit */
static pthread_t cb_thread;

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static int started;		/* 1 running; under start_lock, read once set */
static int expedite_nesting;	/* rcu_expedite_gp() - rcu_unexpedite_gp() */
static int after_boot;		/* rcu_end_inkernel_boot() was called */

/* How many callbacks rcu_tiny runs before it yields. */
#define CB_YIELD_EVERY	64

static void futex_wait(unsigned int *uaddr, unsigned int val)
{
	syscall(SYS_futex, uaddr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(unsigned int *uaddr)
{
	syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void cb_thread_wake(void)
{
	/* Full: a push before it is seen by rcu_tiny once it sees the
	 * bump (pairs with the acquire load of cb_wake in rcu_tiny()). */
	(void)LRCU_FETCH_ADD(&cb_wake, 1U);
	futex_wake(&cb_wake);
}

/* A grace period: called only by a thread of the group outside every
 * section (see the top of this file). */
static void gp_advance(void)
{
	tiny_inc(&lrcu__tiny_stats.gps);
	/* Orders the caller's earlier removals before the new count for
	 * the pollers (the one CPU's program order does the rest). */
	(void)LRCU_FETCH_ADD(&lrcu_tiny_gp_seq, 4UL);
}

/* Callbacks whose func is an offset (kfree_rcu()) free their object. */
static void cb_invoke(struct rcu_head *h)
{
	rcu_callback_t f = h->func;

	if (READ_ONCE(lrcu__tiny_params.debug_objects))
		lrcu__tiny_dobj_deactivate(h);
	if ((uintptr_t)f < 4096)
		free((char *)h - (uintptr_t)f);
	else
		f(h);
}

/* Run one batch taken off the stack (newest first): oldest first. */
static unsigned long cb_run(struct rcu_head *list)
{
	struct rcu_head *fifo = NULL, *next;
	unsigned long n = 0;

	for (; list; list = next) {
		next = list->next;
		list->next = fifo;
		fifo = list;
	}
	lrcu_tiny_reader.flags |= LRCU_TINY_IN_CALLBACK;
	for (; fifo; fifo = next) {
		next = fifo->next;
		cb_invoke(fifo);
		tiny_inc(&lrcu__tiny_stats.cbs_invoked);
		if (!(++n % CB_YIELD_EVERY))
			sched_yield();	/* cond_resched(): outside any section */
	}
	lrcu_tiny_reader.flags &= ~(unsigned int)LRCU_TINY_IN_CALLBACK;
	return n;
}

static void *rcu_tiny(void *arg)
{
	char why[200];
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (lrcu__tiny_up_thread_ok(why, sizeof(why)))
		lrcu__tiny_fatal("rcu_tiny", "not in the group", why);	/* inherited: cannot happen */
	lrcu_tiny_reader.flags |= LRCU_TINY_CHECKED;
	for (;;) {
		/* Acquire pairs with cb_thread_wake()'s bump via the futex:
		 * a push made before a wake is seen below. */
		unsigned int seen = smp_load_acquire(&cb_wake);
		/* Acquire: pairs with the release push in lrcu_call(), so
		 * the callbacks' heads are seen initialised. */
		struct rcu_head *list = xchg_acquire(&cb_stack, NULL);
		unsigned long n;

		gp_advance();	/* we run: nobody is inside a section */
		if (list) {
			n = cb_run(list);
			tiny_inc(&lrcu__tiny_stats.cb_batches);
			if (n > READ_ONCE(lrcu__tiny_stats.cb_max_batch))
				WRITE_ONCE(lrcu__tiny_stats.cb_max_batch, n);	/* ours alone */
			/* A callback that queues itself again would keep us
			 * here forever: let the others run between batches. */
			sched_yield();
			continue;
		}
		if (READ_ONCE(cb_stop))	/* set before its wake; see lrcu_shutdown() */
			break;
		futex_wait(&cb_wake, seen);
	}
	return NULL;
}

/*
 * fork(): the child has the calling thread alone, without rcu_tiny; its
 * next use of the library starts a new one, which runs the callbacks
 * still queued (the child's copies).  fork() must not be called from a
 * callback, nor while another thread starts the library.
 */
static void atfork_child(void)
{
	WRITE_ONCE(started, 0);	/* the child's only thread */
	pthread_mutex_init(&start_lock, NULL);
}

static void atfork_register(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

int lrcu__tiny_start(void)
{
	static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
	char why[200];
	int rc = 0;

	if (smp_load_acquire(&started))	/* pairs with the release below */
		return 0;
	pthread_mutex_lock(&start_lock);
	if (!started) {
		if (lrcu__tiny_params_env()) {
			rc = -1;
		} else if (lrcu__tiny_up_init(why, sizeof(why))) {
			fprintf(stderr, "rcu: Tiny RCU cannot start: %s; every thread that reads "
				"or waits for a grace period must run SCHED_FIFO at one priority "
				"on one CPU (docs/design/tiny.md)\n", why);
			rc = -1;
		} else {
			pthread_once(&atfork_once, atfork_register);
			WRITE_ONCE(cb_stop, 0);
			/* rcu_tiny inherits our policy, priority and CPU. */
			rc = pthread_create(&cb_thread, NULL, rcu_tiny, NULL);
			if (rc) {
				fprintf(stderr, "rcu: cannot start rcu_tiny: %s\n", strerror(rc));
				rc = -1;
			} else {
				pthread_setname_np(cb_thread, "rcu_tiny");
				/* Release: the state above before the flag. */
				smp_store_release(&started, 1);
			}
		}
	}
	pthread_mutex_unlock(&start_lock);
	return rc;
}

int lrcu_init(void)
{
	return lrcu__tiny_start();
}

int lrcu_shutdown(void)
{
	pthread_mutex_lock(&start_lock);
	if (started) {
		WRITE_ONCE(cb_stop, 1);	/* before the wake; rcu_tiny drains first */
		cb_thread_wake();
		pthread_join(cb_thread, NULL);
		WRITE_ONCE(started, 0);	/* under start_lock: the next use restarts */
	}
	pthread_mutex_unlock(&start_lock);
	lrcu__tiny_dobj_free_all();
	lrcu_tiny_reader.flags &= ~(unsigned int)LRCU_TINY_REGISTERED;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Grace periods */

void lrcu_synchronize(enum lrcu_flavor f, const char *caller)
{
	(void)f;	/* rcu and rcu_sched: one flavor */
	lrcu__tiny_update_check(caller);
	gp_advance();
}

void lrcu_synchronize_expedited(enum lrcu_flavor f, const char *caller)
{
	lrcu_synchronize(f, caller);
}

unsigned long lrcu_get_state(enum lrcu_flavor f)
{
	(void)f;
	/* Full: the caller's earlier removals before the sample (pairs
	 * with gp_advance()'s). */
	return LRCU_LOAD_MB(&lrcu_tiny_gp_seq);
}

unsigned long lrcu_start_poll(enum lrcu_flavor f)
{
	unsigned long c = lrcu_get_state(f);

	if (lrcu__tiny_start())
		lrcu__tiny_fatal("start_poll_synchronize_rcu()", "Tiny RCU could not start", NULL);
	cb_thread_wake();	/* rcu_tiny's next run moves the count */
	return c;
}

unsigned long lrcu_start_poll_expedited(enum lrcu_flavor f)
{
	return lrcu_start_poll(f);
}

bool lrcu_poll_state(enum lrcu_flavor f, unsigned long cookie)
{
	unsigned long now;

	(void)f;
	if (cookie == RCU_GET_STATE_COMPLETED)
		return true;
	/* Full: the count's move before the caller's frees (pairs with
	 * gp_advance()'s). */
	now = LRCU_LOAD_MB(&lrcu_tiny_gp_seq);
	if (LRCU_TINY_INJECTED(LRCU_TINY_BUG_POLL_NOW))
		return (long)(now - cookie) >= 0;
	return now != cookie;
}

void lrcu_cond_sync(enum lrcu_flavor f, unsigned long cookie, const char *caller)
{
	if (!lrcu_poll_state(f, cookie))
		lrcu_synchronize(f, caller);
}

void lrcu_cond_sync_expedited(enum lrcu_flavor f, unsigned long cookie, const char *caller)
{
	lrcu_cond_sync(f, cookie, caller);
}

void lrcu_force_qs(enum lrcu_flavor f)
{
	(void)f;
	if (READ_ONCE(started))	/* a hint: nothing to force before start */
		cb_thread_wake();
}

void lrcu_expedite_gp(void) { tiny_inc(&expedite_nesting); }
void lrcu_unexpedite_gp(void) { (void)LRCU_FETCH_SUB_RELAXED(&expedite_nesting, 1); }

bool lrcu_gp_is_expedited(void)
{
	return READ_ONCE(expedite_nesting) > 0 || READ_ONCE(lrcu__tiny_params.rcu_expedited);
}

bool lrcu_gp_is_normal(void)
{
	return READ_ONCE(lrcu__tiny_params.rcu_normal) ||
	       (READ_ONCE(after_boot) && READ_ONCE(lrcu__tiny_params.rcu_normal_after_boot));
}

void lrcu_end_inkernel_boot(void) { WRITE_ONCE(after_boot, 1); }

/* No offloading in Tiny RCU (the kernel's has no rcu_nocbs either). */
int lrcu_nocb_cpu_offload(int cpu) { (void)cpu; return -EINVAL; }
int lrcu_nocb_cpu_deoffload(int cpu) { (void)cpu; return -EINVAL; }

/* ------------------------------------------------------------------ */
/* Callbacks */

void lrcu_call(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	struct rcu_head *old;

	(void)f;
	if (lrcu__tiny_start())
		lrcu__tiny_fatal("call_rcu()", "Tiny RCU could not start", NULL);
	head->func = func;
	if (READ_ONCE(lrcu__tiny_params.debug_objects) && !lrcu__tiny_dobj_activate(head))
		return;	/* a second call_rcu() on a queued head: dropped */
	tiny_inc(&lrcu__tiny_stats.cbs_queued);
	old = READ_ONCE(cb_stack);
	do {
		head->next = old;
		/* Release: the head's fields before the push; pairs with
		 * rcu_tiny's acquire exchange. */
	} while (!try_cmpxchg_release(&cb_stack, &old, head));
	cb_thread_wake();
}

void lrcu_call_hurry(enum lrcu_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	lrcu_call(f, head, func);	/* no lazy callbacks */
}

void lrcu_kfree_call(struct rcu_head *head, size_t offset)
{
	lrcu_call(LRCU_PREEMPT, head, (rcu_callback_t)(uintptr_t)offset);
}

struct barrier_cb {
	struct rcu_head head;
	unsigned int done;	/* futex */
};

static void barrier_done(struct rcu_head *h)
{
	struct barrier_cb *b = container_of(h, struct barrier_cb, head);

	/* Release: the callbacks before ours ran before the waiter goes
	 * on; pairs with the acquire load in lrcu_barrier(). */
	smp_store_release(&b->done, 1);
	futex_wake(&b->done);
}

void lrcu_barrier(enum lrcu_flavor f, const char *caller)
{
	struct barrier_cb b = { .done = 0 };

	lrcu__tiny_blocking_check(caller);
	tiny_inc(&lrcu__tiny_stats.barriers);
	lrcu_call(f, &b.head, barrier_done);
	while (!smp_load_acquire(&b.done))	/* pairs with barrier_done() */
		futex_wait(&b.done, 0);
}
