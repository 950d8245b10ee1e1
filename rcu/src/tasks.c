/* SPDX-License-Identifier: MIT */
/*
 * tasks.c - the machinery RCU Tasks and RCU Tasks Rude share: callback
 * queues, the grace-period thread, synchronize, barrier, stall warnings,
 * and the per-thread records both flavors read.
 *
 * Theory of operation (docs/design/tasks.md has the why)
 *
 * Each flavor has rcupdate.rcu_task_enqueue_lim callback queues (one by
 * default), picked by the caller's CPU, and one grace-period thread,
 * started on the flavor's first use, as the kernel's rcu_tasks_kthread:
 * it takes every queued callback as one batch, runs one grace period for
 * it, invokes it, sleeps the kernel's gp_sleep (HZ/10) so that callbacks
 * batch up, and starts over.  A grace period is:
 *
 *   1. lrcu__heavy_fence(): every thread of the process executes a full
 *      barrier, so the removals made before the grace period are visible
 *      to whatever each thread runs from now on;
 *   2. the flavor's snapshot() of the threads it must wait for (holdouts);
 *   3. until none is left: sleep (the kernel's back-off: the flavor's
 *      first wait, one jiffy more each time, at most a second), scan()
 *      them, and warn of a stall every rcupdate.rcu_task_stall_timeout;
 *   4. lrcu__heavy_fence() again, so that whatever the holdouts did
 *      before their quiescent states is visible before the callbacks run.
 *
 * synchronize_*() queues a callback and waits for it (the kernel's
 * wait_rcu_gp()); rcu_barrier_*() queues one on every queue and waits for
 * them all: callbacks of a queue run in order, and a batch is invoked
 * before the next is taken, so that covers the batch in flight too.
 *
 * The thread records (struct lrcu_tasks_thread, in each thread's TLS) are
 * linked here the first time a thread uses a Rude marker or
 * rcu_tasks_qs(), and unlinked by a thread-specific-data destructor when
 * it exits, before its TLS goes away; grace periods read them under the
 * list lock.  Linking blocks signals so that a handler's first marker
 * cannot deadlock on the lock its own thread holds.
 *
 * Lifecycle: the GP threads are kthread.c's (parked for fork(), restarted
 * in the child, stopped by rcu_shutdown()); the batch in flight lives
 * here, so a restarted thread runs its grace period again.
 */
#include <fcntl.h>
#include <unistd.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "tasks_internal.h"

#define GP_SLEEP_US	(100 * LRCU_JIFFY_US)	/* the kernel's gp_sleep, HZ / 10 */
#define MAX_WAIT_US	(1000 * LRCU_JIFFY_US)	/* the back-off's top, HZ */

struct lrcu_tasks lrcu__tasks[LRCU_NR_TASKS_FLAVORS] = {
	[LRCU_TASKS] = {
		.name = "rcu_tasks", .kname = "rcu_tasks_kthre",
		.ops = &lrcu__tasks_classic_ops,
		.spawn_lock = PTHREAD_MUTEX_INITIALIZER,
	},
	[LRCU_TASKS_RUDE] = {
		.name = "rcu_tasks_rude", .kname = "rcu_tasks_rude_",
		.ops = &lrcu__tasks_rude_ops,
		.spawn_lock = PTHREAD_MUTEX_INITIALIZER,
	},
};

static const char *const gp_state_names[RTGS_NUM] = {
	"RTGS_INIT", "RTGS_WAIT_WAIT_CBS", "RTGS_WAIT_GP", "RTGS_PRE_WAIT_GP",
	"RTGS_SCAN_TASKLIST", "RTGS_POST_SCAN_TASKLIST", "RTGS_WAIT_SCAN_HOLDOUTS",
	"RTGS_SCAN_HOLDOUTS", "RTGS_POST_GP", "RTGS_WAIT_READERS", "RTGS_INVOKE_CBS",
	"RTGS_WAIT_CBS",
};

