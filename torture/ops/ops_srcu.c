/* SPDX-License-Identifier: MIT */
/*
 * ops_srcu.c - our library's SRCU as torture types, through its public
 * API only (<rcu/srcu.h>):
 *
 *   srcu         a DEFINE_SRCU() domain.  Readers are registered with RCU,
 *                so their extendables can overlap SRCU sections with
 *                rcu_read_lock() ones; SRCU is also nested in itself and
 *                in other domains' sections (a static one, one from
 *                init_srcu_struct(), SRCU_D, and srcu_read_lock_nmisafe()
 *                on one of its own: one domain, one reader flavor, as the
 *                kernel requires).
 *   srcud        a domain from init_srcu_struct(), re-created about every
 *                second while the torture runs (below).  Readers are not
 *                registered with anything.
 *   srcum        SRCUM_DOMAINS domains at once (their ids span two pages of
 *                the per-thread counters); each read picks random domains;
 *                a grace period is one of every domain.
 *   srcu_busted  the kernel's busted_srcud: real SRCU, but the readers'
 *                extendables count rcu_read_lock() as protection, which
 *                holds off no SRCU grace period.  Must end in FAILURE.
 *
 * All are IRQ_CAPABLE (SRCU readers are async-signal-safe) and SLEEPABLE
 * (readers sleep inside their sections now and then).
 *
 * Reader flavors (rcutorture.reader_flavor), as the kernel's
 * srcu_torture_read_lock() takes them: srcu, srcud and srcu_busted readers
 * enter every flavor of the mask, lowest bit first, on the one domain
 * (srcu_torture_init()/srcud_torture_init() in the kernel) defined for
 * the FAST or FAST_UPDOWN flavor the mask asks for, or a plain one, and
 * the update side waits on that domain.  Up/down readers (n_up_down)
 * use srcu_down_read() with the normal flavor, srcu_down_read_fast() with
 * FAST_UPDOWN, as the kernel's srcu_torture_down_read(); other masks have
 * none.
 *
 * srcud's re-creation.  Readers hold two domains: an outer static one (S)
 * for the whole read and, inside it, the current dynamic one (D).  While
 * no re-creation runs, every update-side call uses D alone, so D's grace
 * periods are what the torture checks.  A re-creation (recreate(), one at
 * a time) marks a transition, waits out the update-side calls that did not
 * see the mark (guard domain G, which every update-side call holds while
 * it uses a domain pointer), publishes a new D, waits for every reader
 * (synchronize_srcu(S)), drains the old D (a grace period and
 * srcu_barrier()), retires it (G again, so no call still uses it), cleans
 * it up (any complaint is a misuse, hence a failure) and frees it.  During
 * the transition update-side calls use S, which every reader holds.
 * Polled cookies name their domain: the generation of the D that issued
 * it (high bits) or 0 for S, and the low 40 bits of the cookie, which
 * decode exactly against that domain's current sequence.  A cookie of a
 * retired D polls complete (all its readers ended); S cookies left over
 * from a transition make the next synchronize also wait for S, so that a
 * cookie taken before a synchronize always polls complete after it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "ops_srcu.h"
#include "builtin.h"

#define SEQ_LT(a, b)	((long)((a) - (b)) < 0)	/* wrap-safe */

/* The torture_cb's rcu_space holds our struct rcu_head (first member). */
struct rcu_head *srcut_head(struct torture_cb *cb)
{
	return (struct rcu_head *)(void *)cb->rcu_space;
}

void srcut_cb(struct rcu_head *h)
{
	struct torture_cb *cb = (struct torture_cb *)(void *)h;

	cb->func(cb);
}

unsigned long srcut_comp_state(void) { return RCU_GET_STATE_COMPLETED; }

/* ------------------------------------------------------------------ */
/* Reader flavors: the kernel's srcu_torture_read_lock() and friends */

/* The flavor bit b's unlock value: 2 bits (index, shared) at 2 * b. */
#define RF_SHIFT(flavor)	(2 * __builtin_ctz(flavor))
#define RF_VAL(v, flavor)	(((v) >> RF_SHIFT(flavor)) & 3)

