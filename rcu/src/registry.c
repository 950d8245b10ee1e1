/* SPDX-License-Identifier: MIT */
/*
 * registry.c - threads as CPUs: slots, registration (CPU online/offline)
 * and extended quiescent states (rcu_thread_offline()/online()).
 *
 * Slots 0..lrcu__nr_internal-1 belong to the library's callback threads
 * (the flavors' two, then the rcuo threads of callback offloading); user
 * threads get slots lrcu__nr_internal..nr_slots-1, nr_cpus of them.
 * Registering edits only the leaf's ->qsmaskinitnext, under the leaf lock,
 * as CPU hotplug does in the kernel: the next grace period folds it in,
 * the current one never waits for a newcomer.  Unregistering reports the
 * slot's quiescent state for the current grace period first, so leaving
 * never stalls one, and hands the slot's callbacks on.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "internal.h"

/* Until its first section a thread's markers read these (all zero: not in
 * a section, REG clear, so the first one takes the slow path, which binds
 * the thread's own words); being read-only, a stray write faults. */
const struct lrcu_rword lrcu__rword_unbound;

__thread struct lrcu_reader lrcu_reader = {
	.rw = (struct lrcu_rword *)&lrcu__rword_unbound, .slot = -1,
	.sched_nesting = LRCU_SN_OFFLINE,
};

/*
 * Set when this thread's rcu_register_thread() failed for lack of a slot,
 * cleared when a later one succeeds: its read-side sections would not be
 * seen by grace periods, so lrcu__reader_unprotected() refuses them.
 */
static __thread bool registration_failed;

int lrcu__nr_internal;
int lrcu__nr_slots;
int lrcu__slots_hwm;
struct lrcu_slot *lrcu__slots;
struct lrcu_rword *lrcu__rwords;
pthread_mutex_t lrcu__slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t exit_key;

static void registry_thread_exit(void *arg);
static bool reader_self_register(const char *what);

void lrcu__registry_init(void)
{
	pthread_key_create(&exit_key, registry_thread_exit);
}

/* rcu_shutdown(): every slot is free; the slots go with the tree. */
void lrcu__registry_stop(void)
{
	pthread_key_delete(exit_key);
	WRITE_ONCE(lrcu__slots_hwm, 0);	/* nothing walks now */
}

/* ------------------------------------------------------------------ */
/* The sched flavor's reader word: 0 = extended quiescent state. */

/*
 * Enter the sched flavor's extended quiescent state.  If a grace period
 * asked us to report, do it ourselves (lock the leaf) when `may_lock',
 * else (possibly in a signal handler) just wake the GP thread, which
 * rescans and finds us quiescent.
 */
static void sched_go_offline(bool may_lock)
{
	struct lrcu_rword *r = lrcu_reader.rw;	/* registered: its slot's line */

	smp_mb();	/* prior sched sections before the word; pairs with
			 * the GP thread's acquire load in gp_scan_leaf() */
	WRITE_ONCE(r->ctr[LRCU_SCHED], 0);	/* between fences */
	lrcu_reader.sched_nesting |= LRCU_SN_OFFLINE;	/* mirrors the word (owner-only) */
	smp_mb();	/* word before the need_qs load; pairs with G in
			 * tree.c: need_qs store, smp_mb(), word load */
	if (!READ_ONCE(r->need_qs[LRCU_SCHED]))	/* after it */
		return;
	if (may_lock)
		lrcu_qs_special();
	else
		lrcu_read_unlock_special(LRCU_SCHED);	/* async-signal-safe */
}

/* rcutree.inject=sched_rejoin (make INJECT=1; dead code otherwise): the
 * join flag that unregistering forgot to clear. */
static __thread unsigned int inject_rejoin_keep;

/*
 * Join flavor f: put our bit in our leaf's ->joinmask, so grace periods
 * look at our word from now on (until then a grace period owes us
 * nothing: our word said quiescent anyway, and skipping the slot spares
 * it a load, or a whole leaf its lock).  Async-signal-safe (an atomic
 * OR; joining twice is harmless).  Seq_cst, and the fence: the bit before
 * our gp_seq sample and our section's loads; pairs with I, gp_init()'s
 * smp_mb() between rcu_seq_start() and its ->joinmask loads (the Spin
 * model's SCEN_JOIN: loaded before the start, a joiner is missed).  The
 * fence is needed: a seq_cst read-modify-write orders only against
 * seq_cst accesses, not the relaxed and acquire loads that follow.
 */
