/* SPDX-License-Identifier: MIT */
/*
 * reader.c - the readers: rcu_torture_reader() threads, one read
 * (rcu_torture_one_read()), reader "extendables", the mailbox check and
 * the irqreader analogue.
 *
 * Theory of operation
 *
 * A read is a chain of segments.  Each segment holds a random set of the
 * RCU's read flavors (ops->read_flavors, filtered by rcutorture.extendables)
 * with at least one protecting flavor; moving to the next segment acquires
 * the new flavors before releasing the old ones, so the read never has a
 * gap.  Random delays (the kernel's rcu_read_delay(): rarely 300 ms, more
 * often 200 us, sometimes a yield) happen at segment transitions.  Inside
 * the read the reader loads rcu_torture_current and, at the end, its
 * pipe_count: anything above 1 means a grace period ended while the read
 * held the element (Reader Pipe).  It also samples the grace-period
 * sequence at both ends (Reader Batch), checks mbtest (rtmbe), checks that
 * cookies taken inside the read (one-word and full-state) do not poll as
 * complete, and sometimes
 * hangs a mailbox request on the element (below).  The segments of the
 * first failing or close-call read are kept and dumped at the end.
 *
 * Mailbox (rtmbkf): reader A, inside its read, snapshots reader C's loop
 * counter and hangs a request on the element it holds.  The element's
 * first pipe bump after removal follows a grace period that waited for A,
 * so it marks the request ready (pool.c); a later reader B then re-reads
 * C's counter: it must not be smaller than A's snapshot.
 */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "torture.h"

struct torture_reader *torture_readers;
static long nrealreaders;

long torture_nreaders(void)
{
	return nrealreaders;
}

/* The read flavors in use: the ops' list, or readlock alone. */
static struct torture_read_flavor flav[TORTURE_MAX_FLAVORS];
static unsigned int nflav, allowed_mask, protect_mask;

static int rdr_lock(void) { return cur_ops->readlock(); }
static void rdr_unlock(int idx) { cur_ops->readunlock(idx); }

/* Does some allowed protecting lock appear twice (so that reads nest it)? */
static bool nesting_tested(void)
{
	unsigned int i, j;

	for (i = 0; i < nflav; i++)
		for (j = i + 1; j < nflav; j++)
			if ((protect_mask & (1u << i)) && (allowed_mask & (1u << j)) &&
			    flav[i].lock == flav[j].lock)
				return true;
	return false;
}

static void flavors_init(void)
{
	unsigned int i;

	if (cur_ops->read_flavors && cur_ops->n_read_flavors) {
		nflav = cur_ops->n_read_flavors;
		if (nflav > TORTURE_MAX_FLAVORS)
			nflav = TORTURE_MAX_FLAVORS;
		memcpy(flav, cur_ops->read_flavors, nflav * sizeof(flav[0]));
	} else {
		nflav = 1;
		flav[0] = (struct torture_read_flavor){ "RCU", rdr_lock, rdr_unlock, 1 };
	}
	allowed_mask = (unsigned int)tp.extendables & ((1u << nflav) - 1);
	for (i = 0; i < nflav; i++)
		if (flav[i].protects && (allowed_mask & (1u << i)))
			protect_mask |= 1u << i;
	if (!protect_mask) {	/* extendables excluded every protecting flavor */
		for (i = 0; i < nflav && !flav[i].protects; i++)
			;
		protect_mask = 1u << (i < nflav ? i : 0);
		allowed_mask |= protect_mask;
	}
	if (!nesting_tested())
		torout(" rcu_torture_reader: nesting of %s's read-side sections is not tested "
		       "(list a protecting lock twice in read_flavors, and allow both in "
		       "extendables)", cur_ops->name);
}

/* ------------------------------------------------------------------ */
/* Segments */

