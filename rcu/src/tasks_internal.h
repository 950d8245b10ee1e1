/* SPDX-License-Identifier: MIT */
/*
 * tasks_internal.h - the state RCU Tasks and RCU Tasks Rude share
 * (tasks.c), and what each flavor plugs into it (tasks_classic.c,
 * tasks_rude.c).
 */
#ifndef LRCU_TASKS_INTERNAL_H
#define LRCU_TASKS_INTERNAL_H

#include <sys/types.h>
#include <rcu/tasks.h>
#include "internal.h"

/* The grace-period thread's state, the kernel's RTGS_* (shown by
 * lrcu_tasks_show() and rcu_tasks_get_gp_data()). */
enum {
	RTGS_INIT, RTGS_WAIT_WAIT_CBS, RTGS_WAIT_GP, RTGS_PRE_WAIT_GP, RTGS_SCAN_TASKLIST,
	RTGS_POST_SCAN_TASKLIST, RTGS_WAIT_SCAN_HOLDOUTS, RTGS_SCAN_HOLDOUTS,
	RTGS_POST_GP, RTGS_WAIT_READERS, RTGS_INVOKE_CBS, RTGS_WAIT_CBS, RTGS_NUM
};

/* One holdout thread of the running grace period (GP thread only). */
struct lrcu_tasks_holdout {
	int tid;
	char name[16];			/* its name at the snapshot */
	unsigned long nvcsw;		/* Tasks: voluntary_ctxt_switches then */
	unsigned long qs;		/* Tasks: its rcu_tasks_qs() count then */
	unsigned long rude;		/* Rude: its reader word then */
	const struct lrcu_tasks_thread *rec;	/* Rude: its record (compared
						 * only, under the list lock) */
};

struct lrcu_tasks;
/* What a flavor's grace period does (called by its GP thread only). */
struct lrcu_tasks_gp_ops {
	/* After the start fence: fill the holdouts (tp->h, tp->nh). */
	void (*snapshot)(struct lrcu_tasks *tp);
	/* Drop the holdouts that have passed a quiescent state. */
	void (*scan)(struct lrcu_tasks *tp);
	/* One stall-warning line per holdout (lrcu__stall_holdout()). */
	void (*print)(struct lrcu_tasks *tp, struct lrcu_stall_out *o, unsigned long now);
	unsigned long first_wait_us;	/* the back-off's first sleep */
};

/* A callback queue: callbacks queued by callers on some CPUs. */
struct lrcu_tasks_queue {
	pthread_mutex_t lock;
	struct rcu_head *head;		/* (lock) */
	struct rcu_head **tail;		/* (lock) */
	long n;				/* callbacks queued (lock; READ_ONCE() for stats) */
} __attribute__((aligned(LRCU_CACHELINE)));

struct lrcu_tasks {
	const char *name;		/* "rcu_tasks" (const) */
	const char *kname;		/* its thread's name (const) */
	const struct lrcu_tasks_gp_ops *ops;	/* (const) */
	struct lrcu_tasks_queue q[LRCU_TASKS_MAX_QUEUES];
	int nq;				/* queues in use (spawn_lock; fixed once
					 * spawned: READ_ONCE() elsewhere) */
	pthread_mutex_t spawn_lock;	/* the thread's start */
	bool spawned;			/* its thread runs (spawn_lock; acquire
					 * load for the fast check) */
	uint32_t wake;			/* the GP thread idles on it; enqueuers
					 * bump it (time.c's wake words) */
	uint32_t scan_wake;		/* the back-off sleeps on it (only
					 * lifecycle kicks bump it) */
	/* Callbacks taken for the running grace period (GP thread only;
	 * kept here so that a thread restarted in a fork() child runs them). */
	struct rcu_head *batch;
	struct rcu_head **batch_tail;
	unsigned long gp_seq;		/* grace periods ended (GP thread writes;
					 * atomic) */
	unsigned long gp_start_us;	/* when the running one began (atomic) */
	int gp_state;			/* RTGS_* (atomic) */
	unsigned long n_cbs_invoked;	/* statistic (atomic) */
	unsigned long n_cbs_queued;	/* by call_rcu_tasks*(), not barriers
					 * (atomic) */
	struct lrcu_tasks_holdout *h;	/* holdouts (GP thread; a reporter
					 * reads them from the GP thread) */
	int nh, h_cap;
	struct lrcu_stall stall;	/* stall-warning state (tree_stall.c) */
};

extern struct lrcu_tasks lrcu__tasks[LRCU_NR_TASKS_FLAVORS];
extern const struct lrcu_tasks_gp_ops lrcu__tasks_classic_ops;	/* tasks_classic.c */
extern const struct lrcu_tasks_gp_ops lrcu__tasks_rude_ops;	/* tasks_rude.c */

/* tasks.c, for the flavors */
struct lrcu_tasks_holdout *lrcu__tasks_holdout_add(struct lrcu_tasks *tp, int tid);
void lrcu__tasks_holdout_drop(struct lrcu_tasks *tp, int i);
/* /proc/self/task/TID/NAME into buf (NUL-terminated); bytes read, -1 if
 * the thread is gone.  Its name, "?" if gone. */
ssize_t lrcu__tasks_task_file(int tid, const char *name, char *buf, size_t len);
void lrcu__tasks_comm(int tid, char *name, size_t len);
/* The thread records, under their lock. */
void lrcu__tasks_threads_lock(void);
void lrcu__tasks_threads_unlock(void);
struct lrcu_tasks_thread *lrcu__tasks_threads_first(void);

#endif
