/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/debug.c - validation: PROVE_RCU splats (once per call site, or
 * every time with PROVE_RCU_REPEATEDLY), the *_held() predicates, debug
 * objects for rcu_head (double call_rcu()), and calls that would deadlock
 * (detected and reported, not hung).  Each case whose outcome ends or
 * floods a process runs in a child (run_self()).
 */
#ifndef CONFIG_PROVE_RCU
#define CONFIG_PROVE_RCU
#endif
#include <sys/syscall.h>
#include <rcu/rcutree.h>
#include "rcu_test.h"

static char out[16384];
static int gval = 42;
static int *__rcu gp = &gval;
static unsigned long idx_val = 3;

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* ------------------------------------------------------------------ */
/* Children */

static int deref_outside(void)
{
	int i;

	rcu_register_thread();
	for (i = 0; i < 3; i++)
		(void)*rcu_dereference(gp);	/* same call site three times */
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static int deref_ok(void)
{
	rcu_register_thread();
	rcu_read_lock();
	(void)*rcu_dereference(gp);
	(void)*rcu_dereference_bh(gp);
	rcu_read_unlock();
	rcu_read_lock_sched();
	(void)*rcu_dereference_sched(gp);
	rcu_read_unlock_sched();
	(void)*rcu_dereference_check(gp, 1);		/* condition holds */
	(void)*rcu_dereference_protected(gp, 1);
	(void)rcu_access_pointer(gp);			/* legal anywhere */
	(void)rcu_access_index(idx_val);
	rcu_lockdep_assert(1, "never printed");
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static int deref_variants(void)
{
	rcu_register_thread();
	(void)*rcu_dereference_bh(gp);
	(void)*rcu_dereference_sched(gp);
	(void)*rcu_dereference_protected(gp, 0);
	(void)rcu_dereference_index_check(idx_val, 0);
	rcu_lockdep_assert(rcu_read_lock_held(), "Need rcu_read_lock()!");
	rcu_read_lock();
	(void)*rcu_dereference_sched(gp);	/* wrong flavor held */
	rcu_read_unlock();
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static int held(void)
{
	int a, b, c, d, e;

	rcu_register_thread();
	a = rcu_read_lock_held();
	rcu_read_lock();
	b = rcu_read_lock_held() && rcu_read_lock_bh_held() && !rcu_read_lock_sched_held();
	rcu_read_unlock();
	rcu_read_lock_sched();
	c = rcu_read_lock_sched_held() && !rcu_read_lock_held();
	rcu_read_unlock_sched();
	rcu_read_lock_bh();
	rcu_read_lock();
	rcu_read_unlock();
	d = rcu_read_lock_bh_held();
	rcu_read_unlock_bh();
	e = rcu_read_lock_held() || rcu_read_lock_sched_held();
	printf("held=%d%d%d%d%d\n", a, b, c, d, e);
	return 0;
}

static int cb_count;

static void count_cb(struct rcu_head *rh)
{
	(void)rh;
	__atomic_fetch_add(&cb_count, 1, __ATOMIC_RELEASE);
}

static int double_call(void)
{
	static struct rcu_head h;
	unsigned long m;

	rcu_register_thread();
	rcu_read_lock();		/* keeps the first one queued */
	call_rcu(&h, count_cb);
	m = lrcu_misuse_count();
	call_rcu(&h, count_cb);		/* double call_rcu() */
	rcu_read_unlock();
	rcu_barrier();
	printf("misuse_delta=%lu invoked=%d\n", lrcu_misuse_count() - m, cb_count);
	/* Re-queueing after it ran is legal. */
	call_rcu(&h, count_cb);
	rcu_barrier();
	printf("again invoked=%d misuse_delta=%lu\n", cb_count, lrcu_misuse_count() - m);
	return 0;
}

static int on_stack(void)
{
	struct rcu_head h;
	unsigned long m;

	rcu_register_thread();
	init_rcu_head_on_stack(&h);
	rcu_read_lock();
	call_rcu(&h, count_cb);
	m = lrcu_misuse_count();
	destroy_rcu_head_on_stack(&h);	/* still queued: reported */
	rcu_read_unlock();
	rcu_barrier();
	destroy_rcu_head_on_stack(&h);	/* after it ran: fine */
	init_rcu_head(&h);
	destroy_rcu_head(&h);
	debug_init_rcu_head(&h);
	printf("misuse_delta=%lu invoked=%d\n", lrcu_misuse_count() - m, cb_count);
	return 0;
}

static int unregistered_reader(void)
{
	rcu_read_lock();
	rcu_read_unlock();
	rcu_read_lock();
	rcu_read_unlock();
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static int unregistered_reader_stderr_locked(void)
{
	lock_stderr_for_good();
	rcu_read_lock();
	rcu_read_unlock();
	printf("misuse=%lu\n", lrcu_misuse_count());
	fflush(stdout);
	/* exit() would flush stderr, behind the lock; so would _exit() under
	 * ThreadSanitizer: leave with the system call itself. */
	syscall(SYS_exit_group, 0);
	return 0;
}

static int offline_reader(void)
{
	rcu_register_thread();
	rcu_thread_offline();
	rcu_read_lock_sched();
	rcu_read_lock_sched();
	rcu_read_unlock_sched();
	printf("momentary: online=%d ", lrcu_reader.rw->ctr[LRCU_SCHED] != 0);
	rcu_read_unlock_sched();
	printf("offline-after=%d\n", lrcu_reader.rw->ctr[LRCU_SCHED] == 0 && !rcu_is_watching());
	/* The same for a thread that has joined the flavor: its markers must
	 * know it went offline (a fast path that missed it would leave the
	 * section unprotected: the word 0). */
	rcu_thread_online();
	rcu_quiescent_state();		/* joins */
	rcu_thread_offline();
	rcu_read_lock_sched();
	printf("joined momentary: online=%d ", lrcu_reader.rw->ctr[LRCU_SCHED] != 0);
	rcu_read_unlock_sched();
	printf("offline-after=%d\n", lrcu_reader.rw->ctr[LRCU_SCHED] == 0 && !rcu_is_watching());
	rcu_thread_online();
	rcu_read_lock();
	rcu_thread_offline();		/* inside a section: refused */
	rcu_read_unlock();
	rcu_read_lock_sched();
	rcu_quiescent_state();		/* inside a sched section */
	rcu_read_unlock_sched();
	rcu_read_unlock();		/* unbalanced */
	printf("misuse=%lu watching=%d\n", lrcu_misuse_count(), rcu_is_watching());
	return 0;
}

static void sync_in_cb(struct rcu_head *rh)
{
	(void)rh;
	synchronize_rcu();
}

static int deadlock(const char *which)
{
	rcu_register_thread();
	if (!strcmp(which, "sync-in-rcu")) {
		rcu_read_lock();
		synchronize_rcu();
	} else if (!strcmp(which, "barrier-in-rcu")) {
		rcu_read_lock();
		rcu_barrier();
	} else if (!strcmp(which, "sched-in-sched")) {
		rcu_read_lock_sched();
		synchronize_sched();
	} else if (!strcmp(which, "sched-exp-in-sched")) {
		rcu_read_lock_sched();
		synchronize_sched_expedited();
	} else if (!strcmp(which, "cond-in-rcu")) {
		rcu_read_lock();
		cond_synchronize_rcu(start_poll_synchronize_rcu());
	} else if (!strcmp(which, "sync-in-cb")) {
		static struct rcu_head h;

		call_rcu(&h, sync_in_cb);
		rcu_barrier();
	} else if (!strcmp(which, "sched-in-rcu")) {
		/* Different flavor: legal, must complete. */
		rcu_read_lock();
		synchronize_sched();
		rcu_read_unlock();
		printf("completed\n");
		return 0;
	}
	printf("returned\n");
	return 0;
}

static int child(const char *mode, const char *arg)
{
	if (!strcmp(mode, "deref-outside"))
		return deref_outside();
	if (!strcmp(mode, "deref-ok"))
		return deref_ok();
	if (!strcmp(mode, "deref-variants"))
		return deref_variants();
	if (!strcmp(mode, "held"))
		return held();
	if (!strcmp(mode, "double-call"))
		return double_call();
	if (!strcmp(mode, "on-stack"))
		return on_stack();
	if (!strcmp(mode, "unregistered"))
		return unregistered_reader();
	if (!strcmp(mode, "unregistered-stderr-locked"))
		return unregistered_reader_stderr_locked();
	if (!strcmp(mode, "offline"))
		return offline_reader();
	if (!strcmp(mode, "deadlock"))
		return deadlock(arg);
	return 99;
}

/* ------------------------------------------------------------------ */

static void test_splats(void)
{
	int st;

	st = run_self("deref-outside", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && count(out, "WARNING: suspicious RCU usage") == 1,
	   "rcu_dereference() outside a reader: one splat for three uses of one call site");
	ok(strstr(out, "tests/rcu/debug.c:") && strstr(out, "suspicious rcu_dereference_check() usage"),
	   "the splat names file, line and the check");
	ok(strstr(out, "misuse=3") != NULL, "every use bumps the misuse counter");
	if (!strstr(out, "misuse=3"))
		diag_output(out);

	st = run_self("deref-ok", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && !strstr(out, "suspicious") && strstr(out, "misuse=0"),
	   "correct uses of every dereference primitive: no splat");
	if (!strstr(out, "misuse=0"))
		diag_output(out);

	st = run_self("deref-variants", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && count(out, "WARNING: suspicious RCU usage") == 6 &&
	   strstr(out, "misuse=6"),
	   "_bh, _sched, _protected, index_check, rcu_lockdep_assert and a wrong flavor each splat");
	ok(strstr(out, "Need rcu_read_lock()!") != NULL, "rcu_lockdep_assert() prints its message");
	if (!strstr(out, "misuse=6"))
		diag_output(out);

	st = run_self("held", NULL, NULL, out, sizeof(out));
	ok(strstr(out, "held=01110") != NULL, "rcu_read_lock{,_bh,_sched}_held() track each flavor");
}

static void test_debug_objects(void)
{
	int st;

	st = run_self("double-call", NULL, "debug_objects=1", out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "ODEBUG: activate active") &&
	   strstr(out, "double call_rcu()"), "double call_rcu() is reported (ODEBUG)");
	ok(strstr(out, "misuse_delta=1 invoked=1") != NULL,
	   "... counted once, and the callback runs once");
	ok(strstr(out, "again invoked=2 misuse_delta=1") != NULL, "re-queueing after it ran is fine");
	if (!strstr(out, "again invoked=2 misuse_delta=1"))
		diag_output(out);

	st = run_self("on-stack", NULL, "debug_objects=0", out, sizeof(out));
	ok(exited_with(st, 0) && !strstr(out, "ODEBUG") && strstr(out, "misuse_delta=0"),
	   "debug_objects=0: no tracking");

	st = run_self("on-stack", NULL, "debug_objects=1", out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "ODEBUG: free active") &&
	   strstr(out, "misuse_delta=1 invoked=1"),
	   "destroy_rcu_head_on_stack() of a queued head is reported; the init/destroy calls work");
	if (!strstr(out, "misuse_delta=1 invoked=1"))
		diag_output(out);
}

static void test_misuse(void)
{
	int st;

	st = run_self("unregistered", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "rcu_register_thread() first") &&
	   strstr(out, "misuse=2"), "rcu_read_lock() in an unregistered thread: reported, counted");
	st = run_self("unregistered-stderr-locked", NULL, NULL, out, sizeof(out));
	if (!ok(exited_with(st, 0) && strstr(out, "rcu: WARNING: read-side critical section "
						  "outside RCU's view") &&
		strstr(out, " in thread ") && strstr(out, "(slot -1, ") && strstr(out, "misuse=1"),
		"the report gets out while another thread holds stderr's stdio lock "
		"(written with write(2), as in a signal handler)"))
		diag_output(out);
	st = run_self("offline", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "inside a read-side critical section") &&
	   strstr(out, "rcu_quiescent_state() inside rcu_read_lock_sched()") &&
	   strstr(out, "without matching rcu_read_lock()") && strstr(out, "misuse=3 watching=1"),
	   "going offline inside a section, a QS inside a sched section and an unbalanced "
	   "unlock are each reported");
	ok(strstr(out, "momentary: online=1 offline-after=1") != NULL,
	   "a sched section entered while offline (a signal handler's) is momentarily online");
	ok(strstr(out, "joined momentary: online=1 offline-after=1") != NULL,
	   "the same after the thread joined the sched flavor and went offline");
	if (!strstr(out, "misuse=3 watching=1") || !strstr(out, "momentary: online=1") ||
	    !strstr(out, "joined momentary: online=1"))
		diag_output(out);
}