static void join_mask(enum lrcu_flavor f)
{
	struct lrcu_data *rdp = &lrcu__states[f].rda[lrcu_reader.slot];

	atomic_fetch_or(rdp->grpmask, &rdp->mynode->joinmask);	/* fully ordered */
	smp_mb();	/* pairs with I (tree.c) */
}

/*
 * First time online in the sched flavor since registering.  (Its online
 * path fences again after its word store, before the first section: the
 * model's no-fence-join variant passes here.)  The flag may be lost to a
 * signal handler's interrupted update of ->flags, which only makes us
 * join again.
 */
static void sched_join_mask(void)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (r->flags & LRCU_R_SCHED_INMASK)
		return;
	join_mask(LRCU_SCHED);
	r->flags |= LRCU_R_SCHED_INMASK;
}

/*
 * rcu_read_lock()'s outermost section when its word lacks LRCU_W_REG:
 *  - on an unregistered thread: report the section (every time, as
 *    before) and bind the thread's own words, which nothing scans;
 *  - on a registered thread's first section since registering: join the
 *    flavor.  join_mask()'s fence orders the bit before the section (the
 *    model's no-fence-join-rcu is a use after free).  A thread that
 *    registers and never reads is never waited for;
 *  - on a reader that fences itself (no membarrier(): old kernels,
 *    rcupdate.use_membarrier=0, ThreadSanitizer builds): every outermost
 *    section, since its word keeps REG clear.
 * Then what the fast path does, plus the reader's fence where needed.
 */
void lrcu_read_lock_slow(void)
{
	struct lrcu_reader *r = &lrcu_reader;
	bool reg = r->flags & LRCU_R_REGISTERED, fence;
	unsigned long w;

	if (!reg && reader_self_register("rcu_read_lock()"))
		reg = true;	/* joins below, as after rcu_register_thread() */
	if (!reg) {
		lrcu__read_lock_unregistered("rcu_read_lock()");
		if (r->rw == &lrcu__rword_unbound)
			r->rw = &r->own;	/* owner-only (a handler binds the same) */
	} else if (!(r->flags & LRCU_R_RCU_JOINED)) {
		join_mask(LRCU_PREEMPT);
		r->flags |= LRCU_R_RCU_JOINED;	/* lost to a handler: joins again */
	}
	fence = !reg || !READ_ONCE(lrcu_has_membarrier);	/* set once at init */
	/* Acquire: as the fast path's, pairs with gp_seq_publish() (tree.c). */
	w = smp_load_acquire(&lrcu_gp_pub[LRCU_PREEMPT].word);
	if (fence)
		w &= ~LRCU_W_REG;	/* every outermost section comes here */
	/* Release: as the fast path's, pairs with leaf_qs()'s acquire. */
	smp_store_release(&r->rw->ctr[LRCU_PREEMPT], w);
	if (!fence || LRCU_INJECTED(LRCU_BUG_READER_FENCE))	/* INJECTED: no fence */
		barrier();	/* pairs with G (tree.c): membarrier() there */
	else
		smp_mb();	/* pairs with G (tree.c): its smp_mb() there */
}

static void sched_go_online(void)
{
	struct lrcu_rword *r = lrcu_reader.rw;	/* registered: its slot's line */
	unsigned long w;

	sched_join_mask();
	/* Acquire pairs with gp_seq_publish()'s release, as in
	 * rcu_quiescent_state(). */
	w = smp_load_acquire(&lrcu_gp_pub[LRCU_SCHED].word);

	WRITE_ONCE(r->ctr[LRCU_SCHED], w);	/* fence after */
	lrcu_reader.sched_nesting &= ~LRCU_SN_OFFLINE;	/* mirrors the word (owner-only) */
	if (LRCU_INJECTED(LRCU_BUG_SCHED_ONLINE_FENCE))
		return;	/* INJECTED: the sections' loads may pass the word */
	smp_mb();	/* word before later sections' loads; pairs with G in
			 * tree.c, the smp_mb() before its word loads */
}

/* ------------------------------------------------------------------ */
/* Registration */

