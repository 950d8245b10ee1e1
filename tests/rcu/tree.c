/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/tree.c - the rcu_node tree under different geometries.
 *
 * For each configuration (fanout 2, 3, 16, 64; leaf fanouts; exact or
 * balanced; 1 to 300 registered threads) a fresh child process:
 *   - prints the tree with lrcu_print_tree(), which the parent checks
 *     against an independent computation: depth, leaves partitioning the
 *     slots, fanout limits, parents covering exactly their children;
 *   - runs readers (rcu and sched flavors, with offline periods and
 *     re-registration) spread over every leaf while an updater retires
 *     poisoned elements through synchronize_rcu(), synchronize_sched() and
 *     call_rcu(); any reader that sees poison means a grace period ended
 *     early somewhere in the tree.
 * A last run injects a fault (rcutree.fault_skip_leaf=1: grace periods
 * ignore the second leaf) and must be caught: the check can fail.
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

struct cfg {
	int fanout, leaf, exact, nr_cpus, nthreads;
	const char *extra;	/* more boot arguments */
};

static const struct cfg cfgs[] = {
	{ 2, 2, 0, 14, 1, NULL },	/* 16 slots: four levels of fanout 2 */
	{ 2, 2, 0, 14, 14, NULL },
	{ 2, 2, 0, 16, 16, NULL },	/* 18 slots: five levels */
	{ 2, 4, 0, 30, 30, NULL },
	{ 3, 3, 0, 60, 40, NULL },
	{ 3, 3, 1, 60, 60, NULL },	/* exact: leaves of exactly 3 */
	{ 16, 16, 0, 300, 300, NULL },
	{ 64, 16, 0, 4096, 300, NULL },	/* the default geometry */
	{ 64, 64, 0, 300, 64, NULL },
	{ 64, 16, 0, 14, 1, NULL },	/* one node */
	{ 3, 3, 0, 30, 20, "rcupdate.use_membarrier=0" },	/* fenced readers */
};

/* ------------------------------------------------------------------ */
/* Child: stress */

#define MAGIC 0x600dL
struct elem {
	struct rcu_head rh;
	long magic;
};
static struct elem *__rcu cur;
static int stop, bad;
static long reads;
/*
 * With a deliberately broken RCU (the negative control) readers do touch
 * retired elements: keep them, poisoned, until the readers are gone, so
 * that the poison check (not AddressSanitizer) is what catches it.
 */
static bool keep_retired;
static struct rcu_head *graveyard;
static pthread_mutex_t graveyard_lock = PTHREAD_MUTEX_INITIALIZER;

static void elem_free_cb(struct rcu_head *rh)
{
	struct elem *e = container_of(rh, struct elem, rh);

	WRITE_ONCE(e->magic, 0);	/* poison: no reader may still see it */
	if (!keep_retired) {
		free(e);
		return;
	}
	pthread_mutex_lock(&graveyard_lock);
	rh->next = graveyard;
	graveyard = rh;
	pthread_mutex_unlock(&graveyard_lock);
}

static void graveyard_free(void)
{
	while (graveyard) {
		struct rcu_head *rh = graveyard;

		graveyard = rh->next;
		free(container_of(rh, struct elem, rh));
	}
}

static void check(struct elem *e)
{
	if (e && READ_ONCE(e->magic) != MAGIC)
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
}

static void *reader(void *arg)
{
	long id = (long)arg, n = 0;

	rcu_register_thread();
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		struct elem *e;

		if (id % 3 == 2) {		/* a QSBR reader */
			rcu_read_lock_sched();
			e = rcu_dereference_sched(cur);
			check(e);
			sleep_ms(1);
			check(e);
			rcu_read_unlock_sched();
			rcu_quiescent_state();
		} else {
			rcu_read_lock();
			e = rcu_dereference(cur);
			check(e);
			nanosleep(&(struct timespec){ 0, 200000 }, NULL);
			check(e);
			rcu_read_unlock();
		}
		n++;
		if (n % 50 == 0) {
			rcu_thread_offline();
			sleep_ms(2);
			rcu_thread_online();
		}
		if (n % 200 == 0 && id % 4 == 0) {
			/* Leave and come back: maybe another slot, another leaf. */
			rcu_unregister_thread();
			rcu_register_thread();
		}
		sleep_ms(1);
	}
	__atomic_fetch_add(&reads, n, __ATOMIC_RELAXED);
	rcu_unregister_thread();
	return NULL;
}