#define RT_MAX_SEGS	10
struct rt_seg {
	unsigned int mask;		/* flavors held */
	unsigned long delay_us;		/* spun in this segment */
	int preempted;			/* yielded */
	int slept;			/* slept (sleepable readers) */
	int cpu, cpu_end;		/* where it started / ended */
	unsigned long gp;		/* gp sequence at its start */
};
struct rt_read {
	struct rt_seg seg[RT_MAX_SEGS];
	int nsegs;
	int idx[TORTURE_MAX_FLAVORS];	/* what each held flavor's unlock needs */
	unsigned int held;
	bool oracle_failed;		/* the oracle caught this read */
};

static unsigned long gp_sample(void)
{
	if (cur_ops->get_gp_seq)
		return cur_ops->get_gp_seq();
	return STAT_READ(tc.writer_gps);
}

static long gp_diff(unsigned long newer, unsigned long older)
{
	if (cur_ops->get_gp_seq && cur_ops->gp_diff)
		return cur_ops->gp_diff(newer, older);
	return (long)(newer - older);
}

static unsigned int random_mask(struct torture_random *rng)
{
	unsigned int m = (unsigned int)torture_random(rng) & allowed_mask;

	while (!(m & protect_mask)) {
		unsigned int b = (unsigned int)(torture_random(rng) % nflav);

		m |= protect_mask & (1u << b);
	}
	return m;
}

/* Acquire what `to' adds, then release what it drops: never a gap. */
static void rd_switch(struct rt_read *rd, unsigned int to)
{
	unsigned int i, add = to & ~rd->held, drop = rd->held & ~to;

	for (i = 0; i < nflav; i++)
		if (add & (1u << i))
			rd->idx[i] = flav[i].lock();
	for (i = nflav; i-- > 0;)
		if (drop & (1u << i))
			flav[i].unlock(rd->idx[i]);
	rd->held = to;
	if (rd->nsegs < RT_MAX_SEGS) {
		struct rt_seg *s = &rd->seg[rd->nsegs++];

		*s = (struct rt_seg){ .mask = to, .cpu = sched_getcpu(), .gp = gp_sample() };
	}
}

/*
 * GP-spanning reads (rcutorture.span_reads): a read-side section as long as
 * a typical grace period now and then.  A grace period that wrongly
 * ignores a reader shows only if that reader is still inside when it ends,
 * and the kernel's delays (200 us now and then, 300 ms very rarely) seldom
 * outlast a grace period slowed by gp_*_delay.  So each reader sleeps
 * inside one read for a random 1/2..2 grace periods (100 us .. 100 ms) at
 * random times, once every 2..6 * nreaders grace-period lengths (about one
 * such reader in the whole run at any time), and half of the readers do
 * so in each of the writer's quiet windows (oracle.c), where readers that
 * begin between grace periods are tested.
 */
static unsigned long span_delay_us(struct torture_reader *r, struct torture_random *rng)
{
	unsigned long now, gp, period, win;

	if (!tp.span_reads || !r)
		return 0;
	now = torture_now_us();
	gp = gpo_gp_len_us();
	period = gp * 4 * (unsigned long)nrealreaders;
	win = gpo_quiet_window();
	if (win && win != r->span_window) {
		r->span_window = win;
		if (torture_random(rng) % 2)
			return gp / 2 + torture_random(rng) % (gp * 3 / 2);
	}
	if (!r->next_span_us) {	/* first read: start at a random phase */
		r->next_span_us = now + torture_random(rng) % period;
		return 0;
	}
	if (now < r->next_span_us)
		return 0;
	r->next_span_us = now + period / 2 + torture_random(rng) % period;
	return gp / 2 + torture_random(rng) % (gp * 3 / 2);
}

/*
 * The kernel's rcu_read_delay(), scaled by the number of readers, plus a
 * GP-spanning sleep (span_us, once in a while); readers that may block
 * (SRCU) also sleep 10 jiffies now and then, as the kernel's
 * srcu_read_delay() does.
 */