/* The flavors a mask asks for (none: the normal one, as in the kernel). */
static unsigned int rf_of(unsigned int mask)
{
	return mask & SRCU_READ_FLAVOR_ALL ? mask & SRCU_READ_FLAVOR_ALL : SRCU_READ_FLAVOR_NORMAL;
}

int srcut_flavor_defined(unsigned int mask)
{
	if (mask & SRCU_READ_FLAVOR_FAST_UPDOWN)
		return SRCU_READ_FLAVOR_FAST_UPDOWN;
	return mask & SRCU_READ_FLAVOR_FAST ? SRCU_READ_FLAVOR_FAST : 0;
}

struct srcu_struct *srcut_flavor_domain(unsigned int mask, struct srcu_struct *doms[3])
{
	int d = srcut_flavor_defined(mask);

	return doms[d == SRCU_READ_FLAVOR_FAST_UPDOWN ? 2 : d == SRCU_READ_FLAVOR_FAST];
}

int srcut_read_lock(struct srcu_struct *ssp, unsigned int mask)
{
	unsigned int rf = rf_of(mask);
	int v = 0;

	if (rf & SRCU_READ_FLAVOR_NORMAL)
		v |= srcu_read_lock(ssp) << RF_SHIFT(SRCU_READ_FLAVOR_NORMAL);
	if (rf & SRCU_READ_FLAVOR_NMI)
		v |= srcu_read_lock_nmisafe(ssp) << RF_SHIFT(SRCU_READ_FLAVOR_NMI);
	if (rf & SRCU_READ_FLAVOR_FAST)
		v |= __srcu_ptr_to_ctr(ssp, srcu_read_lock_fast(ssp)) <<
		     RF_SHIFT(SRCU_READ_FLAVOR_FAST);
	if (rf & SRCU_READ_FLAVOR_FAST_UPDOWN)
		v |= __srcu_ptr_to_ctr(ssp, srcu_read_lock_fast_updown(ssp)) <<
		     RF_SHIFT(SRCU_READ_FLAVOR_FAST_UPDOWN);
	return v;
}

/* In the opposite order, as the kernel's srcu_torture_read_unlock(). */
void srcut_read_unlock(struct srcu_struct *ssp, unsigned int mask, int v)
{
	unsigned int rf = rf_of(mask);

	if (rf & SRCU_READ_FLAVOR_FAST_UPDOWN)
		srcu_read_unlock_fast_updown(ssp, __srcu_ctr_to_ptr(ssp,
					     RF_VAL(v, SRCU_READ_FLAVOR_FAST_UPDOWN)));
	if (rf & SRCU_READ_FLAVOR_FAST)
		srcu_read_unlock_fast(ssp, __srcu_ctr_to_ptr(ssp, RF_VAL(v, SRCU_READ_FLAVOR_FAST)));
	if (rf & SRCU_READ_FLAVOR_NMI)
		srcu_read_unlock_nmisafe(ssp, RF_VAL(v, SRCU_READ_FLAVOR_NMI));
	if (rf & SRCU_READ_FLAVOR_NORMAL)
		srcu_read_unlock(ssp, RF_VAL(v, SRCU_READ_FLAVOR_NORMAL));
}

/* srcu_torture_down_read(): the normal flavor if asked, else fast-updown. */
int srcut_down_read(struct srcu_struct *ssp, unsigned int mask)
{
	if (rf_of(mask) & SRCU_READ_FLAVOR_NORMAL)
		return srcu_down_read(ssp);
	return __srcu_ptr_to_ctr(ssp, srcu_down_read_fast(ssp));
}

void srcut_up_read(struct srcu_struct *ssp, unsigned int mask, int v)
{
	if (rf_of(mask) & SRCU_READ_FLAVOR_NORMAL)
		srcu_up_read(ssp, v);
	else
		srcu_up_read_fast(ssp, __srcu_ctr_to_ptr(ssp, v));
}

/* ------------------------------------------------------------------ */
/* srcu: one static domain */

DEFINE_STATIC_SRCU(srcu_ctl);
DEFINE_STATIC_SRCU_FAST(srcu_ctlf);
DEFINE_STATIC_SRCU_FAST_UPDOWN(srcu_ctlfud);
/* The domain of the reader flavors (set before init(), as the kernel's
 * srcu_ctlp), and the flavors. */
