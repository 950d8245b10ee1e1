/* SPDX-License-Identifier: MIT */
/*
 * admin.c - Tiny RCU's administration: its few parameters (read from
 * RCU_BOOTARGS at start, or set before), statistics, misuse reports, and
 * debug objects for rcu_head (debug_objects=1: a second call_rcu() on a
 * head still queued is reported and dropped, as the kernel's
 * DEBUG_OBJECTS_RCU_HEAD does).
 *
 * Tiny RCU has no rcu_node tree, no stall warnings, no callback
 * offloading, no boosting and no grace-period thread: the Tree-only
 * administration calls of <rcu/rcutree.h> (lrcu_print_tree(),
 * lrcu_dump_gp_state(), lrcu_nocb_info(), the stall notifiers ...) are
 * not defined here, so a program using them fails to link.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiny.h"

struct lrcu__tiny_params lrcu__tiny_params;
struct lrcu__tiny_stats lrcu__tiny_stats;

/* ------------------------------------------------------------------ */
/* Parameters */

#ifdef LRCU_INJECT
/* rcutree.inject's values, by enum lrcu_tiny_bug (tiny.h). */
static const char *const bug_names[] = {
	[LRCU_TINY_BUG_NONE] = "none",
	[LRCU_TINY_BUG_POLL_NOW] = "tiny_poll_now",
	NULL
};
#endif

static const struct tiny_param {
	const char *name;
	int *field;
	int max;
	const char *help;
	const char *const *names;	/* the values by name (NULL: a number) */
} tiny_params[] = {
	{ "nr_cpus", NULL, 1, "CPUs: Tiny RCU is uniprocessor (1 only)", NULL },
	{ "debug_objects", &lrcu__tiny_params.debug_objects, 1,
	  "report a second call_rcu() on a queued rcu_head", NULL },
	{ "rcupdate.rcu_expedited", &lrcu__tiny_params.rcu_expedited, 1,
	  "rcu_gp_is_expedited() (every grace period is instant here)", NULL },
	{ "rcupdate.rcu_normal", &lrcu__tiny_params.rcu_normal, 1,
	  "rcu_gp_is_normal() (every grace period is instant here)", NULL },
	{ "rcupdate.rcu_normal_after_boot", &lrcu__tiny_params.rcu_normal_after_boot, 1,
	  "rcu_normal from rcu_end_inkernel_boot() on", NULL },
#ifdef LRCU_INJECT
	{ "rcutree.inject", &lrcu__tiny_params.inject, LRCU_TINY_BUG_POLL_NOW,
	  "a deliberate bug (bin/mutation.sh): none, tiny_poll_now", bug_names },
#endif
};
#define NPARAMS (sizeof(tiny_params) / sizeof(tiny_params[0]))

static const struct tiny_param *param_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NPARAMS; i++)
		if (strlen(tiny_params[i].name) == len && !strncmp(tiny_params[i].name, name, len))
			return &tiny_params[i];
	return NULL;
}

int lrcu_param_known(const char *name)
{
	return param_find(name, strlen(name)) != NULL;
}

/* Check one NAME=VALUE; apply it if apply.  -1 with err filled if bad. */
static int param_one(const char *tok, size_t len, bool apply, char *err, size_t errlen)
{
	const char *eq = memchr(tok, '=', len);
	const struct tiny_param *p = param_find(tok, eq ? (size_t)(eq - tok) : len);
	char val[32], *end;
	long v;

	if (!p || !eq || (size_t)(tok + len - eq - 1) >= sizeof(val)) {
		if (err)
			snprintf(err, errlen, "%.*s: %s", (int)len, tok,
				 !p ? "not a Tiny RCU parameter" : "expected NAME=VALUE");
		return -1;
	}
	memcpy(val, eq + 1, (size_t)(tok + len - eq - 1));
	val[tok + len - eq - 1] = '\0';
	errno = 0;
	v = strtol(val, &end, 0);
	for (int i = 0; p->names && p->names[i]; i++)
		if (!strcmp(val, p->names[i])) {
			v = i;
			end = val + strlen(val);
		}
	if (errno || end == val || *end || v < (p->field ? 0 : 1) || v > p->max) {
		if (err)
			snprintf(err, errlen, "%.*s: bad value (%s%d)", (int)len, tok,
				 p->field ? "0 to " : "", p->max);
		return -1;
	}
	if (apply && p->field)
		WRITE_ONCE(*p->field, (int)v);
	return 0;
}

/* Every token checked before any is applied. */
int lrcu_params_parse(const char *args, char *err, size_t errlen)
{
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *s = args ? args : "";

		while (*s) {
			size_t n;

			s += strspn(s, " \t\n");
			n = strcspn(s, " \t\n");
			if (n && param_one(s, n, pass == 1, err, errlen))
				return -1;
			s += n;
		}
	}
	return 0;
}

int lrcu_param_set(const char *name, const char *value, char *err, size_t errlen)
{
	char tok[128];
	int n = snprintf(tok, sizeof(tok), "%s=%s", name, value);

	if (n < 0 || (size_t)n >= sizeof(tok)) {
		if (err)
			snprintf(err, errlen, "%s: too long", name);
		return -1;
	}
	return param_one(tok, (size_t)n, true, err, errlen);
}

int lrcu_param_get(const char *name, char *buf, size_t len)
{
	const struct tiny_param *p = param_find(name, strlen(name));

	if (!p)
		return -1;
	if (p->names)
		snprintf(buf, len, "%s", p->names[READ_ONCE(*p->field)]);
	else
		snprintf(buf, len, "%d", p->field ? READ_ONCE(*p->field) : 1);
	return 0;
}