/* The lowest free slot of the library's (internal) or the users' range;
 * -1 if none is free. */
static int slot_find_free(bool internal)
{
	int lo = internal ? 0 : lrcu__nr_internal;
	int hi = internal ? lrcu__nr_internal : lrcu__nr_slots;
	int i;

	for (i = lo; i < hi; i++)
		if (!lrcu__slots[i].reader)
			return i;
	return -1;
}

/* A user "CPU" number's slot, if it is free: -1 (errno EINVAL: no such
 * CPU, EBUSY: taken).  want < 0: any free one. */
static int slot_pick(bool internal, int want)
{
	int slot;

	if (want < 0)
		return slot_find_free(internal);
	slot = want + lrcu__nr_internal;
	if (slot >= lrcu__nr_slots) {
		errno = EINVAL;
		return -1;
	}
	if (lrcu__slots[slot].reader) {
		errno = EBUSY;
		return -1;
	}
	return slot;
}

static void slot_attach(struct lrcu_rword *r, int slot)
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];
		struct lrcu_data *rdp = &rsp->rda[slot];
		struct lrcu_node *rnp = rdp->mynode;
		int leaf = (int)(rnp - rsp->node) - rsp->level_first[rsp->levels - 1];

		/* Grace periods walk the leaves up to this one from now on.
		 * Release, before the gen bump below: a GP init that sees the
		 * bump sees the leaf too (lrcu_leaf_hwm()); slots_lock makes
		 * us the only writer. */
		if (leaf + 1 > READ_ONCE(rsp->leaf_hwm))
			smp_store_release(&rsp->leaf_hwm, leaf + 1);	/* see above */
		lrcu__node_lock(rnp);
		/* The word is initialised before the scanner can reach it
		 * (both under the leaf lock). */
		WRITE_LOCKED(&rnp->lock, rdp->word, &r->ctr[f]);
		WRITE_LOCKED(&rnp->lock, rdp->need_qs, &r->need_qs[f]);
		/* Atomic: gp_init() peeks at it without the lock (an
		 * arrival there owes nothing: relaxed). */
		WRITE_ONCE_LOCKED(&rnp->lock, rnp->qsmaskinitnext, rnp->qsmaskinitnext | rdp->grpmask);
		lrcu__node_unlock(rnp);
		/* Fully ordered; its release pairs with gp_init()'s acquire
		 * load of the generation (->qsmaskinitnext before it). */
		atomic_fetch_add(1, &lrcu__states[f].qsmaskinit_gen);
	}
	/*
	 * The bumps before this thread's first gp_seq load (in its first
	 * read-side section); pairs with I, the smp_mb() in gp_init()
	 * (tree.c) between rcu_seq_start() and its load of qsmaskinit_gen.
	 */
	smp_mb();	/* pairs with I (tree.c) */
}