static void test_deadlocks(void)
{
	static const struct {
		const char *mode, *msg;
	} cases[] = {
		{ "sync-in-rcu", "synchronize_rcu() called inside rcu_read_lock()" },
		{ "barrier-in-rcu", "rcu_barrier() called inside rcu_read_lock()" },
		{ "sched-in-sched", "synchronize_sched() called inside rcu_read_lock_sched()" },
		{ "sched-exp-in-sched", "synchronize_sched_expedited() called inside rcu_read_lock_sched()" },
		{ "cond-in-rcu", "cond_synchronize_rcu() called inside rcu_read_lock()" },
		{ "sync-in-cb", "synchronize_rcu() called from an RCU callback" },
	};
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		st = run_self("deadlock", cases[i].mode, NULL, out, sizeof(out));
		ok(died_of(st, SIGABRT) && strstr(out, "rcu: BUG: ") && strstr(out, cases[i].msg) &&
		   !strstr(out, "returned"), "%s: detected and reported, not a silent deadlock",
		   cases[i].mode);
		if (!strstr(out, cases[i].msg))
			diag_output(out);
	}
	st = run_self("deadlock", "sched-in-rcu", NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "completed"),
	   "synchronize_sched() inside rcu_read_lock() (another flavor) is legal");
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1], argc > 2 ? argv[2] : "");
	test_splats();
	test_debug_objects();
	test_misuse();
	test_deadlocks();
	return done_testing();
}