void lrcu_params_print(FILE *out)
{
	char v[16];
	size_t i;

	for (i = 0; i < NPARAMS; i++) {
		lrcu_param_get(tiny_params[i].name, v, sizeof(v));
		fprintf(out, "%s%s=%s", i ? " " : "", tiny_params[i].name, v);
	}
	fputc('\n', out);
}

/* RCU_BOOTARGS, at start. */
int lrcu__tiny_params_env(void)
{
	char err[256];

	if (!lrcu_params_parse(getenv("RCU_BOOTARGS"), err, sizeof(err)))
		return 0;
	fprintf(stderr, "rcu: RCU_BOOTARGS: %s\n", err);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Statistics: the Tree's structure, the fields Tiny has. */

int lrcu_get_stats(enum lrcu_flavor f, struct lrcu_stats *st)
{
	unsigned long inv;

	if ((unsigned int)f >= LRCU_NR_FLAVORS)
		return -1;
	memset(st, 0, sizeof(*st));
	st->gp_seq = READ_ONCE(lrcu_tiny_gp_seq);
	st->gp_seq_needed = st->gp_seq;
	st->gps_completed = READ_ONCE(lrcu__tiny_stats.gps);
	inv = READ_ONCE(lrcu__tiny_stats.cbs_invoked);
	st->cbs_queued = READ_ONCE(lrcu__tiny_stats.cbs_queued);
	st->cbs_invoked = inv;
	st->cbs_pending = st->cbs_queued > inv ? st->cbs_queued - inv : 0;
	st->cb_batches = READ_ONCE(lrcu__tiny_stats.cb_batches);
	st->cb_max_batch = READ_ONCE(lrcu__tiny_stats.cb_max_batch);
	st->barriers = READ_ONCE(lrcu__tiny_stats.barriers);
	st->nr_registered = 1;
	return 0;
}

const char *lrcu_flavor_name(enum lrcu_flavor f)
{
	/* The kernel's Tiny RCU names its one flavor rcu. */
	return (unsigned int)f < LRCU_NR_FLAVORS ? "rcu" : "?";
}

/* ------------------------------------------------------------------ */
/* Misuse */

static unsigned long misuse_count;

void lrcu__tiny_misuse(void)
{
	tiny_inc(&misuse_count);
}

unsigned long lrcu_misuse_count(void)
{
	return READ_ONCE(misuse_count);	/* a count; see lrcu__tiny_misuse() */
}

void lrcu__tiny_fatal(const char *who, const char *what, const char *why)
{
	fprintf(stderr, "rcu: BUG: %s: %s%s%s\n", who, what, why ? ": " : "", why ? why : "");
	abort();
}

void lrcu_read_misuse(const char *what)
{
	lrcu__tiny_misuse();
	fprintf(stderr, "rcu: misuse: %s\n", what);
}

void lrcu_lockdep_splat(const char *file, int line, const char *msg, bool *once)
{
	lrcu__tiny_misuse();
	if (once && xchg_relaxed(once, true))	/* only decides who prints */
		return;
	fprintf(stderr, "\n=============================\nWARNING: suspicious RCU usage\n"
		"-----------------------------\n%s:%d %s!\n", file, line, msg);
}

/* ------------------------------------------------------------------ */
/* Debug objects: the queued heads, in a hash set under one lock (the
 * kernel's debugobjects takes a lock too). */

#define DOBJ_BUCKETS 1024
struct dobj {
	struct dobj *next;
	struct rcu_head *head;
};
static struct dobj *dobj_table[DOBJ_BUCKETS];
static pthread_mutex_t dobj_lock = PTHREAD_MUTEX_INITIALIZER;

static struct dobj **dobj_slot(struct rcu_head *head)
{
	struct dobj **pp = &dobj_table[((unsigned long)head >> 4) % DOBJ_BUCKETS];

	while (*pp && (*pp)->head != head)
		pp = &(*pp)->next;
	return pp;
}

bool lrcu__tiny_dobj_activate(struct rcu_head *head)
{
	struct dobj **pp, *o;
	bool dup;

	pthread_mutex_lock(&dobj_lock);
	pp = dobj_slot(head);
	dup = *pp != NULL;
	if (!dup && (o = malloc(sizeof(*o)))) {
		o->head = head;
		o->next = NULL;
		*pp = o;
	}
	pthread_mutex_unlock(&dobj_lock);
	if (dup) {
		lrcu__tiny_misuse();
		fprintf(stderr, "ODEBUG: activate active (active state 0) object: %p "
			"object type: rcu_head hint: %p\n", (void *)head, (void *)head->func);
	}
	return !dup;
}

void lrcu__tiny_dobj_deactivate(struct rcu_head *head)
{
	struct dobj **pp, *o;

	pthread_mutex_lock(&dobj_lock);
	pp = dobj_slot(head);
	o = *pp;
	if (o)
		*pp = o->next;
	pthread_mutex_unlock(&dobj_lock);
	free(o);
}

void lrcu__tiny_dobj_free_all(void)
{
	size_t i;

	pthread_mutex_lock(&dobj_lock);
	for (i = 0; i < DOBJ_BUCKETS; i++)
		while (dobj_table[i]) {
			struct dobj *o = dobj_table[i];

			dobj_table[i] = o->next;
			free(o);
		}
	pthread_mutex_unlock(&dobj_lock);
}

/* init/destroy: nothing to track beyond the queued state here. */
void lrcu_head_debug(struct rcu_head *head, enum lrcu_head_op op)
{
	(void)head;
	(void)op;
}
