/* SPDX-License-Identifier: MIT */
/*
 * boost.c - real-time RCU threads (rcutree.kthread_prio) and RCU priority
 * boosting (rcutree.rcu_boost, the kernel's CONFIG_RCU_BOOST).
 *
 * Theory of operation
 *
 * A reader preempted inside an rcu_read_lock() section holds up every
 * grace period that began before its section, for as long as it does not
 * run: behind real-time threads that keep its CPU busy, forever.  The
 * kernel's answer, which this is, has two parts.
 *
 * Real-time RCU threads.  With rcutree.kthread_prio=N (1..99) the
 * library's threads (each flavor's grace-period thread, its callback
 * thread, the rcuo threads and the booster; not srcu_worker, which in the
 * kernel is a workqueue) run SCHED_FIFO at priority N (kthread.c, as
 * they start), so that a grace period makes progress beside real-time
 * threads of lower priority.  Then: every grace period, expedited ones
 * included, is driven by the grace-period thread (tree.c's
 * lrcu__callers_drive()): a caller of synchronize_*() driving one could
 * be preempted while it holds ->gp_mutex, and nothing would lend it the
 * thread's priority.  And the locks the grace-period and callback
 * threads share with ordinary threads (the rcu_node locks, the callback
 * locks, ->gp_wq_lock, the slots' lock) inherit priority (lock.h,
 * lrcu__mutex_init()): the kernel's are raw spinlocks, whose holder
 * cannot be preempted.  Setting a thread SCHED_FIFO needs CAP_SYS_NICE
 * or an RLIMIT_RTPRIO of at least N; without, the threads stay ordinary,
 * rcu_get_gp_kthreads_prio() says 0, and a note says why, once.
 *
 * Boosting (rcu flavor only, as in the kernel: rcu_sched readers are
 * the spans between quiescent states, which nothing can boost).  A grace
 * period that has lasted rcutree.rcu_boost_delay ms (the kernel's
 * CONFIG_RCU_BOOST_DELAY, 500) wakes the booster, rcub/0, which looks
 * for a holdout inside a section that began before the grace period,
 * and lends it its own priority until that reader's outermost
 * rcu_read_unlock(), as the kernel's rcub threads do through an rt_mutex
 * the reader is made to own: here a PI futex, one per thread slot
 * (struct lrcu_slot's ->boost_pi), which the booster makes the reader
 * own (stores the reader's thread id into it) and then locks
 * (FUTEX_LOCK_PI): the kernel runs the reader at the booster's priority
 * until the reader's unlock (lrcu__boost_unlock(), from the outermost
 * rcu_read_unlock()'s slow path) hands the futex over, which ends the
 * loan.  Then the booster lets go and looks for the next holdout.
 *
 * The handshake (B: store-buffering).  The booster sets the reader's
 * ->need_qs and the futex word, fences (the grace period's heavy fence,
 * which is the reader's fence too), then loads the reader's word; the
 * reader stores its word at its outermost unlock, fences (G, its half of
 * the same pair), then loads ->need_qs and, on the slow path, the futex
 * word.  Either the booster sees the reader quiescent (and takes its
 * word back), or the reader sees ->need_qs and the futex and hands it
 * over: a reader that already left cannot be made to own the futex, and
 * so be boosted outside any section.  The booster waits at most
 * BOOST_WAIT_MS at a time in FUTEX_LOCK_PI, then takes its word back and
 * looks again, so that it parks for a fork() and stops when asked.
 */
#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define BOOST_WAIT_MS	100	/* longest FUTEX_LOCK_PI wait at a time */

static struct {
	bool on;			/* boosting (set at start) */
	unsigned long gstart;		/* grace period to boost for: the
					 * driver's hooks (atomic) */
	unsigned long boost_at_us;	/* when its delay is over (atomic) */
	unsigned long kicked;		/* the booster was woken for it (atomic) */
	uint32_t wake;			/* the booster's wake word */
	unsigned long n_boosts;		/* readers boosted (booster only) */
	int last_slot;			/* the last one: its slot and grace */
	unsigned long last_gstart;	/* period (booster only) */
} b;

/* ------------------------------------------------------------------ */
/* Real-time RCU threads */

/*
 * May this process make its threads SCHED_FIFO at priority prio?  Tried
 * on the calling thread and put back: CAP_SYS_NICE or RLIMIT_RTPRIO are
 * not the whole answer (a container's seccomp filter or a cgroup without
 * real-time runtime refuse it too), and the attempt is.
 */