static int register_slot(bool internal, int want, const char *what)
{
	struct lrcu_reader *r = &lrcu_reader;
	int slot;

	if (r->flags & LRCU_R_REGISTERED) {
		fprintf(stderr, "rcu: %s: thread already registered (slot %d)\n", what, r->slot);
		errno = EBUSY;
		return -1;
	}
	pthread_mutex_lock(&lrcu__slots_lock);
	slot = slot_pick(internal, want);
	if (slot < 0 && want >= 0) {
		pthread_mutex_unlock(&lrcu__slots_lock);
		return -1;	/* errno says why: the caller picks another */
	}
	if (slot < 0) {
		pthread_mutex_unlock(&lrcu__slots_lock);
		fprintf(stderr, "rcu: %s: all %ld thread slots are in use (nr_cpus=%ld); "
			"raise nr_cpus in RCU_BOOTARGS\n", what,
			lrcu__params.nr_cpus, lrcu__params.nr_cpus);
		registration_failed = true;
		errno = ENOSPC;
		return -1;
	}
	registration_failed = false;
	WRITE_LOCKED(&lrcu__slots_lock, lrcu__slots[slot].reader, r);
	WRITE_LOCKED(&lrcu__slots_lock, lrcu__slots[slot].tid, (int)syscall(SYS_gettid));
	pthread_getname_np(pthread_self(), lrcu__slots[slot].name, sizeof(lrcu__slots[slot].name));
	r->slot = slot;
	r->flags = LRCU_R_REGISTERED;
	if (LRCU_INJECTED(LRCU_BUG_SCHED_REJOIN))
		r->flags |= inject_rejoin_keep;	/* INJECTED: stale join flag */
	r->sched_nesting = LRCU_SN_OFFLINE;	/* joins on first use */
	/*
	 * The slot's line (left by its last owner after it was detached;
	 * nobody scans it before slot_attach()).  Published to the GP thread
	 * by the leaf lock in slot_attach().
	 */
	/* Not joined to either flavor yet (REG clear: the first
	 * rcu_read_lock() joins, lrcu_read_lock_slow()). */
	if (LRCU_INJECTED(LRCU_BUG_RCU_JOIN_SKIPPED))
		r->flags |= LRCU_R_RCU_JOINED;	/* INJECTED: "joined" */
	WRITE_ONCE(lrcu__rwords[slot].ctr[LRCU_PREEMPT], 0);
	WRITE_ONCE(lrcu__rwords[slot].ctr[LRCU_SCHED], 0);
	WRITE_ONCE(lrcu__rwords[slot].need_qs[LRCU_PREEMPT], 0);
	WRITE_ONCE(lrcu__rwords[slot].need_qs[LRCU_SCHED], 0);
	r->rw = &lrcu__rwords[slot];	/* our markers write there from now on */
	slot_attach(r->rw, slot);
	/* Release: the slot's rdp set-up before walkers (callbacks.c,
	 * barrier.c, stats.c) acquire-load the new mark; slots_lock
	 * serialises the writers. */
	if (slot + 1 > READ_ONCE(lrcu__slots_hwm))
		smp_store_release(&lrcu__slots_hwm, slot + 1);	/* see above */
	pthread_mutex_unlock(&lrcu__slots_lock);
	pthread_setspecific(exit_key, r);	/* unregister if the thread exits */
	if (!internal)
		lrcu__nocb_cpu_online(slot);	/* its rcuo threads, if offloaded */
	return 0;
}

/*
 * Self-registering readers (rcupdate.self_register=1, liburcu-bp's
 * model): the first section of a thread that never registered takes a
 * slot for it, as rcu_register_thread() would, and the thread's exit
 * gives it back (exit_key, registry_thread_exit()).  Only the readers'
 * slow path comes here, so registered threads' markers are unchanged.
 * Signals are blocked meanwhile, so that a handler's section on this
 * thread never finds the registration half done.  The first section must
 * not be a signal handler's (the slots lock, stdio: not async-signal-
 * safe).  The parameter is read from the library's start (RCU_BOOTARGS),
 * which the first such section makes happen, or its lrcu_param_set().  Out of slots, the section is refused as after a failed
 * rcu_register_thread() (lrcu__reader_unprotected()).  True if the
 * thread is registered now.
 */
static bool reader_self_register(const char *what)
{
	sigset_t all, old;
	int rc;

	/* Set from RCU_BOOTARGS when the library starts, which this section
	 * may be the first use of (liburcu-bp's programs call no init), or
	 * which another thread may still be in: start it, or wait for it,
	 * before believing a 0.  It may also change at run time. */
	lrcu__init_once();
	if (!READ_ONCE(lrcu__params.self_register))
		return false;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = register_slot(false, -1, what);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc == 0;
}

int lrcu_register_thread(void)
{
	lrcu__init_once();
	return register_slot(false, -1, "rcu_register_thread()");
}

int lrcu_register_thread_cpu(int cpu)
{
	lrcu__init_once();
	if (cpu < 0) {
		errno = EINVAL;
		return -1;
	}
	return register_slot(false, cpu, "rcu_register_thread_cpu()");
}

int lrcu_cpu_leaf(int cpu)
{
	const struct lrcu_state *rsp = &lrcu__states[LRCU_PREEMPT];
	int slot = cpu + lrcu__nr_internal;

	lrcu__init_once();
	if (cpu < 0 || slot >= lrcu__nr_slots)
		return -1;
	return (int)(rsp->rda[slot].mynode - rsp->node) - rsp->level_first[rsp->levels - 1];
}

int lrcu__register_internal(const char *name)
{
	pthread_setname_np(pthread_self(), name);
	return register_slot(true, -1, name);
}