static struct srcu_struct *srcu_ctlp = &srcu_ctl;
static unsigned int srcu_rf = SRCU_READ_FLAVOR_NORMAL;
DEFINE_STATIC_SRCU(srcu_other);	/* overlapping, not protecting */
DEFINE_STATIC_SRCU(srcu_nmi);	/* the same, for srcu_read_lock_nmisafe() */
DEFINE_STATIC_SRCU_FAST(srcu_fast);	/* ... for srcu_read_lock_fast() */
DEFINE_STATIC_SRCU_FAST_UPDOWN(srcu_fud);	/* ... for srcu_read_lock_fast_updown() */
static struct srcu_struct srcu_dyn;	/* init_srcu_struct(): the same */

/* refscale's loop: srcu_read_lock() itself (no reader_flavor there). */
static int srcu_lock(void) { return srcu_read_lock(&srcu_ctl); }
static void srcu_unlock(int idx) { srcu_read_unlock(&srcu_ctl, idx); }
static int srcu_flavor_lock(void) { return srcut_read_lock(srcu_ctlp, srcu_rf); }
static void srcu_flavor_unlock(int v) { srcut_read_unlock(srcu_ctlp, srcu_rf, v); }
static int srcu_down(void) { return srcut_down_read(srcu_ctlp, srcu_rf); }
static void srcu_up(int v) { srcut_up_read(srcu_ctlp, srcu_rf, v); }
static int srcu_lock_nmi(void) { return srcu_read_lock_nmisafe(&srcu_nmi); }
static void srcu_unlock_nmi(int idx) { srcu_read_unlock_nmisafe(&srcu_nmi, idx); }
static int fast_lock(void) { return __srcu_ptr_to_ctr(&srcu_fast, srcu_read_lock_fast(&srcu_fast)); }
static void fast_unlock(int v) { srcu_read_unlock_fast(&srcu_fast, __srcu_ctr_to_ptr(&srcu_fast, v)); }
static int fud_lock(void) { return __srcu_ptr_to_ctr(&srcu_fud, srcu_read_lock_fast_updown(&srcu_fud)); }
static void fud_unlock(int v)
{
	srcu_read_unlock_fast_updown(&srcu_fud, __srcu_ctr_to_ptr(&srcu_fud, v));
}
static int other_lock(void) { return srcu_read_lock(&srcu_other); }
static void other_unlock(int idx) { srcu_read_unlock(&srcu_other, idx); }
static int dyn_lock(void) { return srcu_read_lock(&srcu_dyn); }
static void dyn_unlock(int idx) { srcu_read_unlock(&srcu_dyn, idx); }

static int srcu_set_flavor(unsigned int mask)
{
	struct srcu_struct *doms[3] = { &srcu_ctl, &srcu_ctlf, &srcu_ctlfud };

	srcu_rf = mask;
	srcu_ctlp = srcut_flavor_domain(mask, doms);
	return 0;
}

static int srcu_init(void)
{
	return rcut_init() || init_srcu_struct(&srcu_dyn) ? -1 : 0;
}
static void *srcu_deref(void *const *pp) { return srcu_dereference(*pp, srcu_ctlp); }
static void *srcu_deref_updown(void *const *pp)
{
	return srcu_dereference_check(*pp, srcu_ctlp, 1);	/* a down_read() section */
}
static TORTURE_READ_SECTION(srcu_read_section, srcu_lock, srcu_unlock, srcu_deref)
static unsigned long srcu_gp_seq(void) { return lrcu_srcu_get_gp_seq(srcu_ctlp); }
static unsigned long srcu_gps(void) { return srcu_batches_completed(srcu_ctlp); }
static void srcu_sync(void) { synchronize_srcu(srcu_ctlp); }
static void srcu_exp_sync(void) { synchronize_srcu_expedited(srcu_ctlp); }
static void srcu_call(struct torture_cb *cb) { call_srcu(srcu_ctlp, srcut_head(cb), srcut_cb); }
static void srcu_cb_barrier(void) { srcu_barrier(srcu_ctlp); }
static unsigned long srcu_get_state(void) { return get_state_synchronize_srcu(srcu_ctlp); }
static unsigned long srcu_start_poll(void) { return start_poll_synchronize_srcu(srcu_ctlp); }
static int srcu_poll(unsigned long c) { return poll_state_synchronize_srcu(srcu_ctlp, c); }
static void srcu_stats(FILE *out) { lrcu_srcu_torture_stats(srcu_ctlp, out); }

