/* SPDX-License-Identifier: MIT */
/*
 * tests/list/model.c - every list primitive of <rcu/list.h>, <rcu/rculist.h>,
 * <rcu/rculist_nulls.h> and <rcu/rculist_bl.h>, single-threaded, against a
 * reference model.
 *
 * For each list family a random sequence of operations runs on real lists
 * and on arrays (the model).  After every operation each list is compared
 * with its model: forward and backward links, the ->prev/->pprev
 * back-pointer invariants, end markers and lock bits, and every iterator
 * (plain, _rcu, _continue, _from, _safe, stepwise) must produce exactly the
 * model's sequence.  Deletions are checked to poison exactly what the
 * kernel poisons.  One TAP line per (family, operation).
 */
#include <limits.h>
#include <rcu/rculist.h>
#include <rcu/rculist_bl.h>
#include <rcu/rculist_nulls.h>
#include "list_test.h"

#define NN	24	/* nodes */
#define NL	3	/* lists per family (plus a scratch list for lists) */
#define NULLS_BASE 1000


static struct lt_node nodes[NN];
static uint64_t rng;

/* ------------------------------------------------------------------ */
/* The model                                                            */

struct model {
	int v[NN];
	int n;
};

static struct model md[NL + 1];
static int where[NN];		/* list index of each node, -1 if on none */

static void m_reset(void)
{
	int i;

	memset(md, 0, sizeof(md));
	for (i = 0; i < NN; i++)
		where[i] = -1;
}

static void m_insert(int list, int pos, int id)
{
	struct model *m = &md[list];

	memmove(&m->v[pos + 1], &m->v[pos], (size_t)(m->n - pos) * sizeof(int));
	m->v[pos] = id;
	m->n++;
	where[id] = list;
}

static int m_index(int list, int id)
{
	int i;

	for (i = 0; i < md[list].n; i++)
		if (md[list].v[i] == id)
			return i;
	return -1;
}

static void m_remove(int list, int pos)
{
	struct model *m = &md[list];

	where[m->v[pos]] = -1;
	memmove(&m->v[pos], &m->v[pos + 1], (size_t)(m->n - pos - 1) * sizeof(int));
	m->n--;
}

static void m_clear(int list)
{
	while (md[list].n)
		m_remove(list, 0);
}

/* A random node on no list, or -1. */
static int pick_free(void)
{
	int start = (int)lt_below(&rng, NN), i;

	for (i = 0; i < NN; i++)
		if (where[(start + i) % NN] < 0)
			return (start + i) % NN;
	return -1;
}