/* Detach slot from the tree: no more waiting for it, callbacks moved. */
static void slot_detach(int slot)
{
	int f;

	for (f = 0; f < LRCU_NR_FLAVORS; f++) {
		struct lrcu_state *rsp = &lrcu__states[f];
		struct lrcu_data *rdp = &rsp->rda[slot];
		struct lrcu_node *rnp = rdp->mynode;
		unsigned long g;

		lrcu__node_lock(rnp);
		/* Release: our last section before gp_init()'s lock-free
		 * peek (acquire) that lets a grace period skip the leaf. */
		STORE_RELEASE_LOCKED(&rnp->lock, rnp->qsmaskinitnext,
				     rnp->qsmaskinitnext & ~rdp->grpmask);
		/* The next owner joins afresh (ordered by the lock and the
		 * generation bump below, as ->qsmaskinitnext). */
		atomic_and(~rdp->grpmask, &rnp->joinmask);
		/* A GP init that misses this bump still reports the departed
		 * slot (phase 2 of gp_init()). */
		atomic_fetch_add(1, &rsp->qsmaskinit_gen);
		WRITE_LOCKED(&rnp->lock, rdp->word, NULL);
		WRITE_LOCKED(&rnp->lock, rdp->need_qs, NULL);
		/* We are outside any section: quiescent for the current GP. */
		g = lrcu__node_waits_for(rnp, rdp);
		if (g)
			lrcu__report_qs_rnp(rsp, rdp->grpmask, rnp, g);
		else
			lrcu__node_unlock(rnp);
		lrcu__migrate_callbacks(rsp, rdp);
	}
}

static int unregister_slot(const char *what)
{
	struct lrcu_reader *r = &lrcu_reader;
	int slot = r->slot;

	if (!(r->flags & LRCU_R_REGISTERED)) {
		errno = EINVAL;
		return -1;
	}
	if (rcu_read_lock_held() || lrcu__sched_counted()) {
		lrcu_read_misuse("rcu_unregister_thread() inside a read-side critical section");
		errno = EBUSY;
		return -1;
	}
	/* Completes the release side of the last section (pairs with the
	 * acquire of the scanner, which now sees a NULL word). */
	smp_mb();
	pthread_mutex_lock(&lrcu__slots_lock);
	slot_detach(slot);
	WRITE_LOCKED(&lrcu__slots_lock, lrcu__slots[slot].reader, NULL);
	pthread_mutex_unlock(&lrcu__slots_lock);
	/* Back to our own words (nobody scans them): not registered. */
	WRITE_ONCE(r->own.ctr[LRCU_PREEMPT], 0);
	WRITE_ONCE(r->own.ctr[LRCU_SCHED], 0);
	r->rw = &r->own;
	r->sched_nesting = LRCU_SN_OFFLINE;	/* depth 0 (checked above) */
	if (LRCU_INJECTED(LRCU_BUG_SCHED_REJOIN))
		inject_rejoin_keep = r->flags & LRCU_R_SCHED_INMASK;	/* INJECTED */
	r->flags = 0;
	r->slot = -1;
	(void)what;
	return 0;
}

/* User threads registered, the caller apart (rcu_shutdown()). */
int lrcu__registry_others(void)
{
	int i, n = 0;

	pthread_mutex_lock(&lrcu__slots_lock);
	for (i = lrcu__nr_internal; i < lrcu__nr_slots; i++)
		n += lrcu__slots[i].reader && lrcu__slots[i].reader != &lrcu_reader;
	pthread_mutex_unlock(&lrcu__slots_lock);
	return n;
}

/*
 * In a fork() child only the forking thread exists: give up every other
 * slot (the library's threads' too: they are restarted and register
 * again) as if its thread had unregistered, so no grace period waits for
 * a thread that is not there and its callbacks still run.  The forking
 * thread keeps its slot, under its new thread id.
 */
void lrcu__registry_fork_child(void)
{
	int i;

	pthread_mutex_lock(&lrcu__slots_lock);
	for (i = 0; i < lrcu__nr_slots; i++) {
		if (!lrcu__slots[i].reader)
			continue;
		if (lrcu__slots[i].reader == &lrcu_reader) {
			WRITE_LOCKED(&lrcu__slots_lock, lrcu__slots[i].tid,
				     (int)syscall(SYS_gettid));
			continue;
		}
		slot_detach(i);
		WRITE_LOCKED(&lrcu__slots_lock, lrcu__slots[i].reader, NULL);
	}
	pthread_mutex_unlock(&lrcu__slots_lock);
}

