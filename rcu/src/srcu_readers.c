/* SPDX-License-Identifier: MIT */
/*
 * srcu_readers.c - SRCU's reader side off the fast path: domain ids,
 * per-thread reader records and their pages, the read-side slow paths,
 * thread exit, and the drain check the grace periods run.
 *
 * Layout and fast paths: rcu/include/rcu/static/srcu.h.  Why the drain
 * check proves a grace period: rcu/src/srcu.c.
 *
 * Everything a reader may run here is async-signal-safe: ids come from a
 * bitmap claimed with compare-and-swap, records from a push-only list
 * claimed the same way or from mmap(), pages from mmap() installed with
 * compare-and-swap (a signal handler that beat the interrupted code to it
 * wins, the loser unmaps its copy), and the thread-exit destructor is
 * armed with pthread_setspecific() on a key created once (glibc: no
 * allocation for the first 32 keys of a process).  Records and pages are
 * never freed: a record outlives its thread and serves the next one, so
 * the scanner may walk the list without a lock.
 */
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "srcu_internal.h"

/* A thread's reader record: the public part (dir[]) first. */
struct srcu_record {
	struct lrcu_srcu_rec pub;	/* read by the fast path and the scanner */
	struct srcu_record *next;	/* every record made (const once pushed) */
	int owner;			/* 1 while a thread holds it (CAS) */
	int tid;			/* owner's thread id (atomic; diagnostics) */
	char name[16];			/* owner's name when it claimed it */
	bool key_set;			/* exit destructor armed (owner only) */
};

/* All NULL: a thread pointing here takes the slow path for every domain. */
static struct srcu_record empty_record;
__thread struct lrcu_srcu_rec *lrcu_srcu_self = &empty_record.pub;
__thread unsigned int lrcu_srcu_nmi_nesting;

static struct srcu_record *records;	/* push-only list (CAS release) */

/* ------------------------------------------------------------------ */
/* Misuse reports: once per kind, counted every time (lrcu__misuse()). */

enum { MU_BAD_VALUE, MU_OTHER_THREAD, MU_NOT_HELD, MU_GARBAGE_ID, MU_EXIT, MU_BAD_CTR,
       MU_FLAVOR_DEF, MU_FLAVOR_MIX, MU_NR };

static void srcu_misuse(int kind, const char *domain, const char *what)
{
	static int reported[MU_NR];
	char name[16] = "?";

	lrcu__misuse();
	/* Only decides who prints. */
	if (xchg_relaxed(&reported[kind], 1))
		return;
	prctl(PR_GET_NAME, name);
	fprintf(stderr, "rcu: WARNING: %s (domain %s, thread %s/%d)\n", what,
		domain ? domain : "?", name, (int)syscall(SYS_gettid));
}

/* ------------------------------------------------------------------ */
/* Domain ids */

#define ID_WORDS	(LRCU_SRCU_MAX_IDS / 64)
#define ID_FIRST	LRCU_SRCU_PER_PAGE	/* page 0 never exists */

/* Bit set: the id is taken.  Ids below ID_FIRST are never handed out. */
static unsigned long id_map[ID_WORDS] = { ~0UL, ~0UL, ~0UL, ~0UL };
_Static_assert(ID_FIRST == 4 * 64, "id_map's initialiser reserves page 0");
static const char *id_name[LRCU_SRCU_MAX_IDS];	/* for exit reports */
static unsigned long id_hint;			/* word to start looking at */

/* A free id, or 0 if none is left. */
static unsigned long id_alloc(void)
{
	unsigned long start = READ_ONCE(id_hint) % ID_WORDS, n, w;

	for (n = 0; n < ID_WORDS; n++) {
		unsigned long *word = &id_map[(start + n) % ID_WORDS];
		unsigned long v = READ_ONCE(*word);

		while (~v) {
			unsigned long bit = 1UL << __builtin_ctzl(~v);

			/* The bitmap orders nothing: the id's user publishes it
			 * with the CAS in lrcu__srcu_id_get(). */
			if (try_cmpxchg_relaxed(word, &v, v | bit)) {
				w = (start + n) % ID_WORDS;
				WRITE_ONCE(id_hint, w);	/* a hint */
				return w * 64 + (unsigned long)__builtin_ctzl(bit);
			}
		}
	}
	return 0;
}