static void read_delay(struct rt_read *rd, struct torture_random *rng, unsigned long span_us)
{
	struct rt_seg *s = rd->nsegs ? &rd->seg[rd->nsegs - 1] : NULL;
	/* Scaled as if one reader when there are none (nreaders=0: the
	 * read-exit and forward-progress threads still read). */
	unsigned long n = nrealreaders > 0 ? (unsigned long)nrealreaders : 1, us = 0;

	/* A uniprocessor RCU's readers never give the CPU away (up.c). */
	bool up = torture_up();

	if ((cur_ops->flags & TORTURE_OPS_SLEEPABLE) && !(torture_random(rng) % (n * 20))) {
		torture_sleep_us(10 * 1000000 / TORTURE_HZ);
		if (s)
			s->slept = 1;
	}
	if (!(torture_random(rng) % (n * 2000 * 300)))
		us += 300000;
	if (!(torture_random(rng) % (n * 2 * 200)))
		us += 200;
	if (us)
		torture_spin_us(us);
	if (span_us) {
		/* Inside the section: blocking is fine, but where it would
		 * end the read (RCU Tasks) or let another thread run (Tiny). */
		if (up || (cur_ops->flags & TORTURE_OPS_NO_BLOCK))
			torture_spin_us(span_us);
		else
			torture_sleep_us(span_us);
		us += span_us;
	}
	if (!up && !(torture_random(rng) % (n * 500))) {
		sched_yield();
		if (s)
			s->preempted = 1;
	}
	if (s) {
		s->delay_us += us;
		s->cpu_end = sched_getcpu();
	}
}

/* ------------------------------------------------------------------ */
/* The first failing or close-call read, for the end-of-test dump. */

/* [0]: first failing read (pipe > 1 or oracle), [1]: first close call
 * (batch > 1). */
static struct saved_read {
	struct rt_read rd;
	int state;		/* 0 free, 1 writing, 2 saved; atomic */
	int pipe;
	long batch;
} saved[2];

static void save_read(const struct rt_read *rd, int pipe, long batch)
{
	struct saved_read *s = &saved[pipe > 1 || rd->oracle_failed ? 0 : 1];
	int expect = 0;

	/* Claim the slot; the release store of 2 below publishes it. */
	if (!try_cmpxchg_acquire(&s->state, &expect, 1))
		return;
	s->rd = *rd;
	s->pipe = pipe;
	s->batch = batch;
	smp_store_release(&s->state, 2);	/* pairs with the dump */
}

static void seg_names(unsigned int mask, char *buf, size_t len)
{
	unsigned int i;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < nflav; i++)
		if (mask & (1u << i))
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
						 "%s%s", used ? " " : "", flav[i].name);
}

/* The first failing read if any, else the first close call. */
void reader_segments_dump(void)
{
	const struct saved_read *sr = &saved[0];
	char names[128];
	int i;

	/* Acquire pairs with save_read()'s release of state 2. */
	if (smp_load_acquire(&sr->state) != 2)
		sr = &saved[1];
	if (smp_load_acquire(&sr->state) != 2)	/* the same pairing */
		return;
	torout(" Failure/close-call rcutorture reader segments: (%s: pipe %d, batch %ld%s)",
	       sr == &saved[0] ? "failure" : "close call", sr->pipe, sr->batch,
	       sr->rd.oracle_failed ? ", oracle" : "");
	for (i = 0; i < sr->rd.nsegs; i++) {
		const struct rt_seg *s = &sr->rd.seg[i];

		seg_names(s->mask, names, sizeof(names));
		torout(" \t%d: %#x %s CPU %d->%d g%ld delay %lu us%s%s", i, s->mask,
		       s->mask ? names : "(none)", s->cpu, s->cpu_end, (long)s->gp, s->delay_us,
		       s->preempted ? " preempted" : "", s->slept ? " slept" : "");
	}
}

/* ------------------------------------------------------------------ */
/* Mailbox check */

enum { MBOX_FREE, MBOX_PENDING, MBOX_READY, MBOX_CHECKING };

static void mbox_hang(struct torture_reader *r, struct rcu_torture *p,
		      struct torture_random *rng)
{
	struct rtc_mbox *m, *none = NULL;
	int c;

