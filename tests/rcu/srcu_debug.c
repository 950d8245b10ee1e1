/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/srcu_debug.c - SRCU misuse is reported, not a crash, a hang or a
 * silent corruption: synchronize_srcu()/srcu_barrier() inside the same
 * domain's reader (and from a callback, or inside rcu_read_lock_sched())
 * print "rcu: BUG:" naming the domain; the cross-domain case is legal;
 * cleanup_srcu_struct() with open readers or queued callbacks reports and
 * frees; an unlock with a wrong index, or on the wrong thread, is reported
 * and ignored; a thread that exits inside a section is reported and its
 * section ends; PROVE_RCU checks srcu_dereference() and, as the kernel's
 * srcu_check_read_flavor(), that a domain keeps to one reader flavor, the
 * one its definition allows; an SRCU-fast unlock handed another thread's
 * counter is reported and ignored.  Each case runs in a child (run_self()).
 */
#ifndef CONFIG_PROVE_RCU
#define CONFIG_PROVE_RCU
#endif
#include "srcu_test.h"

static char out[16384];
DEFINE_SRCU(ssa);
DEFINE_SRCU(ssb);
DEFINE_SRCU_FAST(ssf);
DEFINE_STATIC_SRCU_FAST_UPDOWN(ssu);
static int gval = 42;
static int *__rcu gp = &gval;

/* ------------------------------------------------------------------ */
/* Children */

static int in_cb_done;
static struct srcu_struct *cb_dom;

static void sync_in_cb(struct rcu_head *rh)
{
	(void)rh;
	synchronize_srcu(&ssb);
	set_flag(&in_cb_done);
}

static void cleanup_in_cb(struct rcu_head *rh)
{
	(void)rh;
	cleanup_srcu_struct(cb_dom);	/* its own domain: the worker is busy with it */
	set_flag(&in_cb_done);
}

static int deadlock(const char *mode)
{
	struct rcu_head rh;
	int idx = -1;

	if (!strcmp(mode, "cleanup-in-cb")) {
		cb_dom = malloc(sizeof(*cb_dom));
		init_srcu_struct(cb_dom);
		call_srcu(cb_dom, &rh, cleanup_in_cb);
		wait_flag(&in_cb_done, 60);
		printf("returned\n");
		return 0;
	}
	if (!strcmp(mode, "sync-in-cb")) {
		call_srcu(&ssa, &rh, sync_in_cb);
		srcu_barrier(&ssa);
		printf("returned\n");
		return 0;
	}
	if (!strcmp(mode, "sync-in-sched")) {
		rcu_register_thread();
		rcu_read_lock_sched();
		synchronize_srcu(&ssa);
		printf("returned\n");
		return 0;
	}
	idx = srcu_read_lock(&ssa);
	if (!strcmp(mode, "sync"))
		synchronize_srcu(&ssa);
	else if (!strcmp(mode, "exp"))
		synchronize_srcu_expedited(&ssa);
	else if (!strcmp(mode, "barrier"))
		srcu_barrier(&ssa);
	else if (!strcmp(mode, "cross")) {
		synchronize_srcu(&ssb);		/* another domain: legal */
		synchronize_srcu_expedited(&ssb);
		srcu_barrier(&ssb);
		srcu_read_unlock(&ssa, idx);
		printf("completed\n");
		return 0;
	}
	printf("returned\n");
	srcu_read_unlock(&ssa, idx);
	return 0;
}

static int cleanup_readers(void)
{
	struct srcu_struct *d = malloc(sizeof(*d)), *e = malloc(sizeof(*e));
	unsigned long id;

	init_srcu_struct(d);
	id = d->srcu_id;
	(void)srcu_read_lock(d);	/* never unlocked */
	cleanup_srcu_struct(d);
	init_srcu_struct(e);
	printf("misuse=%lu reused=%d\n", lrcu_misuse_count(), e->srcu_id == id);
	cleanup_srcu_struct(e);
	free(d);
	free(e);
	return 0;
}

static void never_cb(struct rcu_head *rh)
{
	(void)rh;
	printf("callback ran\n");
}

/* A callback that keeps the srcu_worker busy until told to return. */
static int blocker_in, blocker_go;