static bool rt_allowed(long prio)
{
	struct sched_param old, sp = { .sched_priority = (int)prio };
	int policy;

	if (pthread_getschedparam(pthread_self(), &policy, &old) ||
	    pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return false;
	pthread_setschedparam(pthread_self(), policy, &old);
	return true;
}

/*
 * At start, before any library thread or lock: settle the threads'
 * priority and the locks' protocol.  As the kernel's
 * sanitize_kthread_prio(): boosting needs real-time RCU threads, so
 * rcu_boost raises a priority of 0 to 1.
 */
void lrcu__boost_setup(void)
{
	long prio = lrcu__params.kthread_prio;
	bool boost = lrcu__params.rcu_boost;

	if (boost && prio < 1) {
		fprintf(stderr, "rcu: rcutree.kthread_prio=%ld raised to 1: boosting "
			"(rcutree.rcu_boost=1) needs real-time RCU threads\n", prio);
		prio = 1;
	}
	if (prio > 0 && !rt_allowed(prio)) {
		fprintf(stderr, "rcu: rcutree.kthread_prio=%ld: this process may not make threads "
			"SCHED_FIFO (refused: it needs CAP_SYS_NICE or RLIMIT_RTPRIO of %ld, and "
			"real-time runtime in its cgroup): the RCU threads run as ordinary threads%s\n",
			prio, prio,
			boost ? " and readers are not boosted" : "");
		prio = 0;
	}
	lrcu__kthread_prio = (int)prio;
	WRITE_ONCE(lrcu__pi_locks, prio > 0);	/* before any lock: see lock.h */
	b.on = boost && prio > 0;
	WRITE_ONCE(b.gstart, 0);
	WRITE_ONCE(b.kicked, 0);
}

int lrcu_get_gp_kthreads_prio(void)
{
	lrcu__init_once();
	return lrcu__kthread_prio;
}

/* ------------------------------------------------------------------ */
/* The grace period's side: when to boost */

static void boost_gp_start(struct lrcu_state *rsp, unsigned long gstart, unsigned long now)
{
	(void)rsp;
	/* Relaxed: the booster rechecks the grace period itself. */
	WRITE_ONCE(b.boost_at_us, now + (unsigned long)READ_ONCE(lrcu__params.rcu_boost_delay) * 1000);
	WRITE_ONCE(b.gstart, gstart);
}

/* Wake the booster once the grace period has lasted the boost delay;
 * until then, ask the driver to wake at that time. */
static long boost_gp_check(struct lrcu_state *rsp, unsigned long now, bool driver)
{
	unsigned long at = READ_ONCE(b.boost_at_us), g = READ_ONCE(b.gstart);

	(void)rsp;
	(void)driver;
	if (!b.on)
		return -1;
	if ((long)(at - now) > 0)
		return (long)(at - now);
	if (READ_ONCE(b.kicked) != g) {
		WRITE_ONCE(b.kicked, g);	/* one wakeup a grace period */
		lrcu__wake(&b.wake);
	}
	return -1;
}

static const struct lrcu_gp_hooks boost_hooks = {
	.gp_start = boost_gp_start,
	.gp_check = boost_gp_check,
};

/* ------------------------------------------------------------------ */
/* The booster */

struct holdout {
	int slot;
	int tid;
	unsigned long *word;
	int *need_qs;
};

/* Is grace period gstart still in progress? */
static bool gp_running(struct lrcu_state *rsp, unsigned long gstart)
{
	return rcu_seq_current(rsp->gp_seq) == gstart;	/* acquire */
}

/* A slot above after of leaf rnp (locked) that grace period gstart waits
 * for, inside a section that began before it. */
static bool leaf_holdout(struct lrcu_state *rsp, struct lrcu_node *rnp, unsigned long gstart,
			 int after, struct holdout *h)
{
	unsigned long m;

	if (READ_ONCE(rnp->gp_seq) != gstart)
		return false;
	for (m = rnp->qsmask; m; m &= m - 1) {
		struct lrcu_data *rdp = &rsp->rda[rnp->grplo + __builtin_ctzl(m)];
		unsigned long w;

		if (!rdp->word || rdp->slot < lrcu__nr_internal || rdp->slot <= after)
			continue;
		/* Acquire: as the scans' (leaf_qs() in tree.c). */
		w = smp_load_acquire(rdp->word);
		if (lrcu_word_qs(w, gstart))
			continue;
		h->slot = rdp->slot;
		h->tid = READ_ONCE(lrcu__slots[rdp->slot].tid);	/* its owner, in a section */
		h->word = rdp->word;
		h->need_qs = rdp->need_qs;
		return h->tid > 0;
	}
	return false;
}

static bool find_holdout_after(struct lrcu_state *rsp, unsigned long gstart, int after,
			       struct holdout *h)
{
	struct lrcu_node *rnp;
	bool found = false;

	lrcu_for_each_leaf_used(rsp, rnp, lrcu_leaf_hwm(rsp)) {
		if (!READ_ONCE(rnp->qsmask))	/* peek; rechecked under the lock */
			continue;
		lrcu__node_lock(rnp);
		found = leaf_holdout(rsp, rnp, gstart, after, h);
		lrcu__node_unlock(rnp);
		if (found)
			break;
	}
	return found;
}

/*
 * The next holdout, in slot order after the one boosted last in this
 * grace period (as the kernel's ->boost_tasks moves along the blocked
 * list): a reader that sleeps in its section, which no boost can hurry,
 * must not keep the booster from the preempted readers behind it.
 */
static bool find_holdout(struct lrcu_state *rsp, unsigned long gstart, struct holdout *h)
{
	int after = b.last_gstart == gstart ? b.last_slot : -1;

	return find_holdout_after(rsp, gstart, after, h) ||
	       (after >= 0 && find_holdout_after(rsp, gstart, -1, h));
}

/* Take our word back from slot's futex: it held tid, maybe with
 * FUTEX_WAITERS (a wait of ours that timed out). */
static void futex_take_back(uint32_t *f, uint32_t tid)
{
	uint32_t v = tid;

	/* Relaxed: nothing is published through the futex here. */
	if (!try_cmpxchg_relaxed(f, &v, 0) && v == (tid | FUTEX_WAITERS))
		cmpxchg_relaxed(f, v, 0);
}

static void futex_release(uint32_t *f)
{
	uint32_t me = (uint32_t)lrcu__tid();

	/* Release: as any unlock; with FUTEX_WAITERS the kernel clears it. */
	if (!try_cmpxchg_release(f, &me, 0))
		syscall(SYS_futex, f, FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
}

/*
 * Lend holdout h our priority until its outermost rcu_read_unlock(), or
 * for at most BOOST_WAIT_MS.  B: the handshake of the theory comment.
 */
static void boost_one(struct lrcu_state *rsp, unsigned long gstart, struct holdout *h)
{
	uint32_t *f = &lrcu__slots[h->slot].boost_pi, v = 0, tid = (uint32_t)h->tid;
	struct timespec ts;

	WRITE_ONCE(*h->need_qs, 1);	/* the reader's unlock takes its slow path */
	/* Relaxed: ordered by the fence below (a word left over from a
	 * wait that timed out is ours already). */
	if (!try_cmpxchg_relaxed(f, &v, tid) && (v & FUTEX_TID_MASK) != tid)
		return;
	lrcu__heavy_fence();	/* B: pairs with G in rcu_read_unlock() */
	/* Acquire: as the scans'; the reader may have left meanwhile. */
	if (lrcu_word_qs(smp_load_acquire(h->word), gstart) || !gp_running(rsp, gstart)) {
		futex_take_back(f, tid);
		return;
	}
	/* One boost a reader a grace period, however many waits it takes. */
	if (b.last_slot != h->slot || b.last_gstart != gstart) {
		b.last_slot = h->slot;
		b.last_gstart = gstart;
		lrcu__stat_add(&b.n_boosts, 1);	/* the booster's own */
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += BOOST_WAIT_MS * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	/* The reader runs at our priority until it hands the futex over
	 * (lrcu__boost_unlock()), which makes it ours. */
	if (!syscall(SYS_futex, f, FUTEX_LOCK_PI_PRIVATE, 0, &ts, NULL, 0))
		futex_release(f);
	else
		futex_take_back(f, tid);	/* timed out: look again */
}

static void *rcub_thread(void *arg)
{
	struct lrcu_state *rsp = arg;
	struct holdout h = { 0 };

	for (;;) {
		/* Sample before looking: a wakeup after it is not lost. */
		uint32_t v = READ_ONCE(b.wake);
		unsigned long g = READ_ONCE(b.kicked);
		long sleep = -1;

		if (lrcu__kthread_check())
			break;
		if (g && gp_running(rsp, g)) {
			if (find_holdout(rsp, g, &h)) {
				boost_one(rsp, g, &h);
				continue;
			}
			sleep = 1000;	/* holdouts not yet reported: look again */
		}
		if (lrcu__kthread_idle(&b.wake, v, sleep))
			break;
	}
	return NULL;
}

int lrcu__boost_init(struct lrcu_state *rsp)
{
	if (!b.on || rsp->flavor != LRCU_PREEMPT)
		return 0;
	lrcu__gp_hook_add(rsp, &boost_hooks);
	return lrcu__spawn(rcub_thread, rsp, "rcub/0");
}

unsigned long lrcu__boost_count(void)
{
	return READ_ONCE(b.n_boosts);
}

/* ------------------------------------------------------------------ */
/* The reader's side */

/*
 * From the outermost rcu_read_unlock()'s slow path (->need_qs was set),
 * after its word store and G: if the booster made us own our slot's
 * futex, hand it over, which ends the loan of its priority.
 * Async-signal-safe (an atomic and a system call).
 */
void lrcu__boost_unlock(void)
{
	int s = lrcu_reader.slot;
	uint32_t *f, v, me;

	if (s < 0)
		return;
	f = &lrcu__slots[s].boost_pi;
	v = READ_ONCE(*f);	/* after G: see B in boost_one() */
	if (likely(!v))
		return;
	me = (uint32_t)lrcu__tid();
	if ((v & FUTEX_TID_MASK) == me)
		futex_release(f);
}