	if (!r || nrealreaders < 2 || torture_random(rng) % 16)
		return;
	m = &r->mbox;
	/* Acquire pairs with the checker's release of MBOX_FREE: its reads
	 * of our fields are done before we rewrite them. */
	if (smp_load_acquire(&m->state) != MBOX_FREE)
		return;
	c = (int)(torture_random(rng) % (unsigned long)(nrealreaders - 1));
	if (c >= r->id)
		c++;
	m->target = c;
	/* C's counter, inside our read: ordered against the checker's load
	 * by the grace period and the release/acquire chain (pool.c). */
	m->chkloops = READ_ONCE(torture_readers[c].myloops);
	/* Owner-only until the CAS below publishes the request. */
	WRITE_ONCE(m->state, MBOX_PENDING);
	/* Release: the snapshot above is visible to whoever takes the request
	 * off the element (pool.c's exchange). */
	if (!try_cmpxchg_release(&p->chkp, &none, m))
		WRITE_ONCE(m->state, MBOX_FREE);	/* never published */
}

static void mbox_check(struct torture_random *rng)
{
	struct rtc_mbox *m;
	unsigned long now;
	int expect = MBOX_READY;

	if (nrealreaders < 2)
		return;
	m = &torture_readers[torture_random(rng) % (unsigned long)nrealreaders].mbox;
	/* Acquire pairs with mbox_release() in pool.c: the grace period that
	 * ended after A's read happens before our load of C's counter. */
	if (!try_cmpxchg_acquire(&m->state, &expect, MBOX_CHECKING))
		return;
	/* Ordered after A's snapshot by the acquire CAS above. */
	now = READ_ONCE(torture_readers[m->target].myloops);
	STAT_INC(tc.rtmbkf_try);
	if (now < m->chkloops && STAT_INC(tc.rtmbkf_fail) == 0)
		torout(" rtmbkf: reader %d's loop count went back from %lu to %lu across a "
		       "grace period", m->target, m->chkloops, now);
	smp_store_release(&m->state, MBOX_FREE);	/* pairs with mbox_hang() */
}

/* ------------------------------------------------------------------ */
/* weak_mem: store-buffer filling */

/*
 * rcutorture.weak_mem=1: before its first lock, a reader stores to 48
 * cache lines it has not touched for a while (a 4 MiB buffer), so that
 * its store buffer is full of misses when the lock's reader-word store
 * joins the queue: the word stays invisible to other CPUs longest while
 * the read's loads go ahead.  A missing fence (the reader's, or the
 * grace period's before its scan) lets a scan miss such a reader; this
 * makes that window as wide as a TSO machine allows.
 */
#define SB_BYTES	(4u << 20)
#define SB_STORES	48

static void sb_fill(struct torture_reader *r, struct torture_random *rng)
{
	unsigned int i;

	if (!tp.weak_mem || !r)
		return;
	if (!r->sb_buf && !(r->sb_buf = malloc(SB_BYTES)))
		return;
	for (i = 0; i < SB_STORES; i++) {
		unsigned long off = (torture_random(rng) % (SB_BYTES / 64)) * 64;

		/* Only this thread touches its buffer: the stores' only job is
		 * to occupy the store buffer. */
		WRITE_ONCE(r->sb_buf[off], (unsigned char)i);
	}
}

/* ------------------------------------------------------------------ */
/* One read */

static void cookie_check_failed(const char *which)
{
	if (STAT_INC(tc.cookie_errors) == 0)
		torout(" %s: a cookie taken inside a reader polled as complete "
		       "before the reader ended", which);
}

/*
 * The exact oracle (oracle.c): a grace-period wait that began after p was
 * removed must not have ended while we hold p.  Called wherever the read
 * holds p, under at least one protecting flavor.
 */