static void blocker_cb(struct rcu_head *rh)
{
	(void)rh;
	set_flag(&blocker_in);
	wait_flag(&blocker_go, 60);
}

static int cleanup_callbacks(void)
{
	struct srcu_struct *d = malloc(sizeof(*d));
	struct rcu_head rh[3], brh;
	int i;

	init_srcu_struct(d);
	call_srcu(&ssb, &brh, blocker_cb);	/* the worker is now stuck in it */
	wait_flag(&blocker_in, 60);
	for (i = 0; i < 3; i++)
		call_srcu(d, &rh[i], never_cb);	/* so these stay queued */
	cleanup_srcu_struct(d);
	free(d);
	set_flag(&blocker_go);
	srcu_barrier(&ssb);
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static void *other_unlock(void *p)
{
	srcu_read_unlock(&ssa, *(int *)p);
	return NULL;
}

static int bad_unlock(void)
{
	pthread_t t;
	int idx = srcu_read_lock(&ssa);
	int wrong = !idx;

	srcu_read_unlock(&ssa, wrong);		/* not held: reported, ignored */
	srcu_read_unlock(&ssa, 7);		/* never returned by a lock */
	pthread_create(&t, NULL, other_unlock, &idx);	/* wrong thread */
	pthread_join(t, NULL);
	printf("held=%d\n", srcu_read_lock_held(&ssa));
	srcu_read_unlock(&ssa, idx);
	synchronize_srcu(&ssa);
	printf("misuse=%lu completed\n", lrcu_misuse_count());
	return 0;
}

static void *exit_inside(void *p)
{
	(void)p;
	(void)srcu_read_lock(&ssa);
	return NULL;	/* exits inside the section */
}

static int thread_exit(void)
{
	pthread_t t;

	pthread_create(&t, NULL, exit_inside, NULL);
	pthread_join(t, NULL);
	synchronize_srcu(&ssa);
	printf("misuse=%lu completed\n", lrcu_misuse_count());
	return 0;
}

static int deref(const char *mode)
{
	int idx;

	if (!strcmp(mode, "outside")) {
		(void)*srcu_dereference(gp, &ssa);
	} else {
		idx = srcu_read_lock(&ssa);
		(void)*srcu_dereference(gp, &ssa);
		(void)*srcu_dereference_notrace(gp, &ssa);
		srcu_read_unlock(&ssa, idx);
		(void)*srcu_dereference_check(gp, &ssa, 1);	/* condition holds */
		idx = srcu_read_lock_nmisafe(&ssb);
		(void)*srcu_dereference(gp, &ssb);
		srcu_read_unlock_nmisafe(&ssb, idx);
	}
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

/* Reader flavors on one domain: each mode one mistake (or none). */
static int flavors(const char *mode)
{
	struct srcu_struct *d = malloc(sizeof(*d));
	struct srcu_ctr *scp, *scp2;
	int idx, idx2;

	if (!strcmp(mode, "mix")) {			/* NORMAL, then NMI */
		idx = srcu_read_lock(&ssa);
		idx2 = srcu_read_lock_nmisafe(&ssa);
		srcu_read_unlock_nmisafe(&ssa, idx2);
		srcu_read_unlock(&ssa, idx);
	} else if (!strcmp(mode, "fast-on-normal")) {
		srcu_read_unlock_fast(&ssa, srcu_read_lock_fast(&ssa));
	} else if (!strcmp(mode, "normal-on-fast")) {
		srcu_read_unlock(&ssf, srcu_read_lock(&ssf));
	} else if (!strcmp(mode, "fast-on-updown")) {
		srcu_read_unlock_fast(&ssu, srcu_read_lock_fast(&ssu));
	} else if (!strcmp(mode, "updown-on-init-fast")) {
		init_srcu_struct_fast(d);
		srcu_up_read_fast(d, srcu_down_read_fast(d));
		cleanup_srcu_struct(d);
	} else {	/* "compatible": every pairing the kernel allows */
		idx = srcu_read_lock(&ssa);
		srcu_up_read(&ssa, srcu_down_read(&ssa));
		srcu_read_unlock(&ssa, idx);
		srcu_read_unlock_nmisafe(&ssb, srcu_read_lock_nmisafe(&ssb));
		scp = srcu_read_lock_fast(&ssf);
		srcu_read_unlock_fast(&ssf, scp);
		scp = srcu_read_lock_fast_updown(&ssu);
		scp2 = srcu_down_read_fast(&ssu);
		srcu_up_read_fast(&ssu, scp2);
		srcu_read_unlock_fast_updown(&ssu, scp);
		init_srcu_struct_fast(d);
		srcu_read_unlock_fast(d, srcu_read_lock_fast(d));
		synchronize_srcu(d);
		cleanup_srcu_struct(d);
	}
	free(d);
	printf("misuse=%lu\n", lrcu_misuse_count());
	return 0;
}

static void *other_unlock_fast(void *p)
{
	srcu_read_unlock_fast(&ssf, p);
	return NULL;
}

/* srcu_read_unlock_fast() handed a counter this thread holds nothing on. */
static int bad_ctr(void)
{
	struct srcu_ctr *scp = srcu_read_lock_fast(&ssf);
	pthread_t t;

	pthread_create(&t, NULL, other_unlock_fast, scp);	/* wrong thread */
	pthread_join(t, NULL);
	printf("held=%d\n", srcu_read_lock_held(&ssf));
	srcu_read_unlock_fast(&ssf, scp);
	srcu_read_unlock_fast(&ssf, scp);	/* once too often */
	synchronize_srcu(&ssf);
	printf("misuse=%lu completed\n", lrcu_misuse_count());
	return 0;
}

static int child(const char *mode, const char *arg)
{
	if (!strcmp(mode, "deadlock"))
		return deadlock(arg);
	if (!strcmp(mode, "cleanup-readers"))
		return cleanup_readers();
	if (!strcmp(mode, "cleanup-callbacks"))
		return cleanup_callbacks();
	if (!strcmp(mode, "bad-unlock"))
		return bad_unlock();
	if (!strcmp(mode, "thread-exit"))
		return thread_exit();
	if (!strcmp(mode, "deref"))
		return deref(arg);
	if (!strcmp(mode, "flavors"))
		return flavors(arg);
	if (!strcmp(mode, "bad-ctr"))
		return bad_ctr();
	return 99;
}

/* ------------------------------------------------------------------ */

static void test_deadlocks(void)
{
	static const struct {
		const char *mode, *msg;
	} cases[] = {
		{ "sync", "synchronize_srcu() on domain ssa inside its own read-side critical section" },
		{ "exp", "synchronize_srcu_expedited() on domain ssa inside its own read-side" },
		{ "barrier", "srcu_barrier() on domain ssa inside its own read-side" },
		{ "sync-in-cb", "synchronize_srcu() on domain ssb called from an SRCU callback" },
		{ "sync-in-sched", "synchronize_srcu() on domain ssa called inside rcu_read_lock_sched()" },
		{ "cleanup-in-cb", "cleanup_srcu_struct(cb_dom) called from an SRCU callback" },
	};
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		st = run_self("deadlock", cases[i].mode, NULL, out, sizeof(out));
		ok(died_of(st, SIGABRT) && strstr(out, "rcu: BUG: ") && strstr(out, cases[i].msg) &&
		   !strstr(out, "returned"), "%s: detected and reported, not a deadlock", cases[i].mode);
		if (!strstr(out, cases[i].msg))
			diag_output(out);
	}
	st = run_self("deadlock", "cross", NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "completed") && !strstr(out, "BUG"),
	   "synchronize_srcu()/srcu_barrier() on domain B inside a reader of A is legal");
}

