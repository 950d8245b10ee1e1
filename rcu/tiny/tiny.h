/* SPDX-License-Identifier: MIT */
/*
 * rcu/tiny/tiny.h - Tiny RCU's internal interface (make TINY=1,
 * docs/design/tiny.md).  Three files, lowest first: admin.c (parameters,
 * statistics, misuse reports, debug objects), up.c (the uniprocessor
 * assumption: checks and thread registration), tiny.c (grace periods,
 * callbacks, the callback thread, start and shutdown).  Each calls only
 * the ones before it, and tiny.c's lrcu__tiny_start().
 */
#ifndef RCU_TINY_TINY_H
#define RCU_TINY_TINY_H

#include <stdbool.h>
#include <stddef.h>
#include <rcu/kernel.h>
#include <rcu/rcupdate.h>

/* Relaxed counters (statistics): nobody orders against them. */
#define tiny_inc(p)		((void)LRCU_FETCH_ADD_RELAXED(p, 1))

/* admin.c */
struct lrcu__tiny_params {
	int debug_objects;	/* debug_objects: catch double call_rcu() */
	int rcu_expedited;	/* rcupdate.rcu_expedited (reported only) */
	int rcu_normal;		/* rcupdate.rcu_normal (reported only) */
	int rcu_normal_after_boot; /* rcupdate.rcu_normal_after_boot */
	int inject;		/* rcutree.inject: enum lrcu_tiny_bug (INJECT=1) */
};
extern struct lrcu__tiny_params lrcu__tiny_params;	/* set before start */
struct lrcu__tiny_stats {
	unsigned long gps;		/* grace periods (gp_seq advances) */
	unsigned long cbs_queued;	/* call_rcu() and kfree_rcu() */
	unsigned long cbs_invoked;	/* callbacks run */
	unsigned long cb_batches;	/* the callback thread's passes */
	unsigned long cb_max_batch;	/* most callbacks in one pass */
	unsigned long barriers;		/* rcu_barrier() calls */
};
extern struct lrcu__tiny_stats lrcu__tiny_stats;	/* relaxed atomics */
int lrcu__tiny_params_env(void);
/* "rcu: BUG: who: what[: why]", then abort(). */
void lrcu__tiny_fatal(const char *who, const char *what, const char *why)
	__attribute__((noreturn));
void lrcu__tiny_misuse(void);
/* debug_objects: false if head is already queued (reported, not queued). */
bool lrcu__tiny_dobj_activate(struct rcu_head *head);
void lrcu__tiny_dobj_deactivate(struct rcu_head *head);
void lrcu__tiny_dobj_free_all(void);

/*
 * Deliberate bugs (make TINY=1 INJECT=1, bin/mutation.sh), chosen with
 * rcutree.inject=NAME as Tree RCU's (rcu/src/inject.h): one realistic
 * mistake each; in other builds LRCU_TINY_INJECTED() is the constant
 * false and the mistake compiles away.
 */
enum lrcu_tiny_bug {
	LRCU_TINY_BUG_NONE,
	/* safety: a polled cookie judged complete in the section that took
	 * it (Tree's "count reached the cookie" test on Tiny's cookie, which
	 * is the current count, not a future one) */
	LRCU_TINY_BUG_POLL_NOW,
};
#ifdef LRCU_INJECT
#define LRCU_TINY_INJECTED(b)	__builtin_expect(READ_ONCE(lrcu__tiny_params.inject) == (b), 0)
#else
#define LRCU_TINY_INJECTED(b)	0
#endif

/* up.c */
int lrcu__tiny_up_init(char *why, size_t len);
int lrcu__tiny_up_thread_ok(char *why, size_t len);
int lrcu__tiny_up_cpu(void);
/* A call that may block: not inside a section nor a callback (aborts). */
void lrcu__tiny_blocking_check(const char *caller);
/* An update-side call that relies on the assumption: that, and the
 * caller is in the group (aborts otherwise). */
void lrcu__tiny_update_check(const char *caller);

/* tiny.c */
int lrcu__tiny_start(void);

#endif