static struct elem *elem_new(void)
{
	struct elem *e = malloc(sizeof(*e));

	e->magic = MAGIC;
	return e;
}

static int child_run(int nthreads, double seconds, bool stop_on_bad)
{
	pthread_t *t = calloc((size_t)nthreads, sizeof(*t));
	long i, gps = 0;
	double end;

	lrcu_print_tree(stdout);
	fflush(stdout);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, reader, (void *)i))
			return 3;
	sleep_ms(50);	/* let them register */
	end = now_s() + seconds;
	while (now_s() < end && !(stop_on_bad && __atomic_load_n(&bad, __ATOMIC_RELAXED))) {
		struct elem *old = rcu_dereference_protected(cur, 1);

		rcu_assign_pointer(cur, elem_new());
		if (!old)
			continue;
		/* Readers of both flavors: every path waits for both. */
		switch (gps++ % 3) {
		case 0:
			synchronize_rcu();
			synchronize_sched();
			elem_free_cb(&old->rh);
			break;
		case 1:
			synchronize_sched();
			synchronize_rcu();
			elem_free_cb(&old->rh);
			break;
		default:
			synchronize_sched();
			call_rcu(&old->rh, elem_free_cb);
			break;
		}
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	rcu_barrier();
	free(rcu_dereference_protected(cur, 1));
	graveyard_free();
	free(t);
	printf("result: gps=%ld reads=%ld bad=%d\n", gps, reads, bad);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parent: check the printed tree */

struct node {
	int lo, hi, grp;
};

static bool check_tree(const struct cfg *c, const char *out, char *why, size_t len)
{
	int slots = c->nr_cpus + 2, levels, want, lv, nlv[8] = { 0 };
	static struct node nodes[8][1024];
	const char *p;
	long cap;
	int i, j;

	for (want = 1, cap = c->leaf; cap < slots; want++)
		cap *= c->fanout;
	p = strstr(out, "rcu_node tree: ");
	if (!p || sscanf(p, "rcu_node tree: %d level", &levels) != 1) {
		snprintf(why, len, "no tree printed");
		return false;
	}
	if (levels != want) {
		snprintf(why, len, "%d levels, expected %d", levels, want);
		return false;
	}
	for (lv = 0; lv < levels; lv++) {
		char key[32];
		const char *q;
		int off;

		snprintf(key, sizeof(key), "level %d (", lv);
		q = strstr(out, key);
		if (!q || !(q = strstr(q, "):"))) {
			snprintf(why, len, "level %d missing", lv);
			return false;
		}
		q += 2;
		while (nlv[lv] < 1024 && sscanf(q, " %d:%d ^%d%n", &nodes[lv][nlv[lv]].lo,
						 &nodes[lv][nlv[lv]].hi, &nodes[lv][nlv[lv]].grp,
						 &off) == 3) {
			nlv[lv]++;
			q += off;
		}
	}
	/* Leaves partition [0, slots) in order, within the leaf fanout. */
	lv = levels - 1;
	for (i = 0; i < nlv[lv]; i++) {
		struct node *n = &nodes[lv][i];
		int size = n->hi - n->lo + 1;

		if (n->lo != (i ? nodes[lv][i - 1].hi + 1 : 0) || size < 1 || size > c->leaf) {
			snprintf(why, len, "leaf %d covers %d:%d", i, n->lo, n->hi);
			return false;
		}
		if (c->exact && i < nlv[lv] - 1 && size != c->leaf) {
			snprintf(why, len, "exact: leaf %d has %d slots", i, size);
			return false;
		}
	}
	if (nodes[lv][nlv[lv] - 1].hi != slots - 1) {
		snprintf(why, len, "leaves end at %d, not %d", nodes[lv][nlv[lv] - 1].hi, slots - 1);
		return false;
	}
	/* Each inner node covers exactly its children, numbered 0..k-1. */
	for (lv = 0; lv < levels - 1; lv++) {
		int child = 0;

		for (i = 0; i < nlv[lv]; i++) {
			struct node *n = &nodes[lv][i];
			int k = 0, lo = -1, hi = -1;

			for (j = child; j < nlv[lv + 1] && nodes[lv + 1][j].lo <= n->hi; j++, k++) {
				if (nodes[lv + 1][j].grp != k) {
					snprintf(why, len, "level %d node %d: child %d numbered ^%d",
						 lv, i, k, nodes[lv + 1][j].grp);
					return false;
				}
				if (lo < 0)
					lo = nodes[lv + 1][j].lo;
				hi = nodes[lv + 1][j].hi;
			}
			child = j;
			if (k < 1 || k > c->fanout || lo != n->lo || hi != n->hi) {
				snprintf(why, len, "level %d node %d (%d:%d) has %d children covering %d:%d",
					 lv, i, n->lo, n->hi, k, lo, hi);
				return false;
			}
		}
		if (child != nlv[lv + 1]) {
			snprintf(why, len, "level %d: %d orphan nodes", lv + 1, nlv[lv + 1] - child);
			return false;
		}
	}
	return true;
}

static char out[1 << 20];

static void run_cfg(const struct cfg *c, double secs)
{
	char args[256], why[128] = "", arg[64];
	int st, gps = -1, badv = -1;
	long rd = -1;
	const char *r;

	snprintf(args, sizeof(args), "nr_cpus=%d rcutree.rcu_fanout=%d rcutree.rcu_fanout_leaf=%d "
		 "rcutree.rcu_fanout_exact=%d %s", c->nr_cpus, c->fanout, c->leaf, c->exact,
		 c->extra ? c->extra : "");
	snprintf(arg, sizeof(arg), "%d %.2f", c->nthreads, secs);
	st = run_self("run", arg, args, out, sizeof(out));
	ok(exited_with(st, 0) && check_tree(c, out, why, sizeof(why)),
	   "%s: tree shape %s", args, why[0] ? why : "correct");
	r = strstr(out, "result: ");
	if (r)
		sscanf(r, "result: gps=%d reads=%ld bad=%d", &gps, &rd, &badv);
	ok(badv == 0 && gps > 0 && rd > 0,
	   "%d threads: %d grace periods, %ld reads, no reader saw a poisoned element",
	   c->nthreads, gps, rd);
	if (badv != 0 || why[0])
		diag_output(out);
}

int main(int argc, char **argv)
{
	double secs = getenv("SAN") && *getenv("SAN") ? 1.0 : 0.4;
	char why[8];
	size_t i;
	int st, badv = -1;
	const char *r;

	if (argc > 2) {
		int n;
		double s;

		sscanf(argv[2], "%d %lf", &n, &s);
		keep_retired = getenv("STOP_ON_BAD") != NULL;
		return child_run(n, s, keep_retired);
	}
	(void)why;
	for (i = 0; i < ARRAY_SIZE(cfgs); i++)
		run_cfg(&cfgs[i], secs);

	/* Negative control: grace periods that ignore leaf 1 (slots 2-3, where
	 * the two readers sit) are caught. */
	setenv("STOP_ON_BAD", "1", 1);
	st = run_self("run", "2 20", "nr_cpus=14 rcutree.rcu_fanout=2 rcutree.rcu_fanout_leaf=2 "
		      "rcutree.fault_skip_leaf=1", out, sizeof(out));
	r = strstr(out, "result: ");
	if (r)
		sscanf(r, "result: gps=%*d reads=%*d bad=%d", &badv);
	ok(exited_with(st, 0) && badv == 1,
	   "negative control: grace periods that skip one leaf are caught by these checks");
	return done_testing();
}