static void srcu_cond_sync(unsigned long c)
{
	if (!poll_state_synchronize_srcu(srcu_ctlp, c))
		synchronize_srcu(srcu_ctlp);
}

/*
 * Only SRCU_1 protects: each srcu_read_lock() is a section of its own, and
 * a grace period that starts during one section need not wait for a later
 * one, so handing a read over from one section to another would protect
 * nothing.  With one protecting entry, the reader holds it from the start
 * of the read to the end (the kernel's outer RCU_1 reader); the others
 * nest inside it.
 */
static const struct torture_read_flavor srcu_flavors[] = {
	{ "SRCU_1", srcu_flavor_lock, srcu_flavor_unlock, 1 },
	{ "SRCU_2", srcu_flavor_lock, srcu_flavor_unlock, 0 },
	{ "SRCU_NMI", srcu_lock_nmi, srcu_unlock_nmi, 0 },
	{ "SRCU_FAST", fast_lock, fast_unlock, 0 },
	{ "SRCU_FAST_UPDOWN", fud_lock, fud_unlock, 0 },
	{ "SRCU_O", other_lock, other_unlock, 0 },
	{ "SRCU_D", dyn_lock, dyn_unlock, 0 },
	{ "RCU", rcut_readlock, rcut_readunlock, 0 },
};

const struct torture_ops srcu_ops = {
	SRCUT_BASE,
	SRCUT_REGISTERED,
	.init = srcu_init,
	.debug_objects = rcut_debug_objects,
	.name = "srcu",
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.readlock = srcu_flavor_lock,
	.readunlock = srcu_flavor_unlock,
	.dereference = srcu_deref,
	.read_section = srcu_read_section,
	.read_flavors = srcu_flavors,
	.n_read_flavors = 8,
	.get_gp_seq = srcu_gp_seq,
	.gp_diff = rcut_gp_diff,
	.gps_completed = srcu_gps,
	.sync = srcu_sync,
	.exp_sync = srcu_exp_sync,
	.call = srcu_call,
	.cb_barrier = srcu_cb_barrier,
	.get_gp_state = srcu_get_state,
	.start_gp_poll = srcu_start_poll,
	.poll_gp_state = srcu_poll,
	.cond_sync = srcu_cond_sync,
	.get_comp_state = srcut_comp_state,
	.stats = srcu_stats,
	.gp_state = srcu_stats,
	.reader_flavor = srcu_set_flavor,
	SRCUT_UP_DOWN(srcu_down, srcu_up, srcu_deref_updown),
};

/* ------------------------------------------------------------------ */
/* srcud: a dynamic domain, re-created now and then (see the top) */

#define SRCUD_RECREATE_US	1000000UL	/* about this often */
#define COOKIE_LOW_BITS		40
#define COOKIE_LOW_MASK		((1UL << COOKIE_LOW_BITS) - 1)

DEFINE_STATIC_SRCU(srcud_outer);	/* S: held by every read */
DEFINE_STATIC_SRCU(srcud_guard);	/* G: held by update-side calls */

static struct srcu_struct *srcud_dom[2];	/* by generation & 1; atomic */
static unsigned long srcud_gen = 1;		/* current generation; atomic */
static unsigned long srcud_retired;		/* generations <= this are gone; atomic */
static int srcud_trans;				/* a re-creation runs; atomic */
static unsigned long srcud_trans_gen;		/* ... retiring this one (srcud_mutex) */
static unsigned long srcud_s_cookie = RCU_GET_STATE_COMPLETED;	/* last S cookie
					 * handed out (atomic max), or "none" */
static pthread_mutex_t srcud_mutex = PTHREAD_MUTEX_INITIALIZER;	/* re-creations */
static unsigned long srcud_last_us, srcud_recreations;	/* srcud_mutex; recreations also read by srcud_stats() */
static unsigned long srcud_old_gps;		/* of retired domains; atomic */
static unsigned int srcud_rf = SRCU_READ_FLAVOR_NORMAL;	/* D's reader flavors
							 * (set before init()) */