/* A random node on list `list' (any list if -1); its position in *pos. */
static int pick_used(int list, int *pos)
{
	int start = (int)lt_below(&rng, NN), i, id;

	for (i = 0; i < NN; i++) {
		id = (start + i) % NN;
		if (where[id] >= 0 && (list < 0 || where[id] == list)) {
			*pos = m_index(where[id], id);
			return id;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Sequences                                                            */

static int got[NN + 2], ngot;
static char why[512];

static void seq_begin(void)
{
	ngot = 0;
}

/* Record one visited id; 1 when the walk is too long (stop it). */
static int seq_add(int id)
{
	if (ngot <= NN)
		got[ngot] = id;
	return ++ngot > NN + 1;
}

/* Does the recorded walk equal want[0..nw)?  If not, say why (first). */
static int seq_is(const char *what, const int *want, int nw)
{
	int i, same = ngot == nw;

	for (i = 0; same && i < nw; i++)
		same = got[i] == want[i];
	if (!same && !why[0]) {
		int off = snprintf(why, sizeof(why), "%s: got", what);

		for (i = 0; i < ngot && i <= NN && off < 400; i++)
			off += snprintf(why + off, sizeof(why) - (size_t)off, " %d", got[i]);
		off += snprintf(why + off, sizeof(why) - (size_t)off, ", want");
		for (i = 0; i < nw && off < 480; i++)
			off += snprintf(why + off, sizeof(why) - (size_t)off, " %d", want[i]);
	}
	return same;
}

/*
 * Run the traversal `loop' (a for-header), recording `id' at every step,
 * and compare the visited ids with want[0..nw).
 */
#define SEQ_IS(what, want, nw, loop, id) ({				\
	seq_begin();							\
	loop								\
		if (seq_add(id))					\
			break;						\
	seq_is(what, want, nw);						\
})

static int check(int cond, const char *what)
{
	if (!cond && !why[0])
		snprintf(why, sizeof(why), "%s", what);
	return cond;
}

static void reversed(const struct model *m, int *out)
{
	int i;

	for (i = 0; i < m->n; i++)
		out[i] = m->v[m->n - 1 - i];
}

/* ------------------------------------------------------------------ */
/* Operation statistics                                                 */

struct opstat {
	const char *name;
	unsigned long runs, bad;
	char first_bad[512];
};

/* Account one run of an operation; `good' is the checkers' verdict. */
static void op_done(struct opstat *st, int good)
{
	st->runs++;
	if (!good && !st->bad++)
		snprintf(st->first_bad, sizeof(st->first_bad), "%s", why);
	why[0] = '\0';
}

static void report(const char *family, struct opstat *st, int nops)
{
	int i;

	for (i = 0; i < nops; i++) {
		ok(st[i].runs > 0 && st[i].bad == 0, "%s %s: %lu runs agree with the model",
		   family, st[i].name, st[i].runs);
		if (st[i].bad)
			diag("  %lu bad, first: %s", st[i].bad, st[i].first_bad);
	}
}

/* ================================================================== */
/* struct list_head                                                      */
/* ================================================================== */

static struct list_head L[NL + 1];	/* L[NL]: scratch for cut/splice */
#define SCRATCH NL

static int nsync, sync_saw_empty;
static struct list_head *sync_src;

/* The sync function handed to list_splice_init_rcu(). */
static void counting_sync(void)
{
	nsync++;
	/* list_splice_init_rcu() must empty the source before waiting. */
	sync_saw_empty = list_empty(sync_src);
	synchronize_rcu();
}

static int list_links_ok(struct list_head *head, const struct model *m)
{
	struct list_head *p;
	int rev[NN], i;

	seq_begin();
	for (p = head->next; p != head; p = p->next) {
		if (!check(p->next->prev == p, "list: p->next->prev != p"))
			return 0;
		if (seq_add(list_entry(p, struct lt_node, l)->id))
			break;
	}
	if (!seq_is("list links forward", m->v, m->n))
		return 0;
	seq_begin();
	for (p = head->prev; p != head; p = p->prev)
		if (seq_add(list_entry(p, struct lt_node, l)->id))
			break;
	reversed(m, rev);
	if (!seq_is("list links backward", rev, m->n))
		return 0;
	if (!check(list_empty(head) == (m->n == 0), "list_empty") ||
	    !check(list_empty_careful(head) == (m->n == 0), "list_empty_careful") ||
	    !check(list_is_singular(head) == (m->n == 1), "list_is_singular") ||
	    !check(list_count_nodes(head) == (size_t)m->n, "list_count_nodes") ||
	    !check(list_is_head(head, head), "list_is_head"))
		return 0;
	for (i = 0; i < m->n; i++) {
		struct list_head *e = &nodes[m->v[i]].l;

		if (!check(list_is_first(e, head) == (i == 0), "list_is_first") ||
		    !check(list_is_last(e, head) == (i == m->n - 1), "list_is_last"))
			return 0;
	}
	return 1;
}

static int list_iters_ok(struct list_head *head, const struct model *m)
{
	struct list_head *p, *q;
	struct lt_node *e, *t;
	int rev[NN], k = m->n / 2, good = 1;

	reversed(m, rev);

	good &= SEQ_IS("list_for_each", m->v, m->n,
		       list_for_each(p, head),
		       list_entry(p, struct lt_node, l)->id);
	good &= SEQ_IS("list_for_each_prev", rev, m->n,
		       list_for_each_prev(p, head),
		       list_entry(p, struct lt_node, l)->id);
	good &= SEQ_IS("list_for_each_safe", m->v, m->n,
		       list_for_each_safe(p, q, head),
		       list_entry(p, struct lt_node, l)->id);
	good &= SEQ_IS("list_for_each_prev_safe", rev, m->n,
		       list_for_each_prev_safe(p, q, head),
		       list_entry(p, struct lt_node, l)->id);
	good &= SEQ_IS("list_for_each_entry", m->v, m->n,
		       list_for_each_entry(e, head, l),
		       e->id);
	good &= SEQ_IS("list_for_each_entry_reverse", rev, m->n,
		       list_for_each_entry_reverse(e, head, l),
		       e->id);
	seq_begin();
	list_for_each_entry_safe(e, t, head, l) {
		if (seq_add(e->id))
			break;
		list_safe_reset_next(e, t, l);
		good &= check(&t->l == e->l.next, "list_safe_reset_next");
	}
	good &= seq_is("list_for_each_entry_safe", m->v, m->n);
	good &= SEQ_IS("list_for_each_entry_safe_reverse", rev, m->n,
		       list_for_each_entry_safe_reverse(e, t, head, l),
		       e->id);

	rcu_read_lock();
	good &= SEQ_IS("list_for_each_entry_rcu", m->v, m->n,
		       list_for_each_entry_rcu(e, head, l),
		       e->id);
	good &= SEQ_IS("list_for_each_entry_rcu(cond)", m->v, m->n,
		       list_for_each_entry_rcu(e, head, l, true),
		       e->id);
	good &= SEQ_IS("list_for_each_entry_lockless", m->v, m->n,
		       list_for_each_entry_lockless(e, head, l),
		       e->id);
	/* Stepwise. */
	good &= SEQ_IS("list_first_or_null_rcu/list_next_or_null_rcu", m->v, m->n,
		       for (e = list_first_or_null_rcu(head, struct lt_node, l); e;
			    e = list_next_or_null_rcu(head, &e->l, struct lt_node, l)),
		       e->id);
	good &= SEQ_IS("list_next_rcu/list_entry_rcu", m->v, m->n,
		       for (p = rcu_dereference(list_next_rcu(head)); p != head;
			    p = rcu_dereference(list_next_rcu(p))),
		       list_entry_rcu(list_next_rcu(p->prev), struct lt_node, l)->id);
	rcu_read_unlock();

	e = list_first_entry_or_null(head, struct lt_node, l);
	good &= check(m->n ? e && e->id == m->v[0] : !e, "list_first_entry_or_null");
	if (m->n) {
		good &= check(list_first_entry(head, struct lt_node, l)->id == m->v[0],
			      "list_first_entry");
		good &= check(list_last_entry(head, struct lt_node, l)->id == m->v[m->n - 1],
			      "list_last_entry");
		good &= check(list_tail_rcu(head) == &nodes[m->v[m->n - 1]].l,
			      "list_tail_rcu");
	}
	/* list_prepare_entry(NULL) + continue visits everything. */
	e = NULL;
	e = list_prepare_entry(e, head, l);
	good &= check(list_entry_is_head(e, head, l), "list_prepare_entry(NULL)");
	good &= SEQ_IS("list_prepare_entry+continue", m->v, m->n,
		       list_for_each_entry_continue(e, head, l),
		       e->id);
	if (!m->n)
		return good;

	/* Resumed traversals from the k-th entry. */
	e = &nodes[m->v[k]];
	good &= check(list_prepare_entry(e, head, l) == e, "list_prepare_entry(pos)");
	if (k + 1 < m->n)
		good &= check(list_next_entry(e, l)->id == m->v[k + 1], "list_next_entry");
	if (k > 0)
		good &= check(list_prev_entry(e, l)->id == m->v[k - 1], "list_prev_entry");
	good &= SEQ_IS("list_for_each_entry_continue", m->v + k + 1, m->n - k - 1,
		       list_for_each_entry_continue(e, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_from", m->v + k, m->n - k,
		       list_for_each_entry_from(e, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_continue_reverse", rev + (m->n - k), k,
		       list_for_each_entry_continue_reverse(e, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_from_reverse", rev + (m->n - 1 - k), k + 1,
		       list_for_each_entry_from_reverse(e, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_safe_continue", m->v + k + 1, m->n - k - 1,
		       list_for_each_entry_safe_continue(e, t, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_safe_from", m->v + k, m->n - k,
		       list_for_each_entry_safe_from(e, t, head, l),
		       e->id);

	rcu_read_lock();
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_continue_rcu", m->v + k + 1, m->n - k - 1,
		       list_for_each_entry_continue_rcu(e, head, l),
		       e->id);
	e = &nodes[m->v[k]];
	good &= SEQ_IS("list_for_each_entry_from_rcu", m->v + k, m->n - k,
		       list_for_each_entry_from_rcu(e, head, l),
		       e->id);
	rcu_read_unlock();
	return good;
}

static int lists_ok(void)
{
	int i;

	for (i = 0; i <= NL; i++)
		if (!list_links_ok(&L[i], &md[i]) || !list_iters_ok(&L[i], &md[i]))
			return 0;
	return 1;
}

enum {
	L_ADD, L_ADD_TAIL, L_ADD_AFTER, L_DEL, L_DEL_INIT, L_DEL_INIT_CAREFUL,
	L_REPLACE, L_REPLACE_INIT, L_SWAP, L_MOVE, L_MOVE_TAIL, L_BULK_MOVE_TAIL,
	L_ROTATE_LEFT, L_ROTATE_TO_FRONT, L_CUT_POSITION, L_CUT_BEFORE,
	L_SPLICE, L_SPLICE_TAIL, L_SPLICE_INIT, L_SPLICE_TAIL_INIT,
	L_INIT_RCU, L_ADD_RCU, L_ADD_TAIL_RCU, L_DEL_RCU, L_REPLACE_RCU,
	L_SPLICE_INIT_RCU, L_SPLICE_TAIL_INIT_RCU, L_NOPS
};

static struct opstat lst[L_NOPS] = {
	[L_ADD] = { .name = "list_add" },
	[L_ADD_TAIL] = { .name = "list_add_tail" },
	[L_ADD_AFTER] = { .name = "list_add after an entry" },
	[L_DEL] = { .name = "list_del" },
	[L_DEL_INIT] = { .name = "list_del_init" },
	[L_DEL_INIT_CAREFUL] = { .name = "list_del_init_careful" },
	[L_REPLACE] = { .name = "list_replace" },
	[L_REPLACE_INIT] = { .name = "list_replace_init" },
	[L_SWAP] = { .name = "list_swap" },
	[L_MOVE] = { .name = "list_move" },
	[L_MOVE_TAIL] = { .name = "list_move_tail" },
	[L_BULK_MOVE_TAIL] = { .name = "list_bulk_move_tail" },
	[L_ROTATE_LEFT] = { .name = "list_rotate_left" },
	[L_ROTATE_TO_FRONT] = { .name = "list_rotate_to_front" },
	[L_CUT_POSITION] = { .name = "list_cut_position" },
	[L_CUT_BEFORE] = { .name = "list_cut_before" },
	[L_SPLICE] = { .name = "list_splice" },
	[L_SPLICE_TAIL] = { .name = "list_splice_tail" },
	[L_SPLICE_INIT] = { .name = "list_splice_init" },
	[L_SPLICE_TAIL_INIT] = { .name = "list_splice_tail_init" },
	[L_INIT_RCU] = { .name = "INIT_LIST_HEAD_RCU" },
	[L_ADD_RCU] = { .name = "list_add_rcu" },
	[L_ADD_TAIL_RCU] = { .name = "list_add_tail_rcu" },
	[L_DEL_RCU] = { .name = "list_del_rcu" },
	[L_REPLACE_RCU] = { .name = "list_replace_rcu" },
	[L_SPLICE_INIT_RCU] = { .name = "list_splice_init_rcu" },
	[L_SPLICE_TAIL_INIT_RCU] = { .name = "list_splice_tail_init_rcu" },
};

/* Insertion point: the head of list `li', or (half the time) an entry of
 * it; the model position right after it goes to *pos. */
static struct list_head *pick_anchor(int li, int *pos)
{
	if (md[li].n && lt_below(&rng, 2)) {
		int i = (int)lt_below(&rng, (unsigned long)md[li].n);

		*pos = i + 1;
		return &nodes[md[li].v[i]].l;
	}
	*pos = 0;
	return &L[li];
}

/* Splice the scratch list into a random list with one of the splices. */
static int list_splice_op(int op)
{
	int li = (int)lt_below(&rng, NL), pos, i, n = md[SCRATCH].n, good = 1;
	struct list_head *at;
	int tail = op == L_SPLICE_TAIL || op == L_SPLICE_TAIL_INIT ||
		   op == L_SPLICE_TAIL_INIT_RCU;
	int moved[NN];

	memcpy(moved, md[SCRATCH].v, sizeof(moved));
	if (tail) {
		at = &L[li];
		pos = md[li].n;
	} else {
		at = pick_anchor(li, &pos);
	}
	nsync = 0;
	sync_src = &L[SCRATCH];
	switch (op) {
	case L_SPLICE:		list_splice(&L[SCRATCH], at); break;
	case L_SPLICE_TAIL:	list_splice_tail(&L[SCRATCH], at); break;
	case L_SPLICE_INIT:	list_splice_init(&L[SCRATCH], at); break;
	case L_SPLICE_TAIL_INIT: list_splice_tail_init(&L[SCRATCH], at); break;
	case L_SPLICE_INIT_RCU:
		list_splice_init_rcu(&L[SCRATCH], at, counting_sync);
		good &= check(nsync == (n > 0), "list_splice_init_rcu: sync() calls");
		break;
	case L_SPLICE_TAIL_INIT_RCU:
		list_splice_tail_init_rcu(&L[SCRATCH], at, counting_sync);
		good &= check(nsync == (n > 0), "list_splice_tail_init_rcu: sync() calls");
		break;
	}
	if (nsync)
		good &= check(sync_saw_empty, "splice_init_rcu: source not empty during sync()");
	if (op == L_SPLICE || op == L_SPLICE_TAIL)
		INIT_LIST_HEAD(&L[SCRATCH]);	/* left stale by these two */
	m_clear(SCRATCH);
	for (i = 0; i < n; i++)
		m_insert(li, pos + i, moved[i]);
	return good;
}

static void list_family(unsigned long nops)
{
	unsigned long it;
	int i;

	m_reset();
	for (i = 0; i <= NL; i++)
		INIT_LIST_HEAD(&L[i]);
	for (i = 0; i < NN; i++)
		nodes[i].id = i;

	for (it = 0; it < nops; it++) {
		int op = (int)lt_below(&rng, L_NOPS), li = (int)lt_below(&rng, NL);
		int x, y, px, py, pos, good = 1;
		struct list_head *oldnext;

		switch (op) {
		case L_ADD: case L_ADD_RCU:
			if ((x = pick_free()) < 0)
				continue;
			if (op == L_ADD)
				list_add(&nodes[x].l, &L[li]);
			else
				list_add_rcu(&nodes[x].l, &L[li]);
			m_insert(li, 0, x);
			break;
		case L_ADD_TAIL: case L_ADD_TAIL_RCU:
			if ((x = pick_free()) < 0)
				continue;
			if (op == L_ADD_TAIL)
				list_add_tail(&nodes[x].l, &L[li]);
			else
				list_add_tail_rcu(&nodes[x].l, &L[li]);
			m_insert(li, md[li].n, x);
			break;
		case L_ADD_AFTER: {
			struct list_head *at;

			if ((x = pick_free()) < 0)
				continue;
			at = pick_anchor(li, &pos);
			if (lt_below(&rng, 2))
				list_add(&nodes[x].l, at);
			else
				list_add_rcu(&nodes[x].l, at);
			m_insert(li, pos, x);
			break;
		}
		case L_DEL:
			if ((x = pick_used(-1, &px)) < 0 || where[x] == SCRATCH)
				continue;
			list_del(&nodes[x].l);
			m_remove(where[x], px);
			good &= check(nodes[x].l.next == LIST_POISON1 &&
				      nodes[x].l.prev == LIST_POISON2, "list_del poison");
			break;
		case L_DEL_INIT: case L_DEL_INIT_CAREFUL:
			if ((x = pick_used(-1, &px)) < 0 || where[x] == SCRATCH)
				continue;
			if (op == L_DEL_INIT)
				list_del_init(&nodes[x].l);
			else
				list_del_init_careful(&nodes[x].l);
			m_remove(where[x], px);
			good &= check(list_empty(&nodes[x].l) &&
				      list_empty_careful(&nodes[x].l), "del_init: not empty");
			break;
		case L_DEL_RCU:
			if ((x = pick_used(-1, &px)) < 0 || where[x] == SCRATCH)
				continue;
			oldnext = nodes[x].l.next;
			list_del_rcu(&nodes[x].l);
			m_remove(where[x], px);
			good &= check(nodes[x].l.next == oldnext,
				      "list_del_rcu must keep ->next for readers");
			good &= check(nodes[x].l.prev == LIST_POISON2, "list_del_rcu poison");
			good &= check(!list_empty(&nodes[x].l), "list_del_rcu: list_empty(entry)");
			break;
		case L_REPLACE: case L_REPLACE_INIT: case L_REPLACE_RCU:
			if ((x = pick_used(-1, &px)) < 0 || where[x] == SCRATCH ||
			    (y = pick_free()) < 0)
				continue;
			oldnext = nodes[x].l.next;
			if (op == L_REPLACE)
				list_replace(&nodes[x].l, &nodes[y].l);
			else if (op == L_REPLACE_INIT)
				list_replace_init(&nodes[x].l, &nodes[y].l);
			else
				list_replace_rcu(&nodes[x].l, &nodes[y].l);
			li = where[x];
			m_remove(li, px);
			m_insert(li, px, y);
			if (op == L_REPLACE_INIT)
				good &= check(list_empty(&nodes[x].l), "list_replace_init: old not empty");
			if (op == L_REPLACE_RCU)
				good &= check(nodes[x].l.next == oldnext &&
					      nodes[x].l.prev == LIST_POISON2,
					      "list_replace_rcu: old keeps ->next, ->prev poisoned");
			break;
		case L_SWAP: {
			int lx, ly;

			if ((x = pick_used(-1, &px)) < 0 || (y = pick_used(-1, &py)) < 0 ||
			    x == y || where[x] == SCRATCH || where[y] == SCRATCH)
				continue;
			list_swap(&nodes[x].l, &nodes[y].l);
			lx = where[x];
			ly = where[y];
			md[lx].v[px] = y;
			md[ly].v[py] = x;
			where[y] = lx;
			where[x] = ly;
			break;
		}
		case L_MOVE: case L_MOVE_TAIL: {
			struct list_head *at;

			if ((x = pick_used(-1, &px)) < 0 || where[x] == SCRATCH)
				continue;
			m_remove(where[x], px);
			if (op == L_MOVE_TAIL) {
				at = &L[li];
				pos = md[li].n;
			} else {
				/* The anchor must not be x itself. */
				do
					at = pick_anchor(li, &pos);
				while (at == &nodes[x].l);
			}
			if (op == L_MOVE)
				list_move(&nodes[x].l, at);
			else
				list_move_tail(&nodes[x].l, at);
			m_insert(li, pos, x);
			break;
		}
		case L_BULK_MOVE_TAIL: {
			int from = (int)lt_below(&rng, NL), a, b, run[NN], n;

			if (!md[from].n)
				continue;
			a = (int)lt_below(&rng, (unsigned long)md[from].n);
			b = a + (int)lt_below(&rng, (unsigned long)(md[from].n - a));
			n = b - a + 1;
			memcpy(run, &md[from].v[a], (size_t)n * sizeof(int));
			list_bulk_move_tail(&L[li], &nodes[run[0]].l, &nodes[run[n - 1]].l);
			for (i = 0; i < n; i++)
				m_remove(from, a);
			for (i = 0; i < n; i++)
				m_insert(li, md[li].n, run[i]);
			break;
		}
		case L_ROTATE_LEFT:
			list_rotate_left(&L[li]);
			if (md[li].n) {
				x = md[li].v[0];
				m_remove(li, 0);
				m_insert(li, md[li].n, x);
			}
			break;
		case L_ROTATE_TO_FRONT: {
			int rot[NN], n = md[li].n;

			if (!n)
				continue;
			pos = (int)lt_below(&rng, (unsigned long)n);
			list_rotate_to_front(&nodes[md[li].v[pos]].l, &L[li]);
			for (i = 0; i < n; i++)
				rot[i] = md[li].v[(pos + i) % n];
			memcpy(md[li].v, rot, (size_t)n * sizeof(int));
			break;
		}
		case L_CUT_POSITION: case L_CUT_BEFORE: {
			struct list_head *entry;
			int k, n = md[li].n, cut[NN];

			if (md[SCRATCH].n)
				continue;	/* the scratch list must be empty */
			/* k = number of entries that move */
			k = (int)lt_below(&rng, (unsigned long)n + 1);
			if (op == L_CUT_POSITION) {
				/* entry: last one to move, or the head for none */
				entry = k ? &nodes[md[li].v[k - 1]].l : &L[li];
				list_cut_position(&L[SCRATCH], &L[li], entry);
			} else {
				/* entry: first one to stay, or the head for all */
				entry = k < n ? &nodes[md[li].v[k]].l : &L[li];
				list_cut_before(&L[SCRATCH], &L[li], entry);
			}
			memcpy(cut, md[li].v, (size_t)k * sizeof(int));
			for (i = 0; i < k; i++)
				m_remove(li, 0);
			for (i = 0; i < k; i++)
				m_insert(SCRATCH, i, cut[i]);
			break;
		}
		case L_SPLICE: case L_SPLICE_TAIL: case L_SPLICE_INIT:
		case L_SPLICE_TAIL_INIT: case L_SPLICE_INIT_RCU:
		case L_SPLICE_TAIL_INIT_RCU:
			good &= list_splice_op(op);
			break;
		case L_INIT_RCU: {
			/* Empty a list in one store, as readers see it. */
			if (lt_below(&rng, 4))
				continue;	/* rarely: it drops whole lists */
			INIT_LIST_HEAD_RCU(&L[li]);
			m_clear(li);
			break;
		}
		}
		op_done(&lst[op], good && lists_ok());
	}
	report("list", lst, L_NOPS);
}

/* ================================================================== */
/* struct hlist_head                                                     */
/* ================================================================== */

static struct hlist_head H[NL];

static int hlist_links_ok(struct hlist_head *hh, const struct model *m)
{
	struct hlist_node *p, **pprev = &hh->first;

	seq_begin();
	for (p = hh->first; p; p = p->next) {
		if (!check(p->pprev == pprev, "hlist: ->pprev does not point at the link") ||
		    !check(hlist_pprev_rcu(p) == p, "hlist_pprev_rcu"))
			return 0;
		pprev = &p->next;
		if (seq_add(hlist_entry(p, struct lt_node, h)->id))
			break;
	}
	if (!seq_is("hlist links", m->v, m->n))
		return 0;
	if (!check(hlist_empty(hh) == !m->n, "hlist_empty"))
		return 0;
	if (m->n) {
		struct hlist_node *first = &nodes[m->v[0]].h;

		if (!check(hlist_is_singular_node(first, hh) == (m->n == 1),
			   "hlist_is_singular_node") ||
		    !check(!hlist_unhashed(first) && !hlist_unhashed_lockless(first),
			   "hlist_unhashed of a hashed node"))
			return 0;
	}
	return 1;
}

static int hlist_iters_ok(struct hlist_head *hh, const struct model *m)
{
	struct hlist_node *p, *q;
	struct lt_node *e;
	int k = m->n / 2, good = 1;

	good &= SEQ_IS("hlist_for_each", m->v, m->n,
		       hlist_for_each(p, hh),
		       hlist_entry(p, struct lt_node, h)->id);
	good &= SEQ_IS("hlist_for_each_safe", m->v, m->n,
		       hlist_for_each_safe(p, q, hh),
		       hlist_entry(p, struct lt_node, h)->id);
	good &= SEQ_IS("hlist_for_each_entry", m->v, m->n,
		       hlist_for_each_entry(e, hh, h),
		       e->id);
	good &= SEQ_IS("hlist_for_each_entry_safe", m->v, m->n,
		       hlist_for_each_entry_safe(e, q, hh, h),
		       e->id);

	rcu_read_lock();
	good &= SEQ_IS("__hlist_for_each_rcu", m->v, m->n,
		       __hlist_for_each_rcu(p, hh),
		       hlist_entry(p, struct lt_node, h)->id);
	good &= SEQ_IS("hlist_for_each_entry_rcu", m->v, m->n,
		       hlist_for_each_entry_rcu(e, hh, h),
		       e->id);
	good &= SEQ_IS("hlist_for_each_entry_rcu(cond)", m->v, m->n,
		       hlist_for_each_entry_rcu(e, hh, h, 1),
		       e->id);
	good &= SEQ_IS("hlist_for_each_entry_rcu_notrace", m->v, m->n,
		       hlist_for_each_entry_rcu_notrace(e, hh, h),
		       e->id);
	good &= SEQ_IS("hlist_first_rcu/hlist_next_rcu", m->v, m->n,
		       for (p = rcu_dereference(hlist_first_rcu(hh)); p; p = rcu_dereference(hlist_next_rcu(p))),
		       hlist_entry(p, struct lt_node, h)->id);
	if (m->n) {
		e = &nodes[m->v[k]];
		good &= SEQ_IS("hlist_for_each_entry_continue_rcu", m->v + k + 1, m->n - k - 1,
			       hlist_for_each_entry_continue_rcu(e, h),
			       e->id);
		good &= check(e == NULL, "hlist_for_each_entry_continue_rcu ends with NULL");
		e = &nodes[m->v[k]];
		good &= SEQ_IS("hlist_for_each_entry_from_rcu", m->v + k, m->n - k,
			       hlist_for_each_entry_from_rcu(e, h),
			       e->id);
	}
	rcu_read_unlock();

	rcu_read_lock_bh();
	good &= SEQ_IS("hlist_for_each_entry_rcu_bh", m->v, m->n,
		       hlist_for_each_entry_rcu_bh(e, hh, h),
		       e->id);
	if (m->n) {
		e = &nodes[m->v[k]];
		good &= SEQ_IS("hlist_for_each_entry_continue_rcu_bh", m->v + k + 1, m->n - k - 1,
			       hlist_for_each_entry_continue_rcu_bh(e, h),
			       e->id);
	}
	rcu_read_unlock_bh();

	if (m->n) {
		e = &nodes[m->v[k]];
		good &= SEQ_IS("hlist_for_each_entry_continue", m->v + k + 1, m->n - k - 1,
			       hlist_for_each_entry_continue(e, h),
			       e->id);
		e = &nodes[m->v[k]];
		good &= SEQ_IS("hlist_for_each_entry_from", m->v + k, m->n - k,
			       hlist_for_each_entry_from(e, h),
			       e->id);
	}
	return good;
}

static int hlists_ok(void)
{
	int i;

	for (i = 0; i < NL; i++)
		if (!hlist_links_ok(&H[i], &md[i]) || !hlist_iters_ok(&H[i], &md[i]))
			return 0;
	return 1;
}

enum {
	H_ADD_HEAD, H_ADD_BEFORE, H_ADD_BEHIND, H_ADD_AFTER, H_DEL, H_DEL_INIT,
	H_MOVE_LIST, H_FAKE, H_ADD_HEAD_RCU, H_ADD_BEFORE_RCU, H_ADD_BEHIND_RCU,
	H_ADD_AFTER_RCU, H_ADD_TAIL_RCU, H_DEL_RCU, H_DEL_INIT_RCU, H_REPLACE_RCU,
	H_NOPS
};

static struct opstat hst[H_NOPS] = {
	[H_ADD_HEAD] = { .name = "hlist_add_head" },
	[H_ADD_BEFORE] = { .name = "hlist_add_before" },
	[H_ADD_BEHIND] = { .name = "hlist_add_behind" },
	[H_ADD_AFTER] = { .name = "hlist_add_after (old spelling: existing, new)" },
	[H_DEL] = { .name = "hlist_del" },
	[H_DEL_INIT] = { .name = "hlist_del_init" },
	[H_MOVE_LIST] = { .name = "hlist_move_list" },
	[H_FAKE] = { .name = "hlist_add_fake/hlist_fake" },
	[H_ADD_HEAD_RCU] = { .name = "hlist_add_head_rcu" },
	[H_ADD_BEFORE_RCU] = { .name = "hlist_add_before_rcu" },
	[H_ADD_BEHIND_RCU] = { .name = "hlist_add_behind_rcu" },
	[H_ADD_AFTER_RCU] = { .name = "hlist_add_after_rcu (old spelling: prev, new)" },
	[H_ADD_TAIL_RCU] = { .name = "hlist_add_tail_rcu" },
	[H_DEL_RCU] = { .name = "hlist_del_rcu" },
	[H_DEL_INIT_RCU] = { .name = "hlist_del_init_rcu" },
	[H_REPLACE_RCU] = { .name = "hlist_replace_rcu" },
};

static void hlist_family(unsigned long nops)
{
	unsigned long it;
	int i;

	m_reset();
	for (i = 0; i < NL; i++)
		INIT_HLIST_HEAD(&H[i]);
	for (i = 0; i < NN; i++)
		INIT_HLIST_NODE(&nodes[i].h);

	for (it = 0; it < nops; it++) {
		int op = (int)lt_below(&rng, H_NOPS), li = (int)lt_below(&rng, NL);
		int x, y, px, good = 1;
		struct hlist_node *nx, *ny, *oldnext;

		switch (op) {
		case H_ADD_HEAD: case H_ADD_HEAD_RCU:
			if ((x = pick_free()) < 0)
				continue;
			if (op == H_ADD_HEAD)
				hlist_add_head(&nodes[x].h, &H[li]);
			else
				hlist_add_head_rcu(&nodes[x].h, &H[li]);
			m_insert(li, 0, x);
			break;
		case H_ADD_TAIL_RCU:
			if ((x = pick_free()) < 0)
				continue;
			hlist_add_tail_rcu(&nodes[x].h, &H[li]);
			m_insert(li, md[li].n, x);
			break;
		case H_ADD_BEFORE: case H_ADD_BEFORE_RCU:
		case H_ADD_BEHIND: case H_ADD_BEHIND_RCU:
		case H_ADD_AFTER: case H_ADD_AFTER_RCU:
			if ((x = pick_free()) < 0 || (y = pick_used(li, &px)) < 0)
				continue;
			nx = &nodes[x].h;
			ny = &nodes[y].h;
			switch (op) {
			case H_ADD_BEFORE:	hlist_add_before(nx, ny); break;
			case H_ADD_BEFORE_RCU:	hlist_add_before_rcu(nx, ny); break;
			case H_ADD_BEHIND:	hlist_add_behind(nx, ny); break;
			case H_ADD_BEHIND_RCU:	hlist_add_behind_rcu(nx, ny); break;
			case H_ADD_AFTER:	hlist_add_after(ny, nx); break;
			case H_ADD_AFTER_RCU:	hlist_add_after_rcu(ny, nx); break;
			}
			m_insert(li, op == H_ADD_BEFORE || op == H_ADD_BEFORE_RCU ?
				 px : px + 1, x);
			break;
		case H_DEL:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			hlist_del(&nodes[x].h);
			m_remove(where[x], px);
			good &= check(nodes[x].h.next == LIST_POISON1 &&
				      nodes[x].h.pprev == LIST_POISON2, "hlist_del poison");
			INIT_HLIST_NODE(&nodes[x].h);
			break;
		case H_DEL_INIT: case H_DEL_INIT_RCU:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			oldnext = nodes[x].h.next;
			if (op == H_DEL_INIT) {
				hlist_del_init(&nodes[x].h);
				hlist_del_init(&nodes[x].h);	/* no-op when unhashed */
				good &= check(!nodes[x].h.next, "hlist_del_init: ->next");
			} else {
				hlist_del_init_rcu(&nodes[x].h);
				hlist_del_init_rcu(&nodes[x].h);
				good &= check(nodes[x].h.next == oldnext,
					      "hlist_del_init_rcu must keep ->next");
			}
			m_remove(where[x], px);
			good &= check(hlist_unhashed(&nodes[x].h) &&
				      hlist_unhashed_lockless(&nodes[x].h),
				      "del_init: not unhashed");
			break;
		case H_DEL_RCU:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			oldnext = nodes[x].h.next;
			hlist_del_rcu(&nodes[x].h);
			m_remove(where[x], px);
			good &= check(nodes[x].h.next == oldnext,
				      "hlist_del_rcu must keep ->next for readers");
			good &= check(nodes[x].h.pprev == LIST_POISON2, "hlist_del_rcu poison");
			good &= check(!hlist_unhashed(&nodes[x].h),
				      "hlist_del_rcu: the node must not look unhashed");
			INIT_HLIST_NODE(&nodes[x].h);
			break;
		case H_REPLACE_RCU:
			if ((x = pick_used(-1, &px)) < 0 || (y = pick_free()) < 0)
				continue;
			oldnext = nodes[x].h.next;
			hlist_replace_rcu(&nodes[x].h, &nodes[y].h);
			li = where[x];
			m_remove(li, px);
			m_insert(li, px, y);
			good &= check(nodes[x].h.next == oldnext &&
				      nodes[x].h.pprev == LIST_POISON2,
				      "hlist_replace_rcu: old keeps ->next, ->pprev poisoned");
			INIT_HLIST_NODE(&nodes[x].h);
			break;
		case H_MOVE_LIST: {
			int to = (int)lt_below(&rng, NL), moved[NN], n = md[li].n;

			if (to == li)
				continue;
			/* to's old entries are dropped (become free) */
			for (i = 0; i < md[to].n; i++)
				INIT_HLIST_NODE(&nodes[md[to].v[i]].h);
			m_clear(to);
			memcpy(moved, md[li].v, sizeof(moved));
			hlist_move_list(&H[li], &H[to]);
			m_clear(li);
			for (i = 0; i < n; i++)
				m_insert(to, i, moved[i]);
			good &= check(hlist_empty(&H[li]), "hlist_move_list: old not empty");
			break;
		}
		case H_FAKE:
			if ((x = pick_free()) < 0)
				continue;
			INIT_HLIST_NODE(&nodes[x].h);
			good &= check(hlist_unhashed(&nodes[x].h) && !hlist_fake(&nodes[x].h),
				      "fresh node: unhashed, not fake");
			hlist_add_fake(&nodes[x].h);
			good &= check(!hlist_unhashed(&nodes[x].h) && hlist_fake(&nodes[x].h),
				      "hlist_add_fake: hashed and fake");
			/* Deleting a fake node touches nothing else. */
			hlist_del_init(&nodes[x].h);
			good &= check(hlist_unhashed(&nodes[x].h), "hlist_del_init of a fake node");
			break;
		}
		op_done(&hst[op], good && hlists_ok());
	}
	report("hlist", hst, H_NOPS);
}

/* ================================================================== */
/* hlist_nulls                                                           */
/* ================================================================== */

static struct hlist_nulls_head N[NL];

static int nulls_ok(int li)
{
	struct hlist_nulls_head *h = &N[li];
	const struct model *m = &md[li];
	struct hlist_nulls_node *p, **pprev = &h->first;
	struct lt_node *e;
	int k = m->n / 2, good = 1;

	seq_begin();
	for (p = h->first; !is_a_nulls(p); p = p->next) {
		if (!check(p->pprev == pprev, "hlist_nulls: ->pprev does not point at the link"))
			return 0;
		pprev = &p->next;
		if (seq_add(hlist_nulls_entry(p, struct lt_node, n)->id))
			return seq_is("hlist_nulls links", m->v, m->n);
	}
	good &= seq_is("hlist_nulls links", m->v, m->n);
	good &= check(get_nulls_value(p) == (unsigned long)(NULLS_BASE + li),
		      "hlist_nulls: wrong end marker");
	good &= check(hlist_nulls_entry_safe(p, struct lt_node, n) == NULL,
		      "hlist_nulls_entry_safe(marker)");
	good &= check(hlist_nulls_empty(h) == !m->n, "hlist_nulls_empty");

	good &= SEQ_IS("hlist_nulls_for_each_entry", m->v, m->n,
		       hlist_nulls_for_each_entry(e, p, h, n),
		       e->id);
	good &= check(is_a_nulls(p) && get_nulls_value(p) == (unsigned long)(NULLS_BASE + li),
		      "hlist_nulls_for_each_entry: pos ends at the marker");
	if (m->n) {
		p = &nodes[m->v[k]].n;
		good &= SEQ_IS("hlist_nulls_for_each_entry_from", m->v + k, m->n - k,
			       hlist_nulls_for_each_entry_from(e, p, n),
			       e->id);
	}
	rcu_read_lock();
	good &= SEQ_IS("hlist_nulls_for_each_entry_rcu", m->v, m->n,
		       hlist_nulls_for_each_entry_rcu(e, p, h, n),
		       e->id);
	good &= check(is_a_nulls(p) && get_nulls_value(p) == (unsigned long)(NULLS_BASE + li),
		      "hlist_nulls_for_each_entry_rcu: pos ends at the marker");
	good &= SEQ_IS("hlist_nulls_first_rcu/hlist_nulls_next_rcu", m->v, m->n,
		       for (p = rcu_dereference(hlist_nulls_first_rcu(h)); !is_a_nulls(p);
			    p = rcu_dereference(hlist_nulls_next_rcu(p))),
		       hlist_nulls_entry_safe(p, struct lt_node, n)->id);
	rcu_read_unlock();
	return good;
}

enum { N_ADD_HEAD, N_ADD_HEAD_RCU, N_DEL, N_DEL_RCU, N_DEL_INIT_RCU, N_NOPS };

static struct opstat nst[N_NOPS] = {
	[N_ADD_HEAD] = { .name = "hlist_nulls_add_head" },
	[N_ADD_HEAD_RCU] = { .name = "hlist_nulls_add_head_rcu" },
	[N_DEL] = { .name = "hlist_nulls_del" },
	[N_DEL_RCU] = { .name = "hlist_nulls_del_rcu" },
	[N_DEL_INIT_RCU] = { .name = "hlist_nulls_del_init_rcu" },
};

static void nulls_family(unsigned long nops)
{
	unsigned long it;
	int i;

	m_reset();
	for (i = 0; i < NL; i++)
		INIT_HLIST_NULLS_HEAD(&N[i], NULLS_BASE + i);
	for (i = 0; i < NN; i++) {
		nodes[i].n.next = NULL;
		nodes[i].n.pprev = NULL;
	}

	for (it = 0; it < nops; it++) {
		int op = (int)lt_below(&rng, N_NOPS), li = (int)lt_below(&rng, NL);
		int x, px, good = 1;
		struct hlist_nulls_node *oldnext;

		switch (op) {
		case N_ADD_HEAD: case N_ADD_HEAD_RCU:
			if ((x = pick_free()) < 0)
				continue;
			if (op == N_ADD_HEAD)
				hlist_nulls_add_head(&nodes[x].n, &N[li]);
			else
				hlist_nulls_add_head_rcu(&nodes[x].n, &N[li]);
			m_insert(li, 0, x);
			good &= check(!hlist_nulls_unhashed(&nodes[x].n) &&
				      !hlist_nulls_unhashed_lockless(&nodes[x].n),
				      "added node looks unhashed");
			break;
		case N_DEL:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			hlist_nulls_del(&nodes[x].n);
			m_remove(where[x], px);
			good &= check(nodes[x].n.next == LIST_POISON1 &&
				      nodes[x].n.pprev == LIST_POISON2, "hlist_nulls_del poison");
			break;
		case N_DEL_RCU:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			oldnext = nodes[x].n.next;
			hlist_nulls_del_rcu(&nodes[x].n);
			m_remove(where[x], px);
			good &= check(nodes[x].n.next == oldnext &&
				      nodes[x].n.pprev == LIST_POISON2,
				      "hlist_nulls_del_rcu: keeps ->next, poisons ->pprev");
			break;
		case N_DEL_INIT_RCU:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			oldnext = nodes[x].n.next;
			hlist_nulls_del_init_rcu(&nodes[x].n);
			hlist_nulls_del_init_rcu(&nodes[x].n);	/* no-op when unhashed */
			m_remove(where[x], px);
			good &= check(nodes[x].n.next == oldnext &&
				      hlist_nulls_unhashed(&nodes[x].n),
				      "hlist_nulls_del_init_rcu: keeps ->next, unhashed");
			break;
		}
		for (i = 0; i < NL; i++)
			good = good && nulls_ok(i);
		op_done(&nst[op], good);
	}
	report("hlist_nulls", nst, N_NOPS);
}

/* ================================================================== */
/* hlist_bl                                                              */
/* ================================================================== */

static struct hlist_bl_head B[NL];

static int bl_ok(int li)
{
	struct hlist_bl_head *h = &B[li];
	const struct model *m = &md[li];
	struct hlist_bl_node *p, *q, **pprev = &h->first;
	struct lt_node *e;
	int good = 1;

	seq_begin();
	for (p = hlist_bl_first(h); p; p = p->next) {
		if (!check(p->pprev == pprev, "hlist_bl: ->pprev does not point at the link"))
			return 0;
		pprev = &p->next;
		if (seq_add(hlist_bl_entry(p, struct lt_node, b)->id))
			break;
	}
	good &= seq_is("hlist_bl links", m->v, m->n);
	good &= check(hlist_bl_empty(h) == !m->n, "hlist_bl_empty");
	good &= SEQ_IS("hlist_bl_for_each_entry", m->v, m->n,
		       hlist_bl_for_each_entry(e, p, h, b),
		       e->id);
	good &= SEQ_IS("hlist_bl_for_each_entry_safe", m->v, m->n,
		       hlist_bl_for_each_entry_safe(e, p, q, h, b),
		       e->id);
	rcu_read_lock();
	good &= check(hlist_bl_first_rcu(h) == hlist_bl_first(h), "hlist_bl_first_rcu");
	good &= SEQ_IS("hlist_bl_for_each_entry_rcu", m->v, m->n,
		       hlist_bl_for_each_entry_rcu(e, p, h, b),
		       e->id);
	rcu_read_unlock();
	return good;
}

enum {
	B_ADD_HEAD, B_ADD_HEAD_RCU, B_ADD_BEFORE, B_ADD_BEHIND, B_SET_FIRST,
	B_SET_FIRST_RCU, B_DEL, B_DEL_INIT, B_DEL_RCU, B_DEL_INIT_RCU, B_NOPS
};

static struct opstat bst[B_NOPS] = {
	[B_ADD_HEAD] = { .name = "hlist_bl_add_head" },
	[B_ADD_HEAD_RCU] = { .name = "hlist_bl_add_head_rcu" },
	[B_ADD_BEFORE] = { .name = "hlist_bl_add_before" },
	[B_ADD_BEHIND] = { .name = "hlist_bl_add_behind" },
	[B_SET_FIRST] = { .name = "hlist_bl_set_first (empty bucket)" },
	[B_SET_FIRST_RCU] = { .name = "hlist_bl_set_first_rcu (empty bucket)" },
	[B_DEL] = { .name = "hlist_bl_del" },
	[B_DEL_INIT] = { .name = "hlist_bl_del_init" },
	[B_DEL_RCU] = { .name = "hlist_bl_del_rcu" },
	[B_DEL_INIT_RCU] = { .name = "hlist_bl_del_init_rcu" },
};

static void bl_family(unsigned long nops)
{
	unsigned long it;
	int i;

	m_reset();
	for (i = 0; i < NL; i++)
		INIT_HLIST_BL_HEAD(&B[i]);
	for (i = 0; i < NN; i++)
		INIT_HLIST_BL_NODE(&nodes[i].b);

	for (it = 0; it < nops; it++) {
		int op = (int)lt_below(&rng, B_NOPS), li = (int)lt_below(&rng, NL);
		int x, y, px, good = 1;
		struct hlist_bl_node *oldnext;

		/* Every operation runs with the bucket's bit lock held. */
		switch (op) {
		case B_ADD_HEAD: case B_ADD_HEAD_RCU:
			if ((x = pick_free()) < 0)
				continue;
			hlist_bl_lock(&B[li]);
			if (op == B_ADD_HEAD)
				hlist_bl_add_head(&nodes[x].b, &B[li]);
			else
				hlist_bl_add_head_rcu(&nodes[x].b, &B[li]);
			m_insert(li, 0, x);
			break;
		case B_SET_FIRST: case B_SET_FIRST_RCU:
			if ((x = pick_free()) < 0)
				continue;
			hlist_bl_lock(&B[li]);
			/* The bucket must be empty: empty it first. */
			while (md[li].n) {
				y = md[li].v[0];
				hlist_bl_del_init(&nodes[y].b);
				m_remove(li, 0);
			}
			nodes[x].b.next = NULL;
			nodes[x].b.pprev = &B[li].first;
			if (op == B_SET_FIRST)
				hlist_bl_set_first(&B[li], &nodes[x].b);
			else
				hlist_bl_set_first_rcu(&B[li], &nodes[x].b);
			m_insert(li, 0, x);
			break;
		case B_ADD_BEFORE: case B_ADD_BEHIND:
			if ((x = pick_free()) < 0 || (y = pick_used(li, &px)) < 0)
				continue;
			hlist_bl_lock(&B[li]);
			if (op == B_ADD_BEFORE)
				hlist_bl_add_before(&nodes[x].b, &nodes[y].b);
			else
				hlist_bl_add_behind(&nodes[x].b, &nodes[y].b);
			m_insert(li, op == B_ADD_BEFORE ? px : px + 1, x);
			break;
		default:
			if ((x = pick_used(-1, &px)) < 0)
				continue;
			li = where[x];
			hlist_bl_lock(&B[li]);
			oldnext = nodes[x].b.next;
			switch (op) {
			case B_DEL:
				hlist_bl_del(&nodes[x].b);
				good &= check(nodes[x].b.next == LIST_POISON1 &&
					      nodes[x].b.pprev == LIST_POISON2, "hlist_bl_del poison");
				break;
			case B_DEL_INIT:
				hlist_bl_del_init(&nodes[x].b);
				hlist_bl_del_init(&nodes[x].b);	/* no-op when unhashed */
				good &= check(hlist_bl_unhashed(&nodes[x].b) && !nodes[x].b.next,
					      "hlist_bl_del_init: not unhashed");
				break;
			case B_DEL_RCU:
				hlist_bl_del_rcu(&nodes[x].b);
				good &= check(nodes[x].b.next == oldnext &&
					      nodes[x].b.pprev == LIST_POISON2,
					      "hlist_bl_del_rcu: keeps ->next, poisons ->pprev");
				break;
			case B_DEL_INIT_RCU:
				hlist_bl_del_init_rcu(&nodes[x].b);
				hlist_bl_del_init_rcu(&nodes[x].b);
				good &= check(nodes[x].b.next == oldnext &&
					      hlist_bl_unhashed(&nodes[x].b),
					      "hlist_bl_del_init_rcu: keeps ->next, unhashed");
				break;
			}
			m_remove(li, px);
			if (op != B_DEL_INIT && op != B_DEL_INIT_RCU)
				INIT_HLIST_BL_NODE(&nodes[x].b);
			break;
		}
		/* Still locked, with the bit intact, and readable while locked. */
		good &= check(hlist_bl_is_locked(&B[li]), "the operation dropped the lock bit");
		good &= check(!hlist_bl_trylock(&B[li]), "hlist_bl_trylock on a held lock");
		good &= bl_ok(li);
		hlist_bl_unlock(&B[li]);
		good &= check(!hlist_bl_is_locked(&B[li]), "hlist_bl_unlock left the bit set");
		for (i = 0; i < NL; i++)
			good = good && bl_ok(i);
		op_done(&bst[op], good);
	}
	report("hlist_bl", bst, B_NOPS);
}

/* ================================================================== */
/* Fixed cases                                                           */
/* ================================================================== */

static LIST_HEAD(static_list);
static HLIST_HEAD(static_hlist);

static void never_sync(void)
{
	nsync++;
}

static void fixed_cases(void)
{
	struct hlist_bl_head bh;
	struct hlist_nulls_head nh;
	unsigned long vals[] = { 0, 1, 2, 12345, ULONG_MAX >> 1 };
	struct list_head empty, other;
	size_t i;
	int good = 1;

	ok((uintptr_t)LIST_POISON1 < 4096 && (uintptr_t)LIST_POISON2 < 4096 &&
	   LIST_POISON1 != LIST_POISON2 && LIST_POISON1 && LIST_POISON2,
	   "LIST_POISON1/2 are distinct non-NULL addresses in the unmapped first page");
	ok(list_empty(&static_list) && hlist_empty(&static_hlist),
	   "LIST_HEAD()/HLIST_HEAD() define empty lists");
	ok(container_of(&nodes[3].h, struct lt_node, h) == &nodes[3] &&
	   list_entry(&nodes[4].l, struct lt_node, l) == &nodes[4],
	   "container_of/list_entry");

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		struct hlist_nulls_node *mk = (struct hlist_nulls_node *)NULLS_MARKER(vals[i]);

		INIT_HLIST_NULLS_HEAD(&nh, vals[i]);
		good &= is_a_nulls(mk) && get_nulls_value(mk) == vals[i] &&
			nh.first == mk && hlist_nulls_empty(&nh);
	}
	good &= !is_a_nulls((struct hlist_nulls_node *)&nodes[0].n);
	ok(good, "NULLS_MARKER/INIT_HLIST_NULLS_HEAD/is_a_nulls/get_nulls_value round trip");

	INIT_HLIST_BL_HEAD(&bh);
	good = !hlist_bl_is_locked(&bh) && hlist_bl_trylock(&bh) &&
	       hlist_bl_is_locked(&bh) && !hlist_bl_trylock(&bh) &&
	       hlist_bl_empty(&bh) && hlist_bl_first(&bh) == NULL;
	hlist_bl_unlock(&bh);
	good &= !hlist_bl_is_locked(&bh) && bh.first == NULL;
	hlist_bl_lock(&bh);
	good &= (uintptr_t)bh.first == LIST_BL_LOCKMASK;
	hlist_bl_unlock(&bh);
	ok(good, "hlist_bl_lock/trylock/unlock/is_locked on bit 0 of the head");

	INIT_LIST_HEAD(&empty);
	INIT_LIST_HEAD(&other);
	nsync = 0;
	list_splice_init_rcu(&empty, &other, never_sync);
	list_splice_tail_init_rcu(&empty, &other, never_sync);
	ok(nsync == 0, "list_splice_init_rcu of an empty list does not wait");

	rcu_read_lock();
	ok(list_first_or_null_rcu(&empty, struct lt_node, l) == NULL,
	   "list_first_or_null_rcu of an empty list is NULL");
	rcu_read_unlock();
}

int main(void)
{
	unsigned long nops = lt_iters(20000, 8000);

	rng = lt_seed();
	if (rcu_register_thread()) {
		ok(0, "rcu_register_thread");
		return tap_exit_status();
	}
	fixed_cases();
	list_family(nops);
	hlist_family(nops);
	nulls_family(nops / 2);
	bl_family(nops / 2);
	rcu_unregister_thread();
	return done_testing();
}
