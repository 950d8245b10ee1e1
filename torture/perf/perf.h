/* SPDX-License-Identifier: MIT */
/*
 * perf.h - what the perf programs (refscale.c, rcuscale.c) share
 * (common.c): the command line, the torture types they measure, host
 * facts, JSON lines, statistics, threads as CPUs, and the driver that
 * runs every measurement of a sweep round by round.
 *
 * The programs see an RCU only through the torture ops table
 * (torture/include/torture/ops.h, torture/types.c), like rcutorture, so
 * every torture type can be measured: ours, liburcu's, lib: plugins.
 *
 * A sweep: the figures of every combination of the types (scale_type=a,b)
 * and of the parameters given as comma lists (nreaders=1,2,4) are
 * measured once per round, all of them in turn (A B A B ...), for nruns
 * rounds, so that a change in the machine's load hits them all alike.
 */
#ifndef TORTURE_PERF_H
#define TORTURE_PERF_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <torture/atomic.h>
#include <torture/ops.h>

#define PERF_MAXV	16	/* values of one list parameter */
#define PERF_MAXT	16	/* types of one run */
#define PERF_MAXP	8	/* list parameters of one test */

/* ------------------------------------------------------------------ */
/* Parameters: PROG.NAME=VALUE, the kernel's names where it has them. */

struct perf_pval {
	long v[PERF_MAXV];
	int n;			/* values given (the default counts as one) */
};

struct perf_param {
	const char *name;	/* without the "PROG." prefix */
	struct perf_pval *val;	/* NULL: a string parameter (str) */
	long min, max;
	bool list;		/* a comma list: one measurement per value */
	const char *help;
	char *str;		/* a string parameter's value (and default) */
	size_t str_size;
};

/* Table entries: an integer (or list) parameter, a string one. */
#define PERF_P(n, v, lo, hi, l, h)	{ .name = (n), .val = (v), .min = (lo), .max = (hi), \
					  .list = (l), .help = (h) }
#define PERF_S(n, buf, h)		{ .name = (n), .help = (h), .str = (buf), \
					  .str_size = sizeof(buf) }

struct perf_cli {
	const char *prog;			/* "refscale" */
	const struct perf_param *params;	/* the program's table */
	size_t nparams;
	const struct torture_ops *types[PERF_MAXT];	/* scale_type, in order */
	int ntypes;
	FILE *json;		/* --json FILE; NULL: none */
	FILE *table;		/* the readable output (stderr if json is stdout) */
	long nruns;		/* rounds of the sweep */
	long verbose;		/* 1: a table row per round too */
	long timeout_s;		/* one measurement longer than this: failure */
	bool check_only;	/* --check: parse, find the types, stop */
};

/* Parse argv (see perf_usage()), find and initialise the types.  Returns
 * 0, or the exit status after printing a one-line error (2: bad input,
 * 3: a type failed to load or initialise, 4: a type cannot run here: not
 * built, the kernel's only, or Tiny RCU where SCHED_FIFO is refused); -1
 * after --help/--list-types (exit 0).  With --check the types are found
 * but not initialised, and Tiny RCU's SCHED_FIFO is tried and undone. */
int perf_setup(struct perf_cli *cli, int argc, char **argv, const char *intro);
/* --check: the program's own checks passed too; says so (true: exit 0). */
bool perf_checked(const struct perf_cli *cli);
long perf_ncpus(void);
/* Pin the calling thread to the k-th CPU the process may use (k >= 0,
 * modulo their number) or the (-k)-th from the last (k < 0): writers
 * count from the first, readers from the last, so that as many of each
 * as there are CPUs never share one.  -1 if it cannot. */
int perf_pin(long k);

/* ------------------------------------------------------------------ */
/* A uniprocessor RCU (Tiny RCU: TORTURE_OPS_UP types; up.c) */

/* Before anything runs: 2 if the types mix uniprocessor and others, 4
 * (after saying why) if they are uniprocessor ones and SCHED_FIFO is
 * refused here; 0 otherwise. */
int perf_up_check(const struct perf_cli *cli);
/* Uniprocessor types: the calling (main) thread onto one CPU under
 * SCHED_FIFO, before the RCU starts; 0, or 4 after saying why. */
int perf_up_setup(const struct perf_cli *cli);
bool perf_up(void);		/* perf_up_setup() put us on one CPU */
void perf_up_yield(void);	/* cond_resched(): outside sections only */
void perf_up_watcher(void);	/* this thread preempts the group */

