/* SPDX-License-Identifier: MIT */
/*
 * tests/list/debug.c - the checking builds of the list headers:
 *
 *   -DCONFIG_DEBUG_LIST      adds and deletes check their neighbours and the
 *                            poison, and abort with a "corruption" report;
 *   -DCONFIG_PROVE_RCU -DCONFIG_PROVE_RCU_LIST
 *                            list_for_each_entry_rcu() and
 *                            hlist_for_each_entry_rcu() report a traversal
 *                            outside any reader unless the caller passes a
 *                            lock condition; the _bh and hlist_bl forms check
 *                            through rcu_dereference_bh()/_check().
 *
 * Every case runs in a fresh copy of this program (run_self()).
 */
#define CONFIG_DEBUG_LIST 1
#define CONFIG_PROVE_RCU 1
#define CONFIG_PROVE_RCU_LIST 1
#include <rcu/rculist.h>
#include <rcu/rculist_bl.h>
#include <rcu/rculist_nulls.h>
#include "list_test.h"
#include "rcu_test.h"

static struct lt_node e1, e2;
static LIST_HEAD(lhead);
static HLIST_HEAD(hhead);
static struct hlist_bl_head bhead;
static volatile long sink;

/* ------------------------------------------------------------------ */
/* CONFIG_DEBUG_LIST                                                     */

static void double_list_del_rcu(void)
{
	list_add_rcu(&e1.l, &lhead);
	list_del_rcu(&e1.l);
	list_del_rcu(&e1.l);
}

static void double_list_add(void)
{
	list_add(&e1.l, &lhead);
	list_add(&e1.l, &lhead);
}

static void corrupt_neighbour_del(void)
{
	list_add(&e1.l, &lhead);
	list_add(&e2.l, &lhead);
	e2.l.next = &lhead;	/* e1 is lost from the forward chain */
	list_del(&e1.l);
}

static void double_hlist_del_rcu(void)
{
	hlist_add_head_rcu(&e1.h, &hhead);
	hlist_del_rcu(&e1.h);
	hlist_del_rcu(&e1.h);
}

static void double_nulls_del_rcu(void)
{
	struct hlist_nulls_head nh;

	INIT_HLIST_NULLS_HEAD(&nh, 3);
	hlist_nulls_add_head_rcu(&e1.n, &nh);
	hlist_nulls_del_rcu(&e1.n);
	hlist_nulls_del_rcu(&e1.n);
}

static void double_bl_del_rcu(void)
{
	hlist_bl_lock(&bhead);
	hlist_bl_add_head_rcu(&e1.b, &bhead);
	hlist_bl_del_rcu(&e1.b);
	hlist_bl_del_rcu(&e1.b);
}

static void bl_add_unlocked(void)
{
	hlist_bl_add_head_rcu(&e1.b, &bhead);	/* lock not held */
}

static void bl_unlock_unlocked(void)
{
	hlist_bl_unlock(&bhead);
}

/* ------------------------------------------------------------------ */
/* CONFIG_PROVE_RCU_LIST                                                 */

static void fill(void)
{
	list_add_rcu(&e1.l, &lhead);
	hlist_add_head_rcu(&e1.h, &hhead);
	hlist_bl_lock(&bhead);
	hlist_bl_add_head_rcu(&e1.b, &bhead);
	hlist_bl_unlock(&bhead);
}

static void list_outside_reader(void)
{
	struct lt_node *e;

	list_for_each_entry_rcu(e, &lhead, l)
		sink += e->id;
}

static void list_in_reader(void)
{
	struct lt_node *e;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &lhead, l)
		sink += e->id;
	rcu_read_unlock();
}

static void list_in_sched_reader(void)
{
	struct lt_node *e;

	rcu_read_lock_sched();
	list_for_each_entry_rcu(e, &lhead, l)
		sink += e->id;
	rcu_read_unlock_sched();
	rcu_quiescent_state();
}

static void list_with_lock_cond(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct lt_node *e;
	int held;

	pthread_mutex_lock(&lock);
	held = 1;
	list_for_each_entry_rcu(e, &lhead, l, held)
		sink += e->id;
	pthread_mutex_unlock(&lock);
}

static void hlist_outside_reader(void)
{
	struct lt_node *e;

	hlist_for_each_entry_rcu(e, &hhead, h)
		sink += e->id;
}

static void hlist_bh_outside_reader(void)
{
	struct lt_node *e;

	hlist_for_each_entry_rcu_bh(e, &hhead, h)
		sink += e->id;
}

static void hlist_bh_in_reader(void)
{
	struct lt_node *e;

	rcu_read_lock_bh();
	hlist_for_each_entry_rcu_bh(e, &hhead, h)
		sink += e->id;
	rcu_read_unlock_bh();
}