static void oracle_check(bool *failed, const struct rcu_torture *p, int reader)
{
	unsigned long stamp, done;

	if (!gpo_violated(p, &stamp, &done))
		return;
	if (failed)
		*failed = true;
	if (STAT_INC(tc.gpo_fail) == 0)
		torout(" !!! Oracle: reader %d still holds an element removed at ticket %lu, "
		       "but a grace-period wait that began at ticket %lu has ended", reader,
		       stamp, done);
}

/* Inside the section, at its start: false if there is no element yet. */
bool read_check_begin(struct read_check *rc, void *(*deref)(void *const *pp), int who)
{
	rc->failed = false;
	rc->started = gp_sample();
	rc->p = deref(&rcu_torture_current);
	if (!rc->p)
		return false;
	/* Ordered by the dereference after pool_alloc()'s stores. */
	if (!READ_ONCE(rc->p->mbtest))
		STAT_INC(tc.rtmbe);
	oracle_check(&rc->failed, rc->p, who);
	return true;
}

/* Inside the section, at its end. */
void read_check_end(struct read_check *rc, int who)
{
	/* Pairs with pipe_update_one()'s store, ordered by the grace period. */
	rc->pipe = READ_ONCE(rc->p->pipe_count);
	if (rc->pipe > RCU_TORTURE_PIPE_LEN || rc->pipe < 0)
		rc->pipe = RCU_TORTURE_PIPE_LEN;
	rc->completed = gp_sample();
	oracle_check(&rc->failed, rc->p, who);
}

long read_check_record(const struct read_check *rc)
{
	long batch = gp_diff(rc->completed, rc->started);

	if (batch < 0)
		batch = 0;
	if (batch > RCU_TORTURE_PIPE_LEN)
		batch = RCU_TORTURE_PIPE_LEN;
	STAT_INC(tc.pipe[rc->pipe]);
	STAT_INC(tc.batch[batch]);
	STAT_INC(tc.reads);
	return batch;
}

/*
 * leakpointer (the kernel's rcutorture.leakpointer): a reader keeps the
 * element of one of its reads after that read's rcu_read_unlock(), and
 * uses it at its later reads, for up to 100 ms: long enough for grace
 * periods to end.  A pipe_count above 1 then shows the use after the
 * grace period that the leak allows: a WARNING, expected, which fails the
 * run, as the kernel's splat does.  (Elements are recycled, never freed:
 * the use itself is safe here.)
 */
static __thread struct rcu_torture *leaked;
static __thread unsigned long leaked_at;

static void leak_check(struct rcu_torture *p)
{
	/* Pairs with pipe_update_one()'s store; the race is the point. */
	int pipe = leaked ? READ_ONCE(leaked->pipe_count) : 0;

	if (pipe > 1 && STAT_INC(tc.leaked_used) == 0)
		torout(" WARNING: leakpointer: element %p used after rcu_read_unlock() and a "
		       "grace period (pipe_count %d): expected with leakpointer=1",
		       (void *)leaked, pipe);
	if (!leaked || pipe > 1 || torture_now_us() - leaked_at > 100000) {
		leaked = p;	/* leak this read's element */
		leaked_at = torture_now_us();
	}
}