/* ------------------------------------------------------------------ */
/* Thread records */

__thread struct lrcu_tasks_thread lrcu_tasks_me;
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lrcu_tasks_thread *threads;	/* the list (threads_lock) */
static pthread_key_t threads_key;
static pthread_once_t threads_once = PTHREAD_ONCE_INIT;

void lrcu__tasks_threads_lock(void) { pthread_mutex_lock(&threads_lock); }
void lrcu__tasks_threads_unlock(void) { pthread_mutex_unlock(&threads_lock); }
struct lrcu_tasks_thread *lrcu__tasks_threads_first(void) { return threads; }

static void unlink_locked(struct lrcu_tasks_thread *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		threads = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->next = t->prev = NULL;
}

/* The thread exits: its record leaves the list before its TLS is freed.
 * A Rude region it left open ends with it. */
static void thread_exit(void *p)
{
	struct lrcu_tasks_thread *t = p;
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_mutex_lock(&threads_lock);
	unlink_locked(t);
	pthread_mutex_unlock(&threads_lock);
	t->bound = 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void threads_key_init(void)
{
	if (pthread_key_create(&threads_key, thread_exit))
		lrcu__fatal("RCU Tasks: pthread_key_create() failed");
}

void lrcu_tasks_bind(void)
{
	struct lrcu_tasks_thread *t = &lrcu_tasks_me;
	sigset_t all, old;

	if (t->bound)
		return;
	/* Signals blocked first: a handler's marker that interrupted us
	 * before they were would bind the thread itself, and one cannot
	 * interrupt us after. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_once(&threads_once, threads_key_init);
	if (!t->bound) {	/* a handler may have bound it meanwhile */
		if (pthread_setspecific(threads_key, t))
			lrcu__fatal("RCU Tasks: pthread_setspecific() failed");
		pthread_mutex_lock(&threads_lock);
		t->tid = lrcu__tid();
		t->prev = NULL;
		t->next = threads;
		if (threads)
			threads->prev = t;
		threads = t;
		pthread_mutex_unlock(&threads_lock);
		/* Owner only; a handler that interrupts us sees 0 or 1, and
		 * with signals blocked here it cannot. */
		t->bound = 1;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void lrcu_tasks_qs(void)
{
	if (unlikely(!lrcu_tasks_me.bound))
		lrcu_tasks_bind();
	/* Release: whatever the thread did under RCU Tasks protection is
	 * ordered before the count that tells a grace period it is done
	 * (pairs with the acquire load in tasks_classic.c's scan). */
	smp_store_release(&lrcu_tasks_me.qs, lrcu_tasks_me.qs + 1);
}

/* ------------------------------------------------------------------ */
/* Holdouts (GP thread only) */

ssize_t lrcu__tasks_task_file(int tid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

void lrcu__tasks_comm(int tid, char *name, size_t len)
{
	if (lrcu__tasks_task_file(tid, "comm", name, len) > 0)
		name[strcspn(name, "\n")] = '\0';
	else
		snprintf(name, len, "?");
}

struct lrcu_tasks_holdout *lrcu__tasks_holdout_add(struct lrcu_tasks *tp, int tid)
{
	struct lrcu_tasks_holdout *h;

	if (tp->nh == tp->h_cap) {
		int cap = tp->h_cap ? tp->h_cap * 2 : 64;

		h = realloc(tp->h, (size_t)cap * sizeof(*h));
		if (!h)
			lrcu__fatal("%s: out of memory for the holdout list", tp->name);
		tp->h = h;
		tp->h_cap = cap;
	}
	h = &tp->h[tp->nh++];
	memset(h, 0, sizeof(*h));
	h->tid = tid;
	return h;
}

void lrcu__tasks_holdout_drop(struct lrcu_tasks *tp, int i)
{
	tp->h[i] = tp->h[--tp->nh];
}

/* ------------------------------------------------------------------ */
/* The grace-period thread */

static void set_state(struct lrcu_tasks *tp, int s)
{
	WRITE_ONCE(tp->gp_state, s);	/* diagnostics only */
}

static long cbs_queued(struct lrcu_tasks *tp)
{
	long n = 0;
	int i;

	for (i = 0; i < READ_ONCE(tp->nq); i++)
		n += READ_ONCE(tp->q[i].n);	/* a statistic */
	return n;
}

/* Move every queued callback into the batch; false if there was none. */
static bool collect(struct lrcu_tasks *tp)
{
	int i;

	tp->batch = NULL;
	tp->batch_tail = &tp->batch;
	for (i = 0; i < tp->nq; i++) {
		struct lrcu_tasks_queue *q = &tp->q[i];

		pthread_mutex_lock(&q->lock);
		if (q->head) {
			*tp->batch_tail = q->head;
			tp->batch_tail = q->tail;
			q->head = NULL;
			q->tail = &q->head;
			WRITE_ONCE(q->n, 0);
		}
		pthread_mutex_unlock(&q->lock);
	}
	return tp->batch != NULL;
}

static void invoke(struct lrcu_tasks *tp)
{
	struct rcu_head *h = tp->batch, *next;

	set_state(tp, RTGS_INVOKE_CBS);
	tp->batch = NULL;
	while (h) {
		next = h->next;
		h->func(h);
		atomic_inc(&tp->n_cbs_invoked);	/* statistic: relaxed */
		h = next;
	}
}

/* Sleep us, or until the library asks its threads to stop (true). */
static bool nap(struct lrcu_tasks *tp, unsigned long us)
{
	uint32_t w = READ_ONCE(tp->scan_wake);	/* only kicks bump it */

	return lrcu__kthread_idle(&tp->scan_wake, w, (long)us) || lrcu__kthread_check();
}

static int src_print(void *arg, struct lrcu_stall_out *o, unsigned long now)
{
	struct lrcu_tasks *tp = arg;

	tp->ops->print(tp, o, now);
	return tp->nh;
}

static unsigned long src_gp_seq(void *arg)
{
	return READ_ONCE(((struct lrcu_tasks *)arg)->gp_seq);	/* see tasks_gp() */
}

static unsigned long src_cbs(void *arg)
{
	return (unsigned long)cbs_queued(arg);
}

static void stall_report(struct lrcu_tasks *tp, unsigned long now)
{
	const struct lrcu_stall_source src = {
		.name = tp->name, .print_holdouts = src_print,
		.gp_seq = src_gp_seq, .cbs_queued = src_cbs, .arg = tp,
	};

	lrcu__stall_report(&tp->stall, &src, now);
}

/* One grace period; false if the library stopped it (fork child or
 * shutdown: the batch stays for the next thread). */
static bool tasks_gp(struct lrcu_tasks *tp)
{
	unsigned long now = lrcu__now_us(), wait = tp->ops->first_wait_us;
	unsigned long last_report = now, last_info = now;
	long info = READ_ONCE(lrcu__params.task_stall_info), rtst;

	WRITE_ONCE(tp->gp_start_us, now);	/* diagnostics */
	set_state(tp, RTGS_PRE_WAIT_GP);
	/* Start fence: pairs with the readers' side of the flavor (a
	 * context switch's barriers, a Rude marker's lrcu_reader_fence()):
	 * what each thread runs after it sees the removals made before. */
	lrcu__heavy_fence();
	set_state(tp, RTGS_SCAN_TASKLIST);
	tp->nh = 0;
	tp->ops->snapshot(tp);
	set_state(tp, RTGS_POST_SCAN_TASKLIST);
	/* Only for the report's fields: the deadline is ours (below). */
	lrcu__stall_arm(&tp->stall, tp->gp_seq, now, false);
	while (tp->nh) {
		set_state(tp, RTGS_WAIT_SCAN_HOLDOUTS);
		if (nap(tp, wait))
			return false;
		if (wait < MAX_WAIT_US)
			wait += LRCU_JIFFY_US;
		set_state(tp, RTGS_SCAN_HOLDOUTS);
		tp->ops->scan(tp);
		if (!tp->nh)
			break;
		now = lrcu__now_us();
		rtst = READ_ONCE(lrcu__params.task_stall_timeout);	/* run-time parameter */
		if (rtst > 0 && now - last_report >= (unsigned long)rtst * LRCU_JIFFY_US) {
			last_report = now;
			stall_report(tp, now);
		} else if (info > 0 && now - last_info >= (unsigned long)info * LRCU_JIFFY_US) {
			fprintf(stderr, "rcu: %s: %s grace period number %lu (since boot) is %lu "
				"jiffies old.\n", __func__, tp->kname, READ_ONCE(tp->gp_seq),
				(now - READ_ONCE(tp->gp_start_us)) / LRCU_JIFFY_US);
			last_info = now;
			info *= READ_ONCE(lrcu__params.task_stall_info_mult);
		}
	}
	lrcu__stall_disarm(&tp->stall);
	set_state(tp, RTGS_POST_GP);
	/* End fence: pairs as the start fence; every holdout's accesses
	 * before its quiescent state are visible before the callbacks run. */
	lrcu__heavy_fence();
	/* Release: a reader of gp_seq (stats) sees the grace period done. */
	smp_store_release(&tp->gp_seq, tp->gp_seq + 1);
	return true;
}

static void *tasks_kthread(void *arg)
{
	struct lrcu_tasks *tp = arg;
	uint32_t w;

	for (;;) {
		if (lrcu__kthread_check())
			return NULL;
		if (!tp->batch) {
			/* Sample the wake word before looking at the queues:
			 * an enqueue after the look bumps it after the sample
			 * (its queue lock orders it after ours), so the idle
			 * returns at once.  Pairs with lrcu__wake() in
			 * lrcu_tasks_call(). */
			w = smp_load_acquire(&tp->wake);
			if (!collect(tp)) {
				set_state(tp, RTGS_WAIT_WAIT_CBS);
				if (lrcu__kthread_idle(&tp->wake, w, -1))
					return NULL;
				continue;
			}
		}
		set_state(tp, RTGS_WAIT_GP);
		if (!tasks_gp(tp))
			return NULL;
		invoke(tp);
		set_state(tp, RTGS_WAIT_CBS);
		/* The kernel's paranoid sleep: callbacks batch up meanwhile. */
		if (nap(tp, GP_SLEEP_US))
			return NULL;
	}
}

/* Start the flavor's thread on its first use. */
static void tasks_spawn(struct lrcu_tasks *tp)
{
	long lim;
	int i;

	/* Acquire pairs with the release below: the queues are set up. */
	if (likely(smp_load_acquire(&tp->spawned)))
		return;
	lrcu__init_once();
	pthread_mutex_lock(&tp->spawn_lock);
	if (!tp->spawned) {
		lim = READ_ONCE(lrcu__params.task_enqueue_lim);	/* fixed at start */
		tp->nq = lim > 0 ? (int)lim : 1;
		for (i = 0; i < tp->nq; i++) {
			if (!tp->q[i].tail) {
				pthread_mutex_init(&tp->q[i].lock, NULL);
				tp->q[i].tail = &tp->q[i].head;
			}
		}
		tp->batch = NULL;
		if (lrcu__spawn(tasks_kthread, tp, tp->kname))
			lrcu__fatal("%s: cannot start its grace-period thread", tp->name);
		smp_store_release(&tp->spawned, true);	/* see above */
	}
	pthread_mutex_unlock(&tp->spawn_lock);
}

/* ------------------------------------------------------------------ */
/* The update side */

static struct lrcu_tasks *flavor(enum lrcu_tasks_flavor f)
{
	if ((unsigned int)f >= LRCU_NR_TASKS_FLAVORS)
		lrcu__fatal("RCU Tasks: no flavor %d", (int)f);
	return &lrcu__tasks[f];
}

void lrcu_tasks_call(enum lrcu_tasks_flavor f, struct rcu_head *head, rcu_callback_t func)
{
	struct lrcu_tasks *tp = flavor(f);
	struct lrcu_tasks_queue *q;
	int cpu;

	tasks_spawn(tp);
	cpu = sched_getcpu();
	q = &tp->q[(cpu < 0 ? 0 : cpu) % tp->nq];	/* nq is fixed once spawned */
	head->next = NULL;
	head->func = func;
	pthread_mutex_lock(&q->lock);
	*q->tail = head;
	q->tail = &head->next;
	WRITE_ONCE(q->n, q->n + 1);	/* for unlocked statistics */
	pthread_mutex_unlock(&q->lock);
	atomic_inc(&tp->n_cbs_queued);	/* statistic: relaxed */
	lrcu__wake(&tp->wake);	/* pairs with tasks_kthread()'s sample */
}

/* Deadlocks the callers of the blocking calls would cause. */
static void check_blocking(struct lrcu_tasks *tp, enum lrcu_tasks_flavor f, const char *caller)
{
	if (lrcu__in_kthread())
		lrcu__fatal("%s() called from an RCU callback: it would wait for the "
			   "thread that runs it", caller);
	if (f == LRCU_TASKS_RUDE && (READ_ONCE(lrcu_tasks_me.rude) & LRCU_RUDE_DEPTH))
		lrcu__fatal("%s() called inside rcu_read_lock_tasks_rude(): it would wait "
			   "for its own region", caller);
	(void)tp;
}

struct tasks_waiter {
	struct rcu_head head;
	uint32_t done;		/* bumped by the callback (wake word) */
	int *left;		/* barrier: callbacks still to run */
};

static void waiter_cb(struct rcu_head *h)
{
	struct tasks_waiter *wt = (struct tasks_waiter *)(void *)h;

	/* The waiter's stack: once it sees the bump it may return, so the
	 * bump is our last access.  Fully ordered (lrcu__wake()): pairs with
	 * the waiter's load of the word. */
	lrcu__wake(&wt->done);
}

/* Wait until *word was bumped since val (the callback's lrcu__wake();
 * lrcu__futex_wait() itself sets the word's sleeper bit, so a spurious
 * return must not count as the bump). */
static void wait_word(uint32_t *word, uint32_t val)
{
	while (!lrcu__woken_since(word, val))
		lrcu__futex_wait(word, val, -1);
}

void lrcu_tasks_synchronize(enum lrcu_tasks_flavor f)
{
	struct lrcu_tasks *tp = flavor(f);
	struct tasks_waiter wt = { .done = 0 };
	uint32_t val;

	check_blocking(tp, f, f == LRCU_TASKS ? "synchronize_rcu_tasks" :
		       "synchronize_rcu_tasks_rude");
	val = READ_ONCE(wt.done);	/* our own, before anyone sees it */
	lrcu_tasks_call(f, &wt.head, waiter_cb);
	wait_word(&wt.done, val);
}

void lrcu_tasks_barrier(enum lrcu_tasks_flavor f)
{
	struct lrcu_tasks *tp = flavor(f);
	struct tasks_waiter wt[LRCU_TASKS_MAX_QUEUES];
	struct lrcu_tasks_queue *q;
	int i;

	check_blocking(tp, f, f == LRCU_TASKS ? "rcu_barrier_tasks" : "rcu_barrier_tasks_rude");
	tasks_spawn(tp);
	/* One callback on every queue, behind whatever it holds; the batch
	 * in flight is invoked before the one that takes them. */
	for (i = 0; i < tp->nq; i++) {
		q = &tp->q[i];
		wt[i].done = 0;
		wt[i].head.next = NULL;
		wt[i].head.func = waiter_cb;
		pthread_mutex_lock(&q->lock);
		*q->tail = &wt[i].head;
		q->tail = &wt[i].head.next;
		WRITE_ONCE(q->n, q->n + 1);	/* see lrcu_tasks_call() */
		pthread_mutex_unlock(&q->lock);
	}
	lrcu__wake(&tp->wake);	/* as in lrcu_tasks_call() */
	for (i = 0; i < tp->nq; i++)
		wait_word(&wt[i].done, 0);
}

/* ------------------------------------------------------------------ */
/* Diagnostics */

void lrcu_tasks_get_gp_data(enum lrcu_tasks_flavor f, int *flags, unsigned long *gp_seq)
{
	struct lrcu_tasks *tp = flavor(f);

	*flags = READ_ONCE(tp->gp_state);	/* diagnostics */
	*gp_seq = smp_load_acquire(&tp->gp_seq);	/* see tasks_gp() */
}

void lrcu_tasks_show(enum lrcu_tasks_flavor f, FILE *out)
{
	struct lrcu_tasks *tp = flavor(f);
	int s = READ_ONCE(tp->gp_state);	/* diagnostics */
	unsigned long start = READ_ONCE(tp->gp_start_us);

	fprintf(out, "%s: %s(%d) since start %lu jiffies ago, gp_seq %lu, %ld callbacks queued, "
		"%lu invoked, %s\n", tp->name, s >= 0 && s < RTGS_NUM ? gp_state_names[s] : "?", s,
		start ? (lrcu__now_us() - start) / LRCU_JIFFY_US : 0, src_gp_seq(tp),
		cbs_queued(tp), READ_ONCE(tp->n_cbs_invoked),
		/* Acquire: as tasks_spawn()'s fast check. */
		smp_load_acquire(&tp->spawned) ? "thread running" : "no thread yet");
}

/* ------------------------------------------------------------------ */
/* Lifecycle (lifecycle.c) */

unsigned long lrcu__tasks_shutdown_barrier(void)
{
	unsigned long n = 0;
	int f;

	for (f = 0; f < LRCU_NR_TASKS_FLAVORS; f++) {
		if (!smp_load_acquire(&lrcu__tasks[f].spawned))	/* see tasks_spawn() */
			continue;
		lrcu_tasks_barrier(f);
		n += READ_ONCE(lrcu__tasks[f].n_cbs_queued);	/* statistic */
	}
	return n;
}

void lrcu__tasks_stop(void)
{
	int f;

	for (f = 0; f < LRCU_NR_TASKS_FLAVORS; f++) {
		struct lrcu_tasks *tp = &lrcu__tasks[f];

		pthread_mutex_lock(&tp->spawn_lock);
		WRITE_ONCE(tp->spawned, false);	/* its thread is joined */
		free(tp->h);
		tp->h = NULL;
		tp->nh = tp->h_cap = 0;
		pthread_mutex_unlock(&tp->spawn_lock);
	}
}

void lrcu__tasks_fork(enum lrcu_fork_phase ph)
{
	struct lrcu_tasks_thread *t, *next;
	int f, i;

	for (f = 0; f < LRCU_NR_TASKS_FLAVORS; f++) {
		struct lrcu_tasks *tp = &lrcu__tasks[f];

		lrcu__fork_mutex(&tp->spawn_lock, ph);
		for (i = 0; i < tp->nq; i++)
			lrcu__fork_mutex(&tp->q[i].lock, ph);
	}
	lrcu__fork_mutex(&threads_lock, ph);
	if (ph != LRCU_FORK_CHILD)
		return;
	/* Only the forking thread exists now: the other records are gone
	 * with their threads (their regions ended with them). */
	for (t = threads; t; t = next) {
		next = t->next;
		if (t != &lrcu_tasks_me)
			unlink_locked(t);
	}
	if (lrcu_tasks_me.bound)
		lrcu_tasks_me.tid = lrcu__tid();
}