static unsigned long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000UL + (unsigned long)ts.tv_nsec / 1000;
}

/* A new D, defined for srcud_rf's flavors and named after them. */
static struct srcu_struct *srcud_new(void)
{
	int flavor = srcut_flavor_defined(srcud_rf);
	const char *name = flavor == SRCU_READ_FLAVOR_FAST ? "srcud_fast" :
			   flavor ? "srcud_fast_updown" : "srcud";
	struct srcu_struct *d = malloc(sizeof(*d));

	if (!d || lrcu_init_srcu_struct(d, name, flavor)) {
		fprintf(stderr, "srcud: out of memory\n");
		abort();
	}
	return d;
}

static int srcud_init(void)
{
	if (rcut_init())
		return -1;
	/* Release pairs with the acquire loads in the readers and calls. */
	smp_store_release(&srcud_dom[1], srcud_new());
	srcud_last_us = now_us();
	return 0;
}

static struct srcu_struct *dom_of(unsigned long gen)
{
	return smp_load_acquire(&srcud_dom[gen & 1]);	/* see srcud_init() */
}

static int srcud_set_flavor(unsigned int mask)
{
	srcud_rf = mask;
	return 0;
}

/*
 * A read: S for the whole of it, the current D inside, in D's reader
 * flavors; an up/down read the same with srcu_down_read() (S) and the
 * flavors' down_read() (D).  The value: S's in bits 0-1, D's generation
 * in bit 2, D's above.
 */
static int srcud_value(int is, unsigned long g, int id)
{
	return is | (int)(g & 1) << 2 | id << 3;
}

static struct srcu_struct *srcud_dom_of(int v)
{
	return dom_of((unsigned long)v >> 2);
}

static int srcud_lock(void)
{
	int is = srcu_read_lock(&srcud_outer);
	/* Acquire pairs with recreate()'s release of the new generation. */
	unsigned long g = smp_load_acquire(&srcud_gen);

	return srcud_value(is, g, srcut_read_lock(dom_of(g), srcud_rf));
}

static void srcud_unlock(int v)
{
	srcut_read_unlock(srcud_dom_of(v), srcud_rf, v >> 3);
	srcu_read_unlock(&srcud_outer, v & 3);
}

static int srcud_down(void)
{
	int is = srcu_down_read(&srcud_outer);
	/* Acquire, as in srcud_lock(). */
	unsigned long g = smp_load_acquire(&srcud_gen);

	return srcud_value(is, g, srcut_down_read(dom_of(g), srcud_rf));
}

static void srcud_up(int v)
{
	srcut_up_read(srcud_dom_of(v), srcud_rf, v >> 3);
	srcu_up_read(&srcud_outer, v & 3);
}

static void *srcud_deref(void *const *pp)
{
	return srcu_dereference(*pp, &srcud_outer);
}

static void *srcud_deref_updown(void *const *pp)
{
	return srcu_dereference_check(*pp, &srcud_outer, 1);	/* a down_read() section */
}

static TORTURE_READ_SECTION(srcud_read_section, srcud_lock, srcud_unlock, srcud_deref)

/* What update-side calls see, under G. */
struct srcud_view {
	int guard;			/* G's index */
	bool trans;			/* use S */
	unsigned long gen;		/* current generation */
	struct srcu_struct *d;		/* its domain */
	struct srcu_struct *old;	/* the one being retired, if still alive */
	unsigned long old_gen;
};

static void view_get(struct srcud_view *v)
{
	v->guard = srcu_read_lock(&srcud_guard);
	/* Acquire pairs with recreate()'s releases. */
	v->trans = smp_load_acquire(&srcud_trans);	/* pairs with 1 */
	v->gen = smp_load_acquire(&srcud_gen);		/* pairs with recreate() */
	v->d = dom_of(v->gen);
	v->old = NULL;
	if (v->trans) {
		/* Written before srcud_trans was set (release there). */
		v->old_gen = READ_ONCE(srcud_trans_gen);
		if (v->old_gen > smp_load_acquire(&srcud_retired))	/* pairs with 4 */
			v->old = dom_of(v->old_gen);
	}
}

static void view_put(struct srcud_view *v)
{
	srcu_read_unlock(&srcud_guard, v->guard);
}