bool rcu_torture_one_read(struct torture_random *rng, struct torture_reader *r)
{
	struct rt_read rd = { .nsegs = 0, .held = 0 };
	int who = r ? r->id : -1, n, i;
	unsigned long cookie = 0;
	struct torture_gp_full cookie_full;
	struct read_check rc;
	void *up_cb;
	long batch;
	/*
	 * Cookie checks 2 and 6 (one-word and full-state cookies) in one read
	 * of 8: taking a cookie may fence (ours does), and a fence right after
	 * the lock would hide a missing one in the RCU's read side from most
	 * reads.
	 */
	bool checkpolling = !(torture_random(rng) % 8);
	bool have_cookie = checkpolling && OPS_HAS(get_gp_state) && OPS_HAS(poll_gp_state);
	bool have_full = checkpolling && OPS_HAS(get_gp_state_full) && OPS_HAS(poll_gp_state_full);

	sb_fill(r, rng);
	rd_switch(&rd, random_mask(rng));
	if (have_cookie)
		cookie = cur_ops->get_gp_state();
	if (have_full)
		cur_ops->get_gp_state_full(&cookie_full);
	if (!read_check_begin(&rc, cur_ops->dereference, who)) {
		rd_switch(&rd, 0);
		return false;
	}
	up_cb = torture_up_read_begin(rng);
	mbox_hang(r, rc.p, rng);
	read_delay(&rd, rng, span_delay_us(r, rng));
	if (r)
		boost_hold(r->id);	/* the boost test's long section */
	n = __builtin_popcount(allowed_mask) > 1 ? (int)(torture_random(rng) % 8) : 0;
	for (i = 0; i < n; i++) {
		rd_switch(&rd, random_mask(rng));
		oracle_check(&rc.failed, rc.p, who);
		read_delay(&rd, rng, 0);
	}
	read_check_end(&rc, who);
	if (have_cookie && cur_ops->poll_gp_state(cookie))
		cookie_check_failed("Cookie check 2");
	if (have_full && cur_ops->poll_gp_state_full(&cookie_full))
		cookie_check_failed("Cookie check 6");
	torture_up_read_end(up_cb);
	rd_switch(&rd, 0);
	if (tp.leakpointer && r)
		leak_check(rc.p);
	batch = read_check_record(&rc);
	rd.oracle_failed = rc.failed;
	if (rc.pipe > 1 || batch > 1 || rc.failed)
		save_read(&rd, rc.pipe, batch);
	if (r)	/* read by mailbox requests of other readers */
		WRITE_ONCE(r->myloops, r->myloops + 1);
	return true;
}

/* ------------------------------------------------------------------ */
/* irqreader: reads from a signal handler (ops must be IRQ_CAPABLE) */

#define IRQ_SIGNAL	(SIGRTMIN + 2)
static __thread int tls_irq_ok;		/* a reader thread, not in transition */

static void irq_allow(int ok)
{
	WRITE_ONCE(tls_irq_ok, ok);	/* same thread: the fence below */
	barrier();	/* pairs with the handler's load */
}

static void irq_handler(int sig)
{
	struct rcu_torture *p;
	int idx, pipe;

	(void)sig;
	/* Pairs with irq_allow()'s signal fence.  RCUs without thread
	 * registration (SRCU) may read on any thread. */
	if (!READ_ONCE(tls_irq_ok) ||
	    (cur_ops->thread_register && !torture_may_read()))
		return;
	idx = cur_ops->readlock();
	p = cur_ops->dereference(&rcu_torture_current);
	if (p) {
		/* As in rcu_torture_one_read(). */
		if (!READ_ONCE(p->mbtest))
			STAT_INC(tc.rtmbe);
		pipe = READ_ONCE(p->pipe_count);
		if (pipe > RCU_TORTURE_PIPE_LEN || pipe < 0)
			pipe = RCU_TORTURE_PIPE_LEN;
		STAT_INC(tc.pipe[pipe]);
		STAT_INC(tc.nt);
		oracle_check(NULL, p, -2);	/* -2: a signal handler's read */
	}
	cur_ops->readunlock(idx);
}

static void *irq_source(void *arg)
{
	struct torture_random rng;

	(void)arg;
	torture_random_init(&rng, 0x1e1e);
	torverbose(" rcu_torture_irq task started");
	while (!torture_must_stop()) {
		struct torture_reader *r = &torture_readers[torture_random(&rng) %
							    (unsigned long)nrealreaders];

		/* Acquire pairs with the reader's release of ->started. */
		if (smp_load_acquire(&r->started))
			pthread_kill(r->thread, IRQ_SIGNAL);
		torture_hrtimeout_us(1000, 1000, &rng);
	}
	return NULL;
}

void irqreader_start(void)
{
	struct sigaction sa;

	if (!tp.irqreader || !(cur_ops->flags & TORTURE_OPS_IRQ_CAPABLE))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = irq_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(IRQ_SIGNAL, &sa, NULL);
	torture_spawn("rcu_torture_irq", irq_source, NULL);
}