/* ------------------------------------------------------------------ */
/* Time and CPU time */

double perf_now_ns(void);		/* CLOCK_MONOTONIC */
double perf_thread_cpu_ns(void);	/* this thread's CPU time */
/*
 * Every thread's CPU time, by kernel thread id (/proc/self/task), each
 * read from the thread's own clock: exact, where the process's clock
 * lags by up to a tick for each thread running on another CPU.
 * perf_threads_cpu() fills *set (freed by the next call on it or by
 * perf_threads_free()); perf_threads_delta() sums, over the threads of b
 * that are not in skip[], what each ran since a (all of it if it was not
 * in a).  A thread that exited between the two is not counted.
 */
struct perf_tcpu {
	pid_t tid;
	double ns;
};
struct perf_threads {
	struct perf_tcpu *t;
	size_t n;
};
int perf_threads_cpu(struct perf_threads *set);
double perf_threads_delta(const struct perf_threads *a, const struct perf_threads *b,
			  const pid_t *skip, size_t nskip);
void perf_threads_free(struct perf_threads *set);
void perf_spin_ns(double ns);
void perf_sleep_us(unsigned long us);

/* ------------------------------------------------------------------ */
/* Threads as CPUs, through the ops.  Each prints why it failed. */

int perf_register(const struct torture_ops *o);		/* 0 or -1 */
void perf_unregister(const struct torture_ops *o);
bool perf_qsbr(const struct torture_ops *o);
void perf_offline(const struct torture_ops *o);		/* QSBR types only */
void perf_online(const struct torture_ops *o);
void perf_qs(const struct torture_ops *o);
/* Update side: registered only if the RCU needs it, then offline (QSBR)
 * except around call(). */
int perf_updater_start(const struct torture_ops *o);
void perf_updater_stop(const struct torture_ops *o);
void perf_call(const struct torture_ops *o, struct torture_cb *cb,
	       void (*func)(struct torture_cb *cb));

/* A reusable start line for n threads (pthread barrier) that QSBR
 * threads wait at offline. */
struct perf_gate {
	pthread_barrier_t b;
};
void perf_gate_init(struct perf_gate *g, unsigned int n);
void perf_gate_destroy(struct perf_gate *g);
void perf_gate_wait(struct perf_gate *g, const struct torture_ops *o);

int perf_spawn(pthread_t *t, const char *name, void *(*fn)(void *), void *arg);
void perf_join(pthread_t t);

/* ------------------------------------------------------------------ */
/* JSON lines: a small writer (no pretty printing). */

struct jw {
	FILE *f;
	int depth;
	bool comma;	/* the next member needs a comma */
};
void jw_begin(struct jw *w, FILE *f);		/* { */
void jw_obj(struct jw *w, const char *key);	/* "key":{ */
void jw_close(struct jw *w);			/* } (and a newline at depth 0) */
void jw_arr(struct jw *w, const char *key);	/* "key":[ (members: key NULL) */
void jw_arr_close(struct jw *w);		/* ] */
void jw_str(struct jw *w, const char *key, const char *v);	/* NULL: null */
void jw_num(struct jw *w, const char *key, double v);		/* NaN: null */
void jw_int(struct jw *w, const char *key, long v);
void jw_bool(struct jw *w, const char *key, bool v);
/* "host":{cores kernel membarrier liburcu loadavg rcu up_cpu} */
void perf_host_json(struct jw *w);
void perf_up_json(struct jw *w);	/* the RCU that ran: "rcu", "up_cpu" */
/* One membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (registering the
 * process first): 0, or -1 if the kernel lacks it.  Main thread only. */
int perf_membarrier(void);

/* ------------------------------------------------------------------ */
/* Statistics */

struct perf_stats {
	size_t n;
	double min, p50, p90, p99, max, mean;
};
/* Sorts v; percentile p is the sorted value at round(p*(n-1)). */
void perf_stats(double *v, size_t n, struct perf_stats *s);
double perf_median(const double *v, size_t n);	/* NaN-free values; copy */

/* ------------------------------------------------------------------ */
/* The sweep driver */

#define PERF_LOWER	(-1)	/* a figure where less is better */
#define PERF_HIGHER	1
#define PERF_NEUTRAL	0