static unsigned long cookie_make(unsigned long gen, unsigned long raw)
{
	return gen << COOKIE_LOW_BITS | (raw & COOKIE_LOW_MASK);
}

/* The full sequence value whose low bits are low, nearest to ssp's now. */
static unsigned long cookie_raw(struct srcu_struct *ssp, unsigned long c)
{
	unsigned long cur = lrcu_srcu_get_gp_seq(ssp);
	unsigned long d = ((c & COOKIE_LOW_MASK) - cur) & COOKIE_LOW_MASK;

	if (d & (1UL << (COOKIE_LOW_BITS - 1)))
		d |= ~COOKIE_LOW_MASK;	/* negative: sign-extend */
	return cur + d;
}

static void s_cookie_note(unsigned long raw)
{
	unsigned long old = READ_ONCE(srcud_s_cookie);

	/* Release: pairs with srcud_wait()'s acquire (same thread for the
	 * writer's cookie check; any thread otherwise). */
	while ((old == RCU_GET_STATE_COMPLETED || SEQ_LT(old, raw)) &&
	       !try_cmpxchg_release(&srcud_s_cookie, &old, raw))
		;
}

static unsigned long srcud_cookie(bool start)
{
	struct srcud_view v;
	unsigned long c;

	view_get(&v);
	if (v.trans) {
		c = start ? start_poll_synchronize_srcu(&srcud_outer) :
			    get_state_synchronize_srcu(&srcud_outer);
		s_cookie_note(c);
		c = cookie_make(0, c);
	} else {
		c = cookie_make(v.gen, start ? start_poll_synchronize_srcu(v.d) :
					       get_state_synchronize_srcu(v.d));
	}
	view_put(&v);
	return c;
}

static unsigned long srcud_get_state(void) { return srcud_cookie(false); }
static unsigned long srcud_start_poll(void) { return srcud_cookie(true); }

static int srcud_poll(unsigned long c)
{
	unsigned long gen = c >> COOKIE_LOW_BITS;
	struct srcu_struct *d;
	int done;
	int g;

	if (c == RCU_GET_STATE_COMPLETED)
		return 1;
	if (!gen)
		return poll_state_synchronize_srcu(&srcud_outer, cookie_raw(&srcud_outer, c));
	g = srcu_read_lock(&srcud_guard);
	/* Acquire pairs with recreate()'s release of srcud_retired. */
	if (gen <= smp_load_acquire(&srcud_retired)) {
		done = 1;	/* all its readers ended before it was retired */
	} else {
		d = dom_of(gen);
		done = poll_state_synchronize_srcu(d, cookie_raw(d, c));
	}
	srcu_read_unlock(&srcud_guard, g);
	return done;
}

/* A grace period over every read that began before the call. */
static void srcud_wait(bool exp)
{
	void (*sync)(struct srcu_struct *) = exp ? synchronize_srcu_expedited : synchronize_srcu;
	struct srcud_view v;
	/* Acquire pairs with s_cookie_note(). */
	unsigned long s = smp_load_acquire(&srcud_s_cookie);

	view_get(&v);
	if (v.trans) {
		sync(&srcud_outer);
		if (v.old)
			sync(v.old);	/* its cookies then poll complete */
	} else {
		/* S cookies left by a transition: complete them too. */
		if (!poll_state_synchronize_srcu(&srcud_outer, s))
			sync(&srcud_outer);
		sync(v.d);
	}
	view_put(&v);
}

/*
 * Re-create the dynamic domain (theory at the top).  The steps, each
 * after the previous one is visible to everyone concerned:
 *   1. transition: update-side calls use S; wait out those that did not
 *      see it (G)
 *   2. publish the new D; wait for every read (S): none is in the old D
 *   3. drain the old D: a grace period of its own, then its callbacks
 *   4. retire it; wait out calls that still had its pointer (G)
 *   5. clean it up (a complaint is a misuse: FAILURE) and free it
 *   6. end the transition
 */