int lrcu_unregister_thread(void)
{
	int rc = unregister_slot("rcu_unregister_thread()");

	if (!rc)
		pthread_setspecific(exit_key, NULL);
	return rc;
}

/* A registered thread exited without unregistering: do it for it. */
static void registry_thread_exit(void *arg)
{
	struct lrcu_reader *r = arg;

	if (r != &lrcu_reader || !(r->flags & LRCU_R_REGISTERED))
		return;
	if (rcu_read_lock_held() || lrcu__sched_counted()) {
		lrcu_read_misuse("thread exited inside an RCU read-side critical section");
		/* Release pairs with the scanner's acquire, as an unlock. */
		smp_store_release(&r->rw->ctr[LRCU_PREEMPT], LRCU_W_REG);
		r->sched_nesting &= ~(LRCU_SN_DEPTH | LRCU_SN_MOMENTARY);
	}
	unregister_slot("thread exit");
}

/*
 * A read-side section on an unregistered thread (the readers' slow path).
 * After a failed registration that is a program error with a remedy, not
 * a section to let through unprotected: stop here.  A thread that never
 * tried to register gets the misuse warning.  Async-signal-safe, as the
 * read-side markers are: no stdio.
 */
void lrcu__reader_unprotected(const char *what)
{
	struct lrcu_msg m = { 0 };

	if (!registration_failed)
		return;
	lrcu__msg_str(&m, "rcu: BUG: ");
	lrcu__msg_str(&m, what);
	lrcu__msg_str(&m, " in a thread whose rcu_register_thread() failed: all ");
	lrcu__msg_num(&m, lrcu__params.nr_cpus);
	lrcu__msg_str(&m, " thread slots were in use, so grace periods would not wait "
		     "for this section; raise nr_cpus (RCU_BOOTARGS=\"nr_cpus=N\") "
		     "or stop reading when rcu_register_thread() returns -1\n");
	lrcu__msg_fatal(&m);
}

int lrcu_thread_slot(void)
{
	return lrcu_reader.slot;
}

/* ------------------------------------------------------------------ */
/* Extended quiescent states */

void lrcu_thread_offline(void)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (!(r->flags & LRCU_R_REGISTERED)) {
		lrcu_read_misuse("rcu_thread_offline() from a thread that is not registered");
		return;
	}
	if (r->flags & LRCU_R_OFFLINE)
		return;
	if (rcu_read_lock_held() || lrcu__sched_counted()) {
		lrcu_read_misuse("rcu_thread_offline() inside a read-side critical section");
		return;
	}
	r->flags |= LRCU_R_OFFLINE;
	if (r->flags & LRCU_R_SCHED_JOINED)
		sched_go_offline(true);
}

void lrcu_thread_online(void)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (!(r->flags & LRCU_R_OFFLINE))
		return;
	r->flags &= ~LRCU_R_OFFLINE;
	if (r->flags & LRCU_R_SCHED_JOINED)
		sched_go_online();
}

/*
 * rcu_read_lock_sched() found the thread offline in the flavor, or inside
 * a section entered while offline.  Offline, it is either its first use
 * of the flavor (join it), or a section entered in an extended quiescent
 * state.  The latter is what a signal handler does when it interrupts a
 * thread that is offline (or blocked in synchronize_*(), which takes it
 * offline): like an interrupt taken from the kernel's idle loop, the
 * section must be protected, so the thread comes online for its duration
 * and goes back offline at its outermost unlock (lrcu_sched_exit_slow()).
 * Such sections are counted in every build (`counted' or not), an online
 * thread's only when `counted' (CONFIG_PROVE_RCU markers).  Every step is
 * a single store that a nested handler restores, so this is
 * async-signal-safe.
 */