static void test_cleanup(void)
{
	int st;

	st = run_self("cleanup-readers", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "rcu: BUG: cleanup_srcu_struct(d): 1 read-side "
					 "critical section(s) still open") &&
	   strstr(out, "misuse=1 reused=0"), "cleanup_srcu_struct() with a reader inside: "
	   "reported naming the domain, no crash or hang, its id not reused");
	if (!strstr(out, "misuse=1 reused=0"))
		diag_output(out);
	st = run_self("cleanup-callbacks", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "rcu: BUG: cleanup_srcu_struct(d): 3 callback(s) "
					 "still queued") &&
	   !strstr(out, "callback ran") && strstr(out, "misuse=1"),
	   "cleanup_srcu_struct() with callbacks queued: reported, freed (ASan: no leak), "
	   "they never run");
	if (!strstr(out, "misuse=1"))
		diag_output(out);
}

static void test_misuse(void)
{
	int st;

	st = run_self("bad-unlock", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "index this thread holds no section on") &&
	   strstr(out, "a value that srcu_read_lock() never returns") &&
	   strstr(out, "on a thread that has no section of this domain open") &&
	   strstr(out, "held=1") && strstr(out, "misuse=3 completed"),
	   "srcu_read_unlock() with a wrong index, a bogus value, or on another thread: each "
	   "reported and ignored; the real section stays held and then ends");
	if (!strstr(out, "misuse=3 completed"))
		diag_output(out);
	st = run_self("thread-exit", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "thread exited inside an SRCU read-side critical "
					 "section") && strstr(out, "domain ssa") &&
	   strstr(out, "misuse=1 completed"),
	   "a thread that exits inside a section: reported, and the grace period completes");
	if (!strstr(out, "misuse=1 completed"))
		diag_output(out);
	st = run_self("bad-ctr", NULL, NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "srcu_read_unlock_fast() (or _fast_updown()) handed "
					 "a counter this thread holds no section on") &&
	   strstr(out, "domain ssf") && strstr(out, "held=1") && strstr(out, "misuse=2 completed"),
	   "srcu_read_unlock_fast() on another thread, or once too often: each reported and "
	   "ignored; the real section stays held and then ends");
	if (!strstr(out, "misuse=2 completed"))
		diag_output(out);
}