void lrcu__srcu_id_put(unsigned long id)
{
	if (id < ID_FIRST || id >= LRCU_SRCU_MAX_IDS)
		return;
	/* Release: the domain's last uses of the id (the drained counters
	 * checked by cleanup) before another domain can take it. */
	atomic_fetch_and_release(~(1UL << (id % 64)), &id_map[id / 64]);
}

/*
 * The domain's id, assigning one on first use (DEFINE_SRCU() domains get
 * theirs here, from whichever thread gets there first).
 */
unsigned long lrcu__srcu_id_get(struct srcu_struct *ssp)
{
	/* Acquire pairs with the CAS below (the id's name is set). */
	unsigned long id = smp_load_acquire(&ssp->srcu_id), mine;
	unsigned long expect = LRCU_SRCU_ID_NONE;

	if (id != LRCU_SRCU_ID_NONE)
		return id;
	mine = id_alloc();
	if (!mine)
		mine = LRCU_SRCU_ID_SHARED;	/* all taken: shared counters */
	else
		WRITE_ONCE(id_name[mine], ssp->srcu_name);	/* see below */
	/* Fully ordered: id_name[] before the id is visible (pairs with the
	 * acquire loads of the id, above and in the scan). */
	if (try_cmpxchg(&ssp->srcu_id, &expect, mine))
		return mine;
	lrcu__srcu_id_put(mine);		/* someone else assigned one first */
	/* A failed CAS orders nothing: load the winner's id again, acquire
	 * as above (it changes only at cleanup). */
	return smp_load_acquire(&ssp->srcu_id);
}

/* ------------------------------------------------------------------ */
/* Records and pages */