/* ------------------------------------------------------------------ */
/* The reader thread */

/* CPU hotplug analogue: do what the onoff thread asked (onoff.c). */
static void reader_onoff(struct torture_reader *r)
{
	int req = smp_load_acquire(&r->onoff_req);	/* pairs with onoff.c */

	if (req == ONOFF_ONLINE)
		return;
	irq_allow(0);
	if (req == ONOFF_UNREGISTERED)
		torture_reader_unregister();
	else
		torture_offline();
	smp_store_release(&r->onoff_ack, req);	/* pairs with onoff.c */
	while (smp_load_acquire(&r->onoff_req) != ONOFF_ONLINE &&	/* onoff.c's release */
	       !torture_must_stop())
		torture_sleep_us(1000);
	if (req == ONOFF_UNREGISTERED) {
		WRITE_ONCE(r->cpu, -1);	/* onoff's hint */
		if (torture_reader_register(-1))	/* anywhere free: a new CPU */
			torout(" reader %d: re-registration failed", r->id);
		WRITE_ONCE(r->cpu, torture_thread_cpu());
	} else {
		torture_online();
	}
	smp_store_release(&r->onoff_ack, ONOFF_ONLINE);	/* pairs with onoff.c */
	irq_allow(1);
}

void *rcu_torture_reader(void *arg)
{
	struct torture_reader *r = arg;
	unsigned long lastsleep = torture_now_us();
	bool qsbr = cur_ops->flags & TORTURE_OPS_QSBR;
	int rc;

	regorder_reader_turn(r);	/* an RCU with its own slots: in a seeded order */
	rc = torture_reader_register(torture_reader_cpu_plan(r->id));
	regorder_reader_tried(r);
	if (rc)
		return NULL;	/* counted and reported: a FAILURE */
	WRITE_ONCE(r->cpu, torture_thread_cpu());	/* onoff's hint */
	torverbose(" rcu_torture_reader task started");
	r->thread = pthread_self();
	smp_store_release(&r->started, 1);	/* pairs with irq_source() */
	irq_allow(1);
	while (!torture_must_stop()) {
		reader_onoff(r);
		if (qsbr && cur_ops->quiescent_state)
			cur_ops->quiescent_state();
		if (!rcu_torture_one_read(&r->rng, r))
			torture_idle_sleep_us(1000);	/* writer not started yet */
		mbox_check(&r->rng);
		if (torture_now_us() - lastsleep > 10000) {
			torture_idle_sleep_us(500 + torture_random(&r->rng) % 500);
			lastsleep = torture_now_us();
		}
		/* A hint; reader_onoff() does the acquire. */
		if (READ_ONCE(r->onoff_req) == ONOFF_ONLINE)
			stutter_wait("rcu_torture_reader");
		torture_cond_resched();
	}
	irq_allow(0);
	torture_reader_unregister();
	torverbose(" rcu_torture_reader task stopping");
	return NULL;
}

int readers_start(void)
{
	long i;
	char name[32];

	nrealreaders = tp.nreaders;
	flavors_init();
	if (!nrealreaders)
		return 0;	/* nreaders=0: an update-side-only run */
	torture_readers = calloc((size_t)nrealreaders, sizeof(*torture_readers));
	if (!torture_readers)
		return -1;
	for (i = 0; i < nrealreaders; i++) {
		torture_readers[i].id = (int)i;
		torture_readers[i].cpu = -1;
		torture_random_init(&torture_readers[i].rng, 0x1000 + (unsigned long)i);
	}
	irqreader_start();	/* before the readers: joined (stopped) first */
	for (i = 0; i < nrealreaders; i++) {
		snprintf(name, sizeof(name), "rcu_torture_rea");
		if (torture_spawn(name, rcu_torture_reader, &torture_readers[i]))
			return -1;
	}
	return 0;
}