static void recreate(void)
{
	unsigned long g = READ_ONCE(srcud_gen);	/* ours to change */
	struct srcu_struct *old = dom_of(g);

	WRITE_ONCE(srcud_trans_gen, g);	/* published below */
	smp_store_release(&srcud_trans, 1);		/* 1 */
	synchronize_srcu(&srcud_guard);
	/* The slot of generation g+1 held generation g-1, freed long ago. */
	smp_store_release(&srcud_dom[(g + 1) & 1], srcud_new());	/* 2 */
	smp_store_release(&srcud_gen, g + 1);	/* pairs with the readers' acquire */
	synchronize_srcu(&srcud_outer);
	synchronize_srcu(old);						/* 3 */
	srcu_barrier(old);
	smp_store_release(&srcud_retired, g);		/* 4 */
	synchronize_srcu(&srcud_guard);
	/* Relaxed: a statistic. */
	atomic_add(srcu_batches_completed(old), &srcud_old_gps);
	cleanup_srcu_struct(old);					/* 5 */
	free(old);
	smp_store_release(&srcud_trans, 0);		/* 6 */
	WRITE_ONCE(srcud_recreations, srcud_recreations + 1);	/* read by srcud_stats() */
}

/* Re-create if it is time and nobody else is at it. */
static void maybe_recreate(void)
{
	if (pthread_mutex_trylock(&srcud_mutex))
		return;
	if (now_us() - srcud_last_us >= SRCUD_RECREATE_US) {
		recreate();
		srcud_last_us = now_us();
	}
	pthread_mutex_unlock(&srcud_mutex);
}

static void srcud_sync(void)
{
	maybe_recreate();
	srcud_wait(false);
}

static void srcud_exp_sync(void)
{
	maybe_recreate();
	srcud_wait(true);
}

static void srcud_cond_sync(unsigned long c)
{
	if (!srcud_poll(c))
		srcud_wait(false);
}

static void srcud_call(struct torture_cb *cb)
{
	struct srcud_view v;

	view_get(&v);
	call_srcu(v.trans ? &srcud_outer : v.d, srcut_head(cb), srcut_cb);
	view_put(&v);
}

static void srcud_cb_barrier(void)
{
	struct srcud_view v;

	maybe_recreate();
	view_get(&v);
	srcu_barrier(&srcud_outer);
	if (v.old)
		srcu_barrier(v.old);
	srcu_barrier(v.d);
	view_put(&v);
}

static unsigned long srcud_gps(void)
{
	struct srcud_view v;
	unsigned long n;

	view_get(&v);
	n = READ_ONCE(srcud_old_gps) +	/* a sample */
	    srcu_batches_completed(&srcud_outer) + srcu_batches_completed(v.d);
	view_put(&v);
	return n;
}

static void srcud_stats(FILE *out)
{
	struct srcud_view v;

	view_get(&v);
	lrcu_srcu_torture_stats(v.d, out);
	view_put(&v);
	fprintf(out, "srcud: generation %lu, %lu re-creations\n",
		READ_ONCE(srcud_gen),		/* samples */
		READ_ONCE(srcud_recreations));
}

/* One protecting entry, as for srcu. */
static const struct torture_read_flavor srcud_flavors[] = {
	{ "SRCUD_1", srcud_lock, srcud_unlock, 1 },
	{ "SRCUD_2", srcud_lock, srcud_unlock, 0 },
};

const struct torture_ops srcud_ops = {
	SRCUT_BASE,
	.name = "srcud",
	.flags = TORTURE_OPS_IRQ_CAPABLE | TORTURE_OPS_SLEEPABLE,
	.init = srcud_init,
	.debug_objects = rcut_debug_objects,
	.readlock = srcud_lock,
	.readunlock = srcud_unlock,
	.dereference = srcud_deref,
	.read_section = srcud_read_section,
	.read_flavors = srcud_flavors,
	.n_read_flavors = 2,
	.gps_completed = srcud_gps,
	.sync = srcud_sync,
	.exp_sync = srcud_exp_sync,
	.call = srcud_call,
	.cb_barrier = srcud_cb_barrier,
	.get_gp_state = srcud_get_state,
	.start_gp_poll = srcud_start_poll,
	.poll_gp_state = srcud_poll,
	.cond_sync = srcud_cond_sync,
	.get_comp_state = srcut_comp_state,
	.stats = srcud_stats,
	.gp_state = srcud_stats,
	.reader_flavor = srcud_set_flavor,
	SRCUT_UP_DOWN(srcud_down, srcud_up, srcud_deref_updown),
};
