/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/api.c - the pointer API and the remaining names: publication
 * and initialisation primitives, raw dereferences, kfree_rcu()/
 * kvfree_rcu(), rcu_force_quiescent_state(), the _notrace readers, and
 * lrcu_print_tree()/lrcu_dump_gp_state().
 */
#include <rcu/rcutree.h>
#include "rcu_test.h"

struct foo {
	int a;
	struct rcu_head rh;
};

struct holder {
	struct foo *__rcu p;
	int idx;
};

static struct foo static_foo = { .a = 5 };
static struct holder h = { RCU_POINTER_INITIALIZER(p, &static_foo), .idx = 2 };
static struct rcu_head sched_head;

static void nop_cb(struct rcu_head *rh)
{
	(void)rh;
}

int main(void)
{
	struct foo *f = malloc(sizeof(*f)), *g;
	struct lrcu_stats st;
	char buf[4096];
	FILE *mem;

	rcu_register_thread();
	ok(rcu_access_pointer(h.p) == &static_foo, "RCU_POINTER_INITIALIZER() initialises at compile time");

	f->a = 7;
	rcu_assign_pointer(h.p, f);
	rcu_read_lock();
	g = rcu_dereference(h.p);
	ok(g == f && g->a == 7, "rcu_assign_pointer() publishes, rcu_dereference() reads it");
	ok(rcu_dereference_raw(h.p) == f && rcu_dereference_raw_notrace(h.p) == f,
	   "rcu_dereference_raw() and _notrace");
	rcu_read_unlock();

	RCU_INIT_POINTER(h.p, NULL);
	ok(rcu_access_pointer(h.p) == NULL, "RCU_INIT_POINTER(p, NULL)");
	ok(rcu_access_index(h.idx) == 2, "rcu_access_index()");
	rcu_read_lock_sched_notrace();
	ok(rcu_dereference_index_check(h.idx, 1) == 2 && rcu_read_lock_sched_held(),
	   "rcu_dereference_index_check() and rcu_read_lock_sched_notrace()");
	rcu_read_unlock_sched_notrace();

	lrcu_get_stats(LRCU_PREEMPT, &st);
	kfree_rcu(f, rh);
	g = malloc(sizeof(*g));
	kvfree_rcu(g, rh);
	rcu_force_quiescent_state();
	rcu_sched_force_quiescent_state();
	rcu_barrier();
	{
		struct lrcu_stats st2;

		lrcu_get_stats(LRCU_PREEMPT, &st2);
		is_long(st2.cbs_invoked - st.cbs_invoked, 2, "kfree_rcu() and kvfree_rcu() each freed one object");
	}

	mem = fmemopen(buf, sizeof(buf), "w");
	lrcu_print_tree(mem);
	lrcu_dump_gp_state(LRCU_PREEMPT, mem);
	lrcu_dump_gp_state(LRCU_SCHED, mem);
	fclose(mem);
	ok(strstr(buf, "rcu_node tree:") && strstr(buf, "level 0") &&
	   strstr(buf, "rcu_preempt: g") && strstr(buf, "rcu_sched: g") &&
	   strstr(buf, "RCU_GP_"), "lrcu_print_tree() and lrcu_dump_gp_state() print");
	ok(!strcmp(lrcu_flavor_name(LRCU_SCHED), "rcu_sched") &&
	   !strcmp(lrcu_gp_state_name(LRCU_GPS_WAIT_FQS), "RCU_GP_WAIT_FQS"), "names");
	/* Both callback threads have registered once each has run a callback. */
	call_rcu_sched(&sched_head, nop_cb);
	rcu_barrier_sched();
	lrcu_get_stats(LRCU_PREEMPT, &st);
	ok(st.nr_registered == 3, "stats count registered threads (this one + 2 callback threads): %d",
	   st.nr_registered);
	rcu_unregister_thread();
	return done_testing();
}