/* The kernel's srcu_check_read_flavor(), case by case. */
static void test_flavors(void)
{
	static const struct {
		const char *mode, *msg;
	} cases[] = {
		{ "mix", "srcu_read_lock() and srcu_read_lock_nmisafe() readers on one domain" },
		{ "fast-on-normal", "srcu_read_lock_fast() on a domain defined for srcu_read_lock() "
				    "(DEFINE_SRCU(), init_srcu_struct())" },
		{ "normal-on-fast", "srcu_read_lock() on a domain defined for srcu_read_lock_fast() "
				    "(DEFINE_SRCU_FAST(), init_srcu_struct_fast())" },
		{ "fast-on-updown", "srcu_read_lock_fast() on a domain defined for "
				    "srcu_read_lock_fast_updown() (DEFINE_SRCU_FAST_UPDOWN()" },
		{ "updown-on-init-fast", "srcu_read_lock_fast_updown() on a domain defined for "
					 "srcu_read_lock_fast() (DEFINE_SRCU_FAST()" },
	};
	size_t i;
	int st;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		st = run_self("flavors", cases[i].mode, NULL, out, sizeof(out));
		ok(exited_with(st, 0) && strstr(out, "rcu: WARNING: ") &&
		   strstr(out, cases[i].msg) && !strstr(out, "misuse=0"),
		   "reader flavors, %s: reported", cases[i].mode);
		if (!strstr(out, cases[i].msg))
			diag_output(out);
	}
	st = run_self("flavors", "compatible", NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "misuse=0"), "reader flavors: srcu_read_lock() with "
	   "srcu_down_read(), _fast_updown() with srcu_down_read_fast(), each on its own "
	   "definition: nothing reported");
	if (!strstr(out, "misuse=0"))
		diag_output(out);
}

static void test_prove(void)
{
	int st;

	st = run_self("deref", "outside", NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "suspicious srcu_dereference_check() usage") &&
	   strstr(out, "misuse=1"), "PROVE_RCU: srcu_dereference() outside a section splats");
	st = run_self("deref", "inside", NULL, out, sizeof(out));
	ok(exited_with(st, 0) && strstr(out, "misuse=0"),
	   "... and not inside one (srcu_read_lock(), nmisafe), nor where the condition holds");
	if (!strstr(out, "misuse=0"))
		diag_output(out);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1], argc > 2 ? argv[2] : "");
	test_deadlocks();
	test_cleanup();
	test_misuse();
	test_flavors();
	test_prove();
	return done_testing();
}