struct perf_fig {
	const char *name;	/* JSON key: "p50_us" */
	const char *col;	/* table column: "p50" */
	int better;		/* PERF_LOWER, PERF_HIGHER, PERF_NEUTRAL */
	bool show;		/* a column of the table */
};

/* One combination of type and parameter values, measured every round. */
struct perf_cell {
	const struct torture_ops *ops;
	long p[PERF_MAXP];	/* the test's list parameters, in its order */
	double *vals;		/* nruns x nfigs; NaN: not measured */
	int runs_done;
};

struct perf_test {
	const char *name;			/* "read", "gp", "callbacks" */
	const char *label;			/* table heading */
	const struct perf_fig *figs;
	int nfigs;
	const struct perf_param *const *lists;	/* the cell parameters */
	int nlists;
	/* The other parameters (and what the cell's type made of them). */
	void (*fixed_json)(struct jw *w, const struct perf_cell *c);
	/* Measure one cell once: fill out[nfigs]; 0, or -1 after printing
	 * why (the program then stops with status 1). */
	int (*measure)(const struct perf_cell *c, int run, double *out);
	/* Why a combination cannot be measured (its type lacks what it
	 * needs), or NULL; such cells are left out, with a note.  NULL: all
	 * are measured. */
	const char *(*cell_skip)(const struct perf_cell *c);
};

/* The cells of a test: every type x every combination of its lists. */
struct perf_sweep {
	const struct perf_test *t;
	struct perf_cell *cells;
	int ncells;
};

/* 0, or -1 (nothing can be measured: after printing why, or no memory). */
int perf_sweep_init(struct perf_sweep *s, const struct perf_test *t, const struct perf_cli *cli);
/* Measure every cell nruns times, round by round; JSON "run" lines as it
 * goes, then "summary" lines and the table.  0, or 1 on a failure. */
int perf_sweep_run(struct perf_sweep *s, const struct perf_cli *cli);
void perf_sweep_free(struct perf_sweep *s);
/* A figure's median over the rounds (NaN if none). */
double perf_cell_median(const struct perf_sweep *s, const struct perf_cell *c, int fig);
/* The cell of type `name' whose list parameters equal p (NULL: none). */
const struct perf_cell *perf_cell_find(const struct perf_sweep *s, const char *name,
				       const long *p);

/* Targets: printed (a "targets" JSON line and table rows), never
 * asserted: a missed target is a figure, not a failure. */
struct perf_target {
	char what[160];		/* "read: rcu <= urcu-memb (nreaders=1)" */
	double value, limit;	/* met: value <= limit (or >= for at_least) */
	bool at_least;
	/* A pair target missed by the medians although the two figures'
	 * rounds overlap (min..max): the difference is not resolved by
	 * this run, so the verdict says so rather than a bare MISSED. */
	bool within_spread;
	const char *unit;
};
void perf_targets_print(const struct perf_cli *cli, const char *test,
			const struct perf_target *t, int n);
/* t: the ratio of a's median of figure fa to b's of fb, in "x", against
 * limit; within_spread when the rounds' min..max of the two allow a
 * ratio on either side of the limit.  t->what is the caller's. */
void perf_ratio_target(struct perf_target *t, const struct perf_sweep *s,
		       const struct perf_cell *a, int fa, const struct perf_cell *b, int fb,
		       double limit, bool at_least);
/* For every cell of type pairs[k][0] whose twin of type pairs[k][1] (the
 * same list parameters) was measured, the ratio of their medians of
 * figure fig: at most limit (at_least: at least limit).  "PREFIX
 * OURS/THEIRS FIGNAME (PARAMS)", prefix(cell) if given; appends to
 * t[n..max-1], returns the new n. */
int perf_pair_targets(const struct perf_sweep *s, const char *const (*pairs)[2], int npairs,
		      int fig, const char *figname, double limit, bool at_least,
		      const char *(*prefix)(const struct perf_cell *c), struct perf_target *t,
		      int n, int max);
/* "nreaders=2 updater=0" */
void perf_cell_params_text(const struct perf_sweep *s, const struct perf_cell *c, char *buf,
			   size_t len);

/* ------------------------------------------------------------------ */
/* Progress on a terminal (stderr), and the per-measurement watchdog. */

void perf_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void perf_progress_done(void);
void perf_watchdog_arm(const struct perf_cli *cli, const char *what);
void perf_watchdog_disarm(void);

#endif /* TORTURE_PERF_H */