static void *map_zeroed(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void record_exit(void *arg);

/* The thread-exit destructor's key, created once without a lock. */
static pthread_key_t exit_key;
static int exit_key_state;		/* 0 none, 1 being created, 2 ready */
static __thread bool creating_key;	/* this thread is creating it */

static bool exit_key_ready(void)
{
	/* Acquire pairs with the release of 2 below (exit_key is set). */
	int st = smp_load_acquire(&exit_key_state), zero = 0;

	if (st == 2)
		return true;
	/* Acquire, as the load above; a failure reads again below. */
	if (st == 0 && try_cmpxchg_acquire(&exit_key_state, &zero, 1)) {
		creating_key = true;
		st = pthread_key_create(&exit_key, record_exit) ? 0 : 2;
		smp_store_release(&exit_key_state, st);	/* see above */
		creating_key = false;
		return st == 2;
	}
	if (creating_key)	/* a signal handler nested in the creation */
		return false;
	while (smp_load_acquire(&exit_key_state) == 1)	/* as above */
		sched_yield();
	return smp_load_acquire(&exit_key_state) == 2;	/* as above */
}

/* Take a free record, or make one. */
static struct srcu_record *record_claim(void)
{
	struct srcu_record *r;
	int zero;

	/* Acquire: records are pushed with a release CAS. */
	for (r = smp_load_acquire(&records); r; r = r->next) {
		zero = 0;
		/* Acquire pairs with record_exit()'s release: the last owner's
		 * zeroed counters before ours. */
		if (!READ_ONCE(r->owner) && try_cmpxchg_acquire(&r->owner, &zero, 1))
			goto claimed;
	}
	r = map_zeroed(sizeof(*r));
	if (!r)
		return NULL;
	r->owner = 1;
	r->next = READ_ONCE(records);
	/* Release: the record's fields before the scanner can reach it. */
	while (!try_cmpxchg_release(&records, &r->next, r))
		;
claimed:
	/* Diagnostics only (holdout reports). */
	WRITE_ONCE(r->tid, (int)syscall(SYS_gettid));
	prctl(PR_GET_NAME, r->name);
	return r;
}

/* This thread's record, claimed on first use; NULL if out of memory. */
static struct srcu_record *self_record(void)
{
	/* Owner-only pointer (relaxed, as in the fast path). */
	struct lrcu_srcu_rec *cur = READ_ONCE(lrcu_srcu_self);
	struct lrcu_srcu_rec *expect = &empty_record.pub;
	struct srcu_record *r;

	if (cur != &empty_record.pub) {
		r = (struct srcu_record *)cur;
		goto arm;
	}
	r = record_claim();
	if (!r)
		return NULL;
	/* Relaxed: this thread only; the CAS catches a signal handler that
	 * claimed a record meanwhile (we then use its record). */
	if (!try_cmpxchg_relaxed(&lrcu_srcu_self, &expect, &r->pub)) {
		smp_store_release(&r->owner, 0);	/* see record_exit() */
		r = (struct srcu_record *)expect;
	}
arm:
	if (!r->key_set && exit_key_ready()) {
		pthread_setspecific(exit_key, r);
		r->key_set = true;
	}
	return r;
}

/* The record's page for ids p*256.., mapped on first use. */
static struct lrcu_srcu_page *page_get(struct srcu_record *r, unsigned long p)
{
	struct lrcu_srcu_page *pg = READ_ONCE(r->pub.dir[p]), *expect = NULL;

	if (pg)
		return pg;
	pg = map_zeroed(sizeof(*pg));
	if (!pg)
		return NULL;
	/* Release pairs with the scanner's acquire load of the entry. */
	if (!try_cmpxchg_release(&r->pub.dir[p], &expect, pg)) {
		munmap(pg, sizeof(*pg));	/* a signal handler installed one */
		return expect;
	}
	return pg;
}

/*
 * A thread exits: end the sections it left open (a bug, reported) and hand
 * the record on.  Runs as the key's destructor, in the exiting thread.
 */
static void record_exit(void *arg)
{
	struct srcu_record *r = arg;
	unsigned long p, i;
	int idx;

	if (&r->pub != READ_ONCE(lrcu_srcu_self))	/* owner only */
		return;
	for (p = 0; p < LRCU_SRCU_DIR; p++) {
		struct lrcu_srcu_page *pg = READ_ONCE(r->pub.dir[p]);

		for (i = 0; pg && i < LRCU_SRCU_PER_PAGE; i++) {
			for (idx = 0; idx < 2; idx++) {
				/* Our own counters. */
				if (!READ_ONCE(pg->ctr[i][idx]))
					continue;
				srcu_misuse(MU_EXIT, READ_ONCE(id_name[p * LRCU_SRCU_PER_PAGE + i]),
					    "thread exited inside an SRCU read-side critical section: "
					    "the section ends with it");
				/* Release, as an unlock (pairs with the scan). */
				smp_store_release(&pg->ctr[i][idx], 0);
			}
		}
	}
	r->key_set = false;
	WRITE_ONCE(lrcu_srcu_self, &empty_record.pub);	/* owner only */
	/* Release pairs with record_claim()'s acquire: zeroed counters first. */
	smp_store_release(&r->owner, 0);
}

/*
 * In a fork() child only the forking thread exists: end the other threads'
 * sections (they never will) and put their records back in the pool, as
 * if those threads had exited.  Not reported: nothing went wrong.  The
 * shared counters (srcu_down_read(), srcu_read_lock_nmisafe()) belong to
 * no thread and stay as they are.
 */
void lrcu__srcu_readers_fork_child(void)
{
	struct lrcu_srcu_rec *self = READ_ONCE(lrcu_srcu_self);
	struct srcu_record *r;
	unsigned long p, i;

	/* One thread here: relaxed, the library threads start afterwards
	 * (pthread_create() orders these stores before them). */
	for (r = READ_ONCE(records); r; r = r->next) {
		if (&r->pub == self || !READ_ONCE(r->owner))
			continue;
		for (p = 0; p < LRCU_SRCU_DIR; p++) {
			struct lrcu_srcu_page *pg = READ_ONCE(r->pub.dir[p]);

			for (i = 0; pg && i < LRCU_SRCU_PER_PAGE; i++) {
				WRITE_ONCE(pg->ctr[i][0], 0);
				WRITE_ONCE(pg->ctr[i][1], 0);
			}
		}
		r->key_set = false;
		WRITE_ONCE(r->owner, 0);
	}
	if (READ_ONCE(exit_key_state) == 1)
		WRITE_ONCE(exit_key_state, 0);	/* its creator is gone */
}

/* ------------------------------------------------------------------ */
/* Read-side slow paths */

/* First section of this thread in this domain's page (or no id yet). */
int lrcu_srcu_read_lock_slow(struct srcu_struct *ssp)
{
	unsigned long id = lrcu__srcu_id_get(ssp);
	struct lrcu_srcu_page *pg;
	struct srcu_record *r;

	if (id >= LRCU_SRCU_MAX_IDS) {
		srcu_misuse(MU_GARBAGE_ID, ssp->srcu_name, "srcu_read_lock() on a domain that was "
			    "not initialised (init_srcu_struct() or DEFINE_SRCU())");
		return lrcu_srcu_lock_shared(ssp);
	}
	if (id == LRCU_SRCU_ID_SHARED || !(r = self_record()) ||
	    !(pg = page_get(r, id >> LRCU_SRCU_PAGE_SHIFT)))
		return lrcu_srcu_lock_shared(ssp);	/* no id or no memory left */
	return lrcu_srcu_lock_ctr(ssp, pg->ctr[id & (LRCU_SRCU_PER_PAGE - 1)]);
}

/* srcu_read_unlock() that matches no open section: report, change nothing. */
void lrcu_srcu_read_unlock_slow(struct srcu_struct *ssp, int idx)
{
	if (idx & ~(LRCU_SRCU_SHARED | 1))
		srcu_misuse(MU_BAD_VALUE, ssp->srcu_name, "srcu_read_unlock() handed a value that "
			    "srcu_read_lock() never returns");
	else if (!lrcu_srcu_ctr(ssp))
		srcu_misuse(MU_OTHER_THREAD, ssp->srcu_name, "srcu_read_unlock() on a thread that has no "
			    "section of this domain open (srcu_down_read()/srcu_up_read() "
			    "end a section on another thread)");
	else
		srcu_misuse(MU_NOT_HELD, ssp->srcu_name, "srcu_read_unlock() handed an index this thread "
			    "holds no section on (hand back the value srcu_read_lock() returned)");
}

/* An SRCU-fast unlock handed a counter this thread holds no section on. */
void lrcu_srcu_unlock_fast_slow(struct srcu_struct *ssp, struct srcu_ctr *scp)
{
	(void)scp;
	srcu_misuse(MU_BAD_CTR, ssp->srcu_name, "srcu_read_unlock_fast() (or _fast_updown()) "
		    "handed a counter this thread holds no section on (hand back what the lock "
		    "returned, on the thread that locked: srcu_down_read_fast()/srcu_up_read_fast() "
		    "end a section on another thread)");
}

/* ------------------------------------------------------------------ */
/* Reader flavors (CONFIG_PROVE_RCU builds: srcu_check_read_flavor()) */

static const char *flavor_name(int flavor)
{
	switch (flavor) {
	case SRCU_READ_FLAVOR_NORMAL: return "srcu_read_lock()";
	case SRCU_READ_FLAVOR_NMI: return "srcu_read_lock_nmisafe()";
	case SRCU_READ_FLAVOR_FAST: return "srcu_read_lock_fast()";
	default: return "srcu_read_lock_fast_updown()";
	}
}

/*
 * The kernel's rules: a domain defined for a FAST flavor takes that flavor
 * only, and those flavors need such a domain; a domain's readers all use
 * the flavor its first reader used (the kernel records it per CPU; one
 * record per domain here, so mixing on different threads is caught too).
 */
void lrcu_srcu_check_read_flavor(struct srcu_struct *ssp, int flavor)
{
	int defined = READ_ONCE(ssp->srcu_reader_flavor);	/* const after init */
	int seen = 0;
	char what[256];

	if (defined ? flavor != defined : (flavor & SRCU_READ_FLAVOR_SLOWGP)) {
		snprintf(what, sizeof(what), "%s on a domain defined for %s (DEFINE_SRCU%s(), "
			 "init_srcu_struct%s())", flavor_name(flavor),
			 defined ? flavor_name(defined) : "srcu_read_lock()",
			 defined == SRCU_READ_FLAVOR_FAST ? "_FAST" :
			 defined ? "_FAST_UPDOWN" : "",
			 defined == SRCU_READ_FLAVOR_FAST ? "_fast" :
			 defined ? "_fast_updown" : "");
		srcu_misuse(MU_FLAVOR_DEF, ssp->srcu_name, what);
	}
	/* Only decides which flavor is the domain's: orders nothing. */
	if (try_cmpxchg_relaxed(&ssp->srcu_flavor_seen, &seen, flavor) || seen == flavor)
		return;
	snprintf(what, sizeof(what), "%s and %s readers on one domain (the kernel's "
		 "srcu_check_read_flavor(): one domain, one reader flavor)", flavor_name(seen),
		 flavor_name(flavor));
	srcu_misuse(MU_FLAVOR_MIX, ssp->srcu_name, what);
}

/* ------------------------------------------------------------------ */
/* The drain check (srcu.c explains why it proves what it does) */

static void holdout_note(struct srcu_holdouts *h, struct srcu_record *r, unsigned long v)
{
	int n = h->nr_threads++;

	h->total += v;
	if (n >= SRCU_HOLDOUTS_MAX)
		return;
	h->tid[n] = READ_ONCE(r->tid);	/* diagnostics */
	memcpy(h->name[n], r->name, sizeof(h->name[n]));
	h->name[n][sizeof(h->name[n]) - 1] = '\0';
	h->count[n] = v;
}

/*
 * Have all sections of the domain on index idx ended?  Called after the
 * grace period's heavy fence (S or D, srcu.c).  With h, every holdout is
 * counted (and the first few named); without, the walk stops at the first.
 */
bool lrcu__srcu_readers_drained(struct srcu_struct *ssp, int idx, struct srcu_holdouts *h)
{
	unsigned long id = smp_load_acquire(&ssp->srcu_id);	/* as in id_get */
	unsigned long unlocks, locks, v;
	struct srcu_record *r;
	bool busy = false;

	if (h)
		memset(h, 0, sizeof(*h));
	/* Acquire pairs with the release (C) of srcu_read_unlock(). */
	unlocks = smp_load_acquire(&ssp->srcu_shared[idx].unlock);
	/*
	 * A: unlock counts before lock counts.  A section's lock increment
	 * precedes its unlock increment, so every unlock counted here has its
	 * lock counted below: equal totals mean no shared-counter section on
	 * this index was open when we looked.  Pairs with the program order
	 * of each reader's two increments (the unlock is a release).
	 */
	smp_mb();	/* A */
	if (id >= ID_FIRST && id < LRCU_SRCU_MAX_IDS) {
		unsigned long p = id >> LRCU_SRCU_PAGE_SHIFT, i = id & (LRCU_SRCU_PER_PAGE - 1);

		/* Acquire: pairs with the release CAS that pushed each record. */
		for (r = smp_load_acquire(&records); r; r = r->next) {
			/* Acquire pairs with page_get()'s release CAS. */
			struct lrcu_srcu_page *pg = smp_load_acquire(&r->pub.dir[p]);

			if (!pg)
				continue;
			/* Acquire pairs with srcu_read_unlock()'s release (C). */
			v = smp_load_acquire(&pg->ctr[i][idx]);
			if (!v)
				continue;
			busy = true;
			if (!h)
				break;
			holdout_note(h, r, v);
		}
	}
	locks = smp_load_acquire(&ssp->srcu_shared[idx].lock);	/* after A */
	if (locks != unlocks) {
		busy = true;
		if (h)
			h->shared = locks - unlocks;
	}
	return !busy;
}

/* Sections open right now, per index (a snapshot, for stats and cleanup). */
void lrcu__srcu_readers_count(struct srcu_struct *ssp, unsigned long counts[2])
{
	struct srcu_holdouts h;
	int idx;

	for (idx = 0; idx < 2; idx++) {
		lrcu__srcu_readers_drained(ssp, idx, &h);
		counts[idx] = h.total + h.shared;
	}
}