static void bl_first_outside_reader(void)
{
	sink += (long)(uintptr_t)hlist_bl_first_rcu(&bhead);
}

static void bl_first_under_lock(void)
{
	hlist_bl_lock(&bhead);
	sink += (long)(uintptr_t)hlist_bl_first_rcu(&bhead);
	hlist_bl_unlock(&bhead);
}

/* ------------------------------------------------------------------ */

enum { BUG, SPLAT, CLEAN };

static const struct {
	const char *what;
	void (*fn)(void);
	int kind;		/* BUG: aborts; SPLAT: reported; CLEAN: silent */
	const char *expect;	/* in the output (BUG, SPLAT) */
} cases[] = {
	{ "list_del_rcu() twice", double_list_del_rcu, BUG, "list_del corruption" },
	{ "list_add() of an entry next to itself", double_list_add, BUG,
	  "list_add double add" },
	{ "list_del() with a broken neighbour", corrupt_neighbour_del, BUG,
	  "list_del corruption: prev->next should be" },
	{ "hlist_del_rcu() twice", double_hlist_del_rcu, BUG, "hlist_del corruption" },
	{ "hlist_nulls_del_rcu() twice", double_nulls_del_rcu, BUG,
	  "hlist_nulls_del corruption" },
	{ "hlist_bl_del_rcu() twice", double_bl_del_rcu, BUG,
	  "BUG_ON(pprev == LIST_POISON2)" },
	{ "hlist_bl_add_head_rcu() without the bucket lock", bl_add_unlocked, BUG,
	  "hlist_bl: BUG_ON" },
	{ "hlist_bl_unlock() of a free lock", bl_unlock_unlocked, BUG, "hlist_bl: BUG_ON" },
	{ "list_for_each_entry_rcu() outside a reader", list_outside_reader, SPLAT,
	  "RCU-list traversed in non-reader section" },
	{ "list_for_each_entry_rcu() inside rcu_read_lock()", list_in_reader, CLEAN, NULL },
	{ "list_for_each_entry_rcu() inside rcu_read_lock_sched()", list_in_sched_reader,
	  CLEAN, NULL },
	{ "list_for_each_entry_rcu() with the lock condition", list_with_lock_cond,
	  CLEAN, NULL },
	{ "hlist_for_each_entry_rcu() outside a reader", hlist_outside_reader, SPLAT,
	  "RCU-list traversed in non-reader section" },
	{ "hlist_for_each_entry_rcu_bh() outside a reader", hlist_bh_outside_reader, SPLAT,
	  "suspicious rcu_dereference_bh_check() usage" },
	{ "hlist_for_each_entry_rcu_bh() inside rcu_read_lock_bh()", hlist_bh_in_reader,
	  CLEAN, NULL },
	{ "hlist_bl_first_rcu() outside a reader, lock free", bl_first_outside_reader, SPLAT,
	  "suspicious rcu_dereference_check() usage" },
	{ "hlist_bl_first_rcu() under the bucket lock", bl_first_under_lock, CLEAN, NULL },
};

/* The misuse count a child printed last, or -1. */
static long misuses(const char *out)
{
	const char *p = strstr(out, "finished, misuses ");
	long n = -1;

	if (p && sscanf(p, "finished, misuses %ld", &n) != 1)
		n = -1;
	return n;
}

int main(int argc, char **argv)
{
	static char out[16384];
	char arg[16];
	size_t i;
	int status, good;

	if (argc > 2) {			/* a child: run one case */
		i = strtoul(argv[2], NULL, 10);
		INIT_HLIST_BL_HEAD(&bhead);
		if (i >= ARRAY_SIZE(cases) || rcu_register_thread())
			return 3;
		if (cases[i].kind != BUG)
			fill();
		cases[i].fn();
		printf("finished, misuses %lu\n", lrcu_misuse_count());
		fflush(stdout);
		rcu_unregister_thread();
		return 0;
	}

	lt_tsan_child_options();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(arg, sizeof(arg), "%zu", i);
		status = run_self("case", arg, NULL, out, sizeof(out));
		switch (cases[i].kind) {
		case BUG:
			good = ok(died_of(status, SIGABRT) && strstr(out, cases[i].expect) &&
				  !strstr(out, "finished"),
				  "DEBUG_LIST: %s aborts with \"%s\"", cases[i].what,
				  cases[i].expect);
			break;
		case SPLAT:
			good = ok(exited_with(status, 0) && strstr(out, cases[i].expect) &&
				  misuses(out) >= 1,
				  "PROVE_RCU_LIST: %s is reported and counted", cases[i].what);
			break;
		default:
			good = ok(exited_with(status, 0) && misuses(out) == 0 &&
				  !strstr(out, "suspicious"),
				  "PROVE_RCU_LIST: %s is not reported", cases[i].what);
			break;
		}
		if (!good)
			diag_output(out);
	}
	return done_testing();
}
