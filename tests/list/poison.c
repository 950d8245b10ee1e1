/* SPDX-License-Identifier: MIT */
/*
 * tests/list/poison.c - deleted entries are poisoned so that misuse faults
 * loudly instead of corrupting a list.
 *
 * Each misuse runs in a fresh copy of this program (run_self()), which
 * must die - a fault at a poison address, a sanitizer report, or with
 * -DCONFIG_DEBUG_LIST (DEBUG=1 builds) a "corruption" report and abort -
 * before it reaches the line after the misuse.
 */
#include <signal.h>
#include <rcu/rculist.h>
#include <rcu/rculist_bl.h>
#include <rcu/rculist_nulls.h>
#include "list_test.h"
#include "rcu_test.h"

static struct lt_node e1, e2;

static void survived(void)
{
	fputs("survived the misuse\n", stderr);
}

static void double_list_del_rcu(void *arg)
{
	LIST_HEAD(head);

	(void)arg;
	list_add_rcu(&e1.l, &head);
	list_add_rcu(&e2.l, &head);
	list_del_rcu(&e1.l);
	list_del_rcu(&e1.l);	/* writes through LIST_POISON2 */
	survived();
}

static void double_list_del(void *arg)
{
	LIST_HEAD(head);

	(void)arg;
	list_add(&e1.l, &head);
	list_del(&e1.l);
	list_del(&e1.l);	/* writes through LIST_POISON1/2 */
	survived();
}

/* A "reader" that walks backwards from a deleted entry. */
static void reader_uses_prev(void *arg)
{
	LIST_HEAD(head);
	struct list_head *p;
	volatile int sink;

	(void)arg;
	list_add_rcu(&e1.l, &head);
	list_del_rcu(&e1.l);
	p = READ_ONCE(e1.l.prev);
	sink = list_entry(p, struct lt_node, l)->id;	/* reads near LIST_POISON2 */
	(void)sink;
	survived();
}

static void double_hlist_del_rcu(void *arg)
{
	HLIST_HEAD(head);

	(void)arg;
	hlist_add_head_rcu(&e1.h, &head);
	hlist_del_rcu(&e1.h);
	hlist_del_rcu(&e1.h);	/* *pprev = ... through LIST_POISON2 */
	survived();
}

static void replaced_hlist_del_rcu(void *arg)
{
	HLIST_HEAD(head);

	(void)arg;
	hlist_add_head_rcu(&e1.h, &head);
	hlist_replace_rcu(&e1.h, &e2.h);
	hlist_del_rcu(&e1.h);	/* the old node is poisoned too */
	survived();
}

static void double_nulls_del_rcu(void *arg)
{
	struct hlist_nulls_head head;

	(void)arg;
	INIT_HLIST_NULLS_HEAD(&head, 0);
	hlist_nulls_add_head_rcu(&e1.n, &head);
	hlist_nulls_del_rcu(&e1.n);
	hlist_nulls_del_rcu(&e1.n);
	survived();
}

static void double_bl_del_rcu(void *arg)
{
	struct hlist_bl_head head;

	(void)arg;
	INIT_HLIST_BL_HEAD(&head);
	hlist_bl_lock(&head);
	hlist_bl_add_head_rcu(&e1.b, &head);
	hlist_bl_del_rcu(&e1.b);
	hlist_bl_del_rcu(&e1.b);
	hlist_bl_unlock(&head);
	survived();
}

static void list_replace_then_del(void *arg)
{
	LIST_HEAD(head);

	(void)arg;
	list_add_rcu(&e1.l, &head);
	list_replace_rcu(&e1.l, &e2.l);
	list_del_rcu(&e1.l);	/* the replaced entry is poisoned */
	survived();
}

/* The control: correct use survives. */
static void correct_use(void *arg)
{
	LIST_HEAD(head);
	HLIST_HEAD(hhead);

	(void)arg;
	list_add_rcu(&e1.l, &head);
	list_del_rcu(&e1.l);
	list_add_rcu(&e1.l, &head);	/* (after a grace period, in real code) */
	list_del_init(&e1.l);
	hlist_add_head_rcu(&e1.h, &hhead);
	hlist_del_init_rcu(&e1.h);
	hlist_del_init_rcu(&e1.h);	/* fine: unhashed */
	survived();
}

static const struct {
	const char *what;
	void (*fn)(void *);
} cases[] = {
	{ "list_del_rcu() twice", double_list_del_rcu },
	{ "list_del() twice", double_list_del },
	{ "a reader following ->prev of a deleted entry", reader_uses_prev },
	{ "hlist_del_rcu() twice", double_hlist_del_rcu },
	{ "hlist_del_rcu() of a node hlist_replace_rcu() replaced", replaced_hlist_del_rcu },
	{ "hlist_nulls_del_rcu() twice", double_nulls_del_rcu },
	{ "hlist_bl_del_rcu() twice", double_bl_del_rcu },
	{ "list_del_rcu() of an entry list_replace_rcu() replaced", list_replace_then_del },
};

static const char *how(int status, const char *err)
{
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGSEGV ? "SIGSEGV" :
		       WTERMSIG(status) == SIGABRT ? "SIGABRT" : "a signal";
	if (strstr(err, "corruption"))
		return "a corruption report";
	if (strstr(err, "Sanitizer"))
		return "a sanitizer report";
	return "an error exit";
}

int main(int argc, char **argv)
{
	static char out[16384];
	char arg[16];
	size_t i;
	int status;

	if (argc > 2) {			/* a child: run one case */
		i = strtoul(argv[2], NULL, 10);
		if (!strcmp(argv[1], "control"))
			correct_use(NULL);
		else if (i < ARRAY_SIZE(cases))
			cases[i].fn(NULL);
		return 0;
	}

	lt_tsan_child_options();
	status = run_self("control", "0", NULL, out, sizeof(out));
	ok(exited_with(status, 0) && strstr(out, "survived"),
	   "control: correct use of the same primitives runs to completion");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(arg, sizeof(arg), "%zu", i);
		status = run_self("case", arg, NULL, out, sizeof(out));
		ok(!strstr(out, "survived") && !exited_with(status, 0),
		   "%s faults loudly (%s)", cases[i].what, how(status, out));
		if (strstr(out, "survived") || exited_with(status, 0))
			diag_output(out);
	}
	return done_testing();
}