void lrcu_sched_enter_slow(int counted)
{
	struct lrcu_reader *r = &lrcu_reader;
	unsigned int n = r->sched_nesting;

	if (n & LRCU_SN_MOMENTARY) {
		r->sched_nesting = n + LRCU_SN_DEPTH_ONE;	/* nested in a momentary section */
		return;
	}
	if (!(r->flags & LRCU_R_REGISTERED) && !reader_self_register("rcu_read_lock_sched()")) {
		lrcu__read_lock_unregistered("rcu_read_lock_sched()");
		if (counted)
			r->sched_nesting = n + LRCU_SN_DEPTH_ONE;
		return;
	}
	if (r->flags & LRCU_R_OFFLINE) {
		r->sched_nesting = n | LRCU_SN_MOMENTARY;
		counted = 1;
	} else {
		r->flags |= LRCU_R_SCHED_JOINED;
	}
	sched_go_online();
	if (counted)
		r->sched_nesting += LRCU_SN_DEPTH_ONE;
}

/* The outermost unlock of a momentary section: back offline. */
void lrcu_sched_exit_slow(void)
{
	struct lrcu_reader *r = &lrcu_reader;
	unsigned int n = r->sched_nesting - LRCU_SN_DEPTH_ONE;

	if (n & LRCU_SN_DEPTH) {
		r->sched_nesting = n;
		return;
	}
	r->sched_nesting = n & ~LRCU_SN_MOMENTARY;
	sched_go_offline(false);	/* maybe in a signal handler */
}

/* rcu_quiescent_state() off its fast path. */
void lrcu_qs_slow(void)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (lrcu__sched_counted()) {
		lrcu_read_misuse("rcu_quiescent_state() inside rcu_read_lock_sched()");
		return;
	}
	/* Offline or unregistered threads are quiescent anyway. */
	if ((r->flags & (LRCU_R_REGISTERED | LRCU_R_OFFLINE)) != LRCU_R_REGISTERED)
		return;
	r->flags |= LRCU_R_SCHED_JOINED;	/* joining is a quiescent state */
	sched_go_online();
}

/* A sched grace period asked this thread to report (need_qs). */
void lrcu_qs_special(void)
{
	struct lrcu_reader *r = &lrcu_reader;
	struct lrcu_state *rsp = &lrcu__states[LRCU_SCHED];

	/* Clear before reporting: the GP thread re-marks if still needed. */
	WRITE_ONCE(lrcu_reader.rw->need_qs[LRCU_SCHED], 0);	/* registered */
	if (r->slot >= 0)
		lrcu__report_qs_slot(rsp, &rsp->rda[r->slot]);
}

/*
 * An rcu_read_unlock() of a holdout (or a sched thread going offline in a
 * signal handler): tell the GP thread.  The inline unlock comes here at
 * any depth (it does not test the depth, so that a nested pair costs what
 * an outermost one does): a nested one, its section still open, leaves
 * need_qs and the booster's loan to the outermost one.  Async-signal-safe:
 * an atomic store, an atomic increment and a futex wake.
 */
void lrcu_read_unlock_special(enum lrcu_flavor f)
{
	/* Owner-only word: a handler's nested section restores it. */
	if (f == LRCU_PREEMPT &&
	    (READ_ONCE(lrcu_reader.rw->ctr[LRCU_PREEMPT]) & LRCU_W_NEST_MASK))
		return;
	/* Clear before waking: the GP thread re-marks if still needed.
	 * (Only a registered thread's need_qs is ever set.) */
	WRITE_ONCE(lrcu_reader.rw->need_qs[f], 0);
	lrcu__wake(&lrcu__states[f].gp_wake);
	if (f == LRCU_PREEMPT)
		lrcu__boost_unlock();	/* a booster's loan ends here */
}

/*
 * Blocking update-side calls take a sched-joined caller offline while they
 * wait, so a sched grace period never waits for its own requester.
 */
void lrcu__sched_block_begin(bool *was_online)
{
	struct lrcu_reader *r = &lrcu_reader;

	*was_online = (r->flags & (LRCU_R_REGISTERED | LRCU_R_OFFLINE |
				   LRCU_R_SCHED_JOINED)) ==
		      (LRCU_R_REGISTERED | LRCU_R_SCHED_JOINED);
	if (*was_online) {
		r->flags |= LRCU_R_OFFLINE;
		sched_go_offline(true);
	}
}

void lrcu__sched_block_end(bool was_online)
{
	struct lrcu_reader *r = &lrcu_reader;

	if (was_online) {
		r->flags &= ~LRCU_R_OFFLINE;
		sched_go_online();
	}
}
