/* SPDX-License-Identifier: MIT */
/*
 * rcuscale.c - update-side performance of every torture type (the
 * kernel's rcuscale): grace-period latency (min, median, p90, p99, max in
 * us) of synchronize (or expedited, polled, call + callback, idle
 * rcu_barrier()), with nwriters concurrent callers, nreaders busy
 * readers and nidle registered but idle threads; updater throughput,
 * grace periods per call (shared grace periods), CPU time per grace
 * period; and, with kfree_rcu_test=1, callback throughput and memory per
 * queued callback.  See perf.h for the sweep and --help for the
 * parameters.  gp_exp=0,1 measures normal and expedited grace periods
 * side by side (a type without expedited ones is left out of the second);
 * the membarrier() floor of expedited grace periods is printed beside
 * them.
 *
 * One measurement ("round") of one type, gp test: the idle threads
 * register (QSBR ones then go offline: idle is an extended quiescent
 * state) and sleep; the readers register and run back-to-back empty
 * sections (QSBR: a quiescent state after each); the writers wait at a
 * start gate, then each times `gps' grace-period waits.  The CPU time of
 * the update side, over the same window, is the writers' own plus the
 * RCU's threads' (grace-period, callback threads: every thread of the
 * process but the harness's, each read from its own clock, lib_cpu());
 * "lib" is the RCU's threads alone.
 *
 * Callbacks test: kfree_nthreads threads each queue kfree_alloc_num x
 * kfree_loops callbacks that free their object (allocated beforehand),
 * then one rcu_barrier(): callbacks queued and invoked per second.  Then,
 * with a reader holding off grace periods, the main thread queues as many
 * again and the growth of the resident set over them, per callback, is
 * what the RCU allocates per queued callback beyond its callback head.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perf.h"

static struct perf_pval p_nreaders = { { -1 }, 1 }, p_nwriters = { { -1 }, 1 },
	p_nidle = { { 0 }, 1 }, p_gps = { { 100 }, 1 }, p_gp_exp = { { 0 }, 1 },
	p_gp_async = { { 0 }, 1 }, p_gp_poll = { { 0 }, 1 }, p_gp_barrier = { { 0 }, 1 },
	p_async_max = { { 1000 }, 1 }, p_writer_holdoff = { { 0 }, 1 },
	p_kfree = { { 0 }, 1 }, p_kfree_nthreads = { { -1 }, 1 },
	p_kfree_alloc_num = { { 8000 }, 1 }, p_kfree_loops = { { 10 }, 1 }, p_pin = { { 1 }, 1 };

static const struct perf_param params[] = {
	PERF_P("nreaders", &p_nreaders, -1, 4096, true,
	  "reader threads (back-to-back empty sections); -1: one per CPU"),
	PERF_P("nwriters", &p_nwriters, -1, 4096, true,
	  "writer threads, each timing its grace-period waits; -1: one per CPU"),
	PERF_P("nidle", &p_nidle, 0, 65536, true, "ours: registered threads that sleep (the tree's size)"),
	PERF_P("gps", &p_gps, 1, 10000000, false,
	  "ours: grace-period waits per writer per round (the kernel's MIN_MEAS is 100)"),
	PERF_P("gp_exp", &p_gp_exp, 0, 1, true, "wait with the expedited primitive (0,1: both)"),
	PERF_P("gp_async", &p_gp_async, 0, 1, false,
	  "call_rcu(): the latency is from the call to the callback"),
	PERF_P("gp_poll", &p_gp_poll, 0, 1, false,
	  "ours: start_poll_synchronize_rcu(), then poll until it completes"),
	PERF_P("gp_barrier", &p_gp_barrier, 0, 1, false, "ours: rcu_barrier() with nothing queued"),
	PERF_P("gp_async_max", &p_async_max, 1, 10000000, false,
	  "callbacks in flight per writer before it waits with rcu_barrier()"),
	PERF_P("writer_holdoff", &p_writer_holdoff, 0, 10000000, false,
	  "us each writer waits between grace periods"),
	PERF_P("kfree_rcu_test", &p_kfree, 0, 1, false,
	  "measure callback throughput and memory instead of grace periods"),
	PERF_P("kfree_nthreads", &p_kfree_nthreads, -1, 4096, true,
	  "kfree_rcu_test: threads queueing callbacks; -1: one per CPU"),
	PERF_P("kfree_alloc_num", &p_kfree_alloc_num, 1, 10000000, false,
	  "kfree_rcu_test: callbacks per loop per thread"),
	PERF_P("kfree_loops", &p_kfree_loops, 1, 100000, false, "kfree_rcu_test: loops per thread"),
	PERF_P("pin", &p_pin, 0, 1, false,
	  "1: writer i on the i-th CPU, reader i on the i-th from the last (0: unpinned)"),
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static long per_cpu(long n)
{
	return n >= 0 ? n : perf_ncpus();
}

/* ------------------------------------------------------------------ */
/* The kinds of grace-period wait */

enum { K_SYNC, K_EXP, K_POLL, K_ASYNC, K_BARRIER };
static const char *const kind_names[] = { "sync", "exp", "poll", "async", "barrier" };
static int base_kind;	/* gp_async, gp_poll, gp_barrier or sync: gp_exp=0's */

static const char *kind_missing(const struct torture_ops *o, int kind)
{
	switch (kind) {
	case K_SYNC:
		return o->sync ? NULL : "sync";
	case K_EXP:
		return o->exp_sync ? NULL : "exp_sync (expedited grace periods)";
	case K_POLL:
		return o->start_gp_poll && o->poll_gp_state ? NULL :
		       "start_gp_poll and poll_gp_state (polled grace periods)";
	case K_ASYNC:
		return o->call && o->cb_barrier ? NULL : "call and cb_barrier";
	default:
		return o->cb_barrier ? NULL : "cb_barrier";
	}
}

/* Poll a cookie: yield while it is young, then sleep in short steps. */
static void poll_wait(const struct torture_ops *o)
{
	unsigned long cookie = o->start_gp_poll();
	double t0 = perf_now_ns();

	while (!o->poll_gp_state(cookie)) {
		if (perf_now_ns() - t0 < 1e6)
			sched_yield();
		else
			perf_sleep_us(50);
	}
}

/* ------------------------------------------------------------------ */
/* One round's threads */

struct rc_round {
	const struct torture_ops *o;
	int kind;			/* K_*: what the writers wait for */
	struct perf_gate gate;		/* the writers and the main thread */
	int stop;			/* readers and idle threads stop; atomic */
	int ready;			/* readers and idle threads registered; atomic */
	int failed;			/* a thread could not register; atomic */
	pthread_mutex_t idle_lock;
	pthread_cond_t idle_cond;	/* idle threads sleep here until stop */
};

struct rc_thread {
	struct rc_round *rd;
	pthread_t t;
	pid_t tid;			/* set by the thread as it starts */
	unsigned long reads;		/* readers: sections so far; atomic */
	/* Writers: */
	double *lat_us;			/* gps samples */
	long inflight;			/* async callbacks not yet invoked; atomic */
	double cpu0_ns, cpu_ns;		/* CPU time over its waits */
	long cpu_k;			/* rcuscale.pin: perf_pin()'s k */
};

/* An async callback: its writer's sample slot and when it was queued. */
struct rc_cb {
	struct torture_cb cb;
	struct rc_thread *w;
	double t0;
	double *slot;
};

static bool stopping(struct rc_round *rd)
{
	return smp_load_acquire(&rd->stop);	/* pairs with stop_all() */
}

static void mark_ready(struct rc_round *rd, bool ok)
{
	if (!ok)
		atomic_inc(&rd->failed);	/* read after ready */
	atomic_fetch_add_release(1, &rd->ready);	/* pairs with wait_ready() */
}

static void *idle_main(void *arg)
{
	struct rc_thread *t = arg;
	struct rc_round *rd = t->rd;
	bool ok;

	t->tid = gettid();	/* read after the join */
	ok = !perf_register(rd->o);
	if (ok)
		perf_offline(rd->o);	/* QSBR: idle is an extended QS */
	mark_ready(rd, ok);
	pthread_mutex_lock(&rd->idle_lock);
	while (!stopping(rd))
		pthread_cond_wait(&rd->idle_cond, &rd->idle_lock);
	pthread_mutex_unlock(&rd->idle_lock);
	if (ok)
		perf_unregister(rd->o);
	return NULL;
}

/*
 * rcuscale.pin: a round whose writer the scheduler first puts on its
 * reader's CPU measures the no-reader case (0.3 us grace periods while the
 * reader waits for a CPU) until the reader is moved; pinned, every round
 * measures what it says.  Readers count from the last CPU, writers from
 * the first (the kernel's rcuscale binds its kthreads too).
 */
static int pin(const struct rc_thread *t)
{
	if (!p_pin.v[0] || !perf_pin(t->cpu_k))
		return 0;
	fprintf(stderr, "rcuscale: cannot pin a thread to a CPU (rcuscale.pin=0 runs unpinned)\n");
	return -1;
}

static long target_val = 1;
static void *target = &target_val;
static long sink;

static void *reader_main(void *arg)
{
	struct rc_thread *t = arg;
	const struct torture_ops *o = t->rd->o;
	bool ok;
	long s = 0;
	int i, idx;

	t->tid = gettid();	/* read after the join */
	ok = !pin(t) && !perf_register(o);
	mark_ready(t->rd, ok);
	while (ok && !stopping(t->rd)) {
		for (i = 0; i < 64; i++) {
			idx = o->readlock();
			s += *(long *)o->dereference(&target);
			o->readunlock(idx);
			perf_qs(o);
		}
		/* Relaxed: a counter the main thread samples. */
		WRITE_ONCE(t->reads, t->reads + 64);
		perf_up_yield();	/* one CPU: the writers must run too */
	}
	atomic_add(s, &sink);	/* keep the loads */
	if (ok) {
		perf_offline(o);
		perf_unregister(o);
	}
	return NULL;
}

static void async_cb(struct torture_cb *cb)
{
	struct rc_cb *c = (struct rc_cb *)cb;

	*c->slot = (perf_now_ns() - c->t0) / 1e3;
	atomic_dec(&c->w->inflight);	/* a count */
}

static void *writer_main(void *arg)
{
	struct rc_thread *t = arg;
	struct rc_round *rd = t->rd;
	const struct torture_ops *o = rd->o;
	long n = p_gps.v[0], i;
	int kind = rd->kind;
	struct rc_cb *cbs = kind == K_ASYNC ? calloc((size_t)n, sizeof(*cbs)) : NULL;
	bool ok;
	double t0;

	t->tid = gettid();	/* read after the join */
	ok = !pin(t) && !perf_updater_start(o) && (kind != K_ASYNC || cbs);
	if (!ok)
		atomic_inc(&rd->failed);	/* read after the join */
	perf_gate_wait(&rd->gate, NULL);
	t->cpu0_ns = perf_thread_cpu_ns();
	for (i = 0; ok && i < n; i++) {
		t0 = perf_now_ns();
		switch (kind) {
		case K_SYNC:
			o->sync();
			break;
		case K_EXP:
			o->exp_sync();
			break;
		case K_POLL:
			poll_wait(o);
			break;
		case K_BARRIER:
			o->cb_barrier();
			break;
		case K_ASYNC:
			while (READ_ONCE(t->inflight) >= p_async_max.v[0])
				o->cb_barrier();	/* (a count) */
			cbs[i] = (struct rc_cb){ .w = t, .t0 = t0, .slot = &t->lat_us[i] };
			atomic_inc(&t->inflight);	/* a count */
			perf_call(o, &cbs[i].cb, async_cb);
			break;
		}
		if (kind != K_ASYNC)
			t->lat_us[i] = (perf_now_ns() - t0) / 1e3;
		if (p_writer_holdoff.v[0])
			perf_sleep_us((unsigned long)p_writer_holdoff.v[0]);
		else
			perf_up_yield();	/* one CPU: the readers must run too */
	}
	if (ok && kind == K_ASYNC)
		o->cb_barrier();	/* every callback has run and stored its sample */
	t->cpu_ns = perf_thread_cpu_ns() - t->cpu0_ns;
	if (ok)
		perf_updater_stop(o);
	free(cbs);
	return NULL;
}

static void wait_ready(struct rc_round *rd, int n)
{
	while (smp_load_acquire(&rd->ready) < n)	/* pairs with mark_ready() */
		perf_sleep_us(200);
}

static void stop_all(struct rc_round *rd)
{
	pthread_mutex_lock(&rd->idle_lock);
	smp_store_release(&rd->stop, 1);	/* pairs with stopping() */
	pthread_cond_broadcast(&rd->idle_cond);
	pthread_mutex_unlock(&rd->idle_lock);
}

/* ------------------------------------------------------------------ */
/* gp test */

static const struct perf_param *const gp_lists[] = {
	&params[1], &params[0], &params[2], &params[4],
};
enum { L_NWRITERS, L_NREADERS, L_NIDLE, L_EXP };

static int cell_kind(const struct perf_cell *c)
{
	return c->p[L_EXP] ? K_EXP : base_kind;
}

static const char *cell_kind_name(const struct perf_cell *c)
{
	return kind_names[cell_kind(c)];
}

/* A type without the cell's kind of grace period (gp_exp=0,1 with
 * liburcu's, which have no expedited ones). */
static const char *gp_skip(const struct perf_cell *c)
{
	static char why[200];
	const char *m = kind_missing(c->ops, cell_kind(c));

	if (!m)
		return NULL;
	snprintf(why, sizeof(why), "torture type %s has no %s", c->ops->name, m);
	return why;
}

enum {
	G_N, G_MIN, G_P50, G_P90, G_P99, G_MAX, G_MEAN, G_CALLS, G_GPS, G_GPC, G_READS,
	G_CPU_CALL, G_LIB_CALL, G_CPU_GP, NG
};
static const struct perf_fig gp_figs[NG] = {
	[G_N] = { "n", "n", PERF_NEUTRAL, false },
	[G_MIN] = { "min_us", "min", PERF_LOWER, false },
	[G_P50] = { "p50_us", "p50 us", PERF_LOWER, true },
	[G_P90] = { "p90_us", "p90", PERF_LOWER, true },
	[G_P99] = { "p99_us", "p99", PERF_LOWER, true },
	[G_MAX] = { "max_us", "max", PERF_LOWER, true },
	[G_MEAN] = { "mean_us", "mean", PERF_LOWER, false },
	[G_CALLS] = { "calls_per_s", "calls/s", PERF_HIGHER, true },
	[G_GPS] = { "gps_per_s", "GPs/s", PERF_NEUTRAL, false },
	[G_GPC] = { "gps_per_call", "GPs/call", PERF_NEUTRAL, true },
	[G_READS] = { "reads_per_s", "reads/s", PERF_HIGHER, true },
	[G_CPU_CALL] = { "cpu_per_call_us", "cpu/call", PERF_LOWER, true },
	[G_LIB_CALL] = { "lib_cpu_per_call_us", "lib/call", PERF_LOWER, true },
	[G_CPU_GP] = { "cpu_per_gp_us", "cpu/GP", PERF_LOWER, false },
};

struct rc_sample {
	double wall;
	struct perf_threads threads;	/* every thread's CPU time */
	unsigned long reads, gps;
};

static void sample(struct rc_sample *s, struct rc_thread *th, long nreaders,
		   const struct torture_ops *o)
{
	long i;

	s->reads = 0;
	for (i = 0; i < nreaders; i++)
		s->reads += READ_ONCE(th[i].reads);	/* a count */
	s->gps = o->gps_completed ? o->gps_completed() : 0;
	s->wall = perf_now_ns();
	if (perf_threads_cpu(&s->threads))
		perror("rcuscale: /proc/self/task");
}

/*
 * The library's CPU time between a and b: every thread's but the
 * harness's (main, readers, idle, writers; th[0..n)), each from its own
 * clock.  Not the process's clock less the harness's: that one lags by
 * up to a tick for each thread running on another CPU at the instant it
 * is read (busy readers), while a thread's own clock does not, so the
 * difference could come out below zero.
 */
static double lib_cpu(const struct rc_sample *a, const struct rc_sample *b,
		      const struct rc_thread *th, long n)
{
	pid_t *skip = malloc((size_t)(n + 1) * sizeof(*skip));
	double lib;
	long i;

	if (!skip)
		return NAN;
	skip[0] = gettid();
	for (i = 0; i < n; i++)
		skip[i + 1] = th[i].tid;
	lib = perf_threads_delta(&a->threads, &b->threads, skip, (size_t)n + 1);
	free(skip);
	return lib;
}

static int spawn_all(struct rc_thread *th, long from, long to, const char *name,
		     void *(*fn)(void *), struct rc_round *rd)
{
	long i;

	for (i = from; i < to; i++) {
		th[i].rd = rd;
		if (perf_spawn(&th[i].t, name, fn, &th[i]))
			return -1;
	}
	return 0;
}

static int gp_measure(const struct perf_cell *c, int run, double *out)
{
	long nw = per_cpu(c->p[L_NWRITERS]), nr = per_cpu(c->p[L_NREADERS]);
	long ni = c->p[L_NIDLE], nbg = nr + ni, i, gps = p_gps.v[0];
	struct rc_round rd = { .o = c->ops, .kind = cell_kind(c),
			       .idle_lock = PTHREAD_MUTEX_INITIALIZER,
			       .idle_cond = PTHREAD_COND_INITIALIZER };
	struct rc_thread *th = calloc((size_t)(nbg + nw), sizeof(*th));
	double *lat = malloc((size_t)(nw * gps) * sizeof(double)), wcpu = 0, secs, upd, lib;
	struct rc_sample a = { 0 }, b = { 0 };
	struct perf_stats st;
	int rc = 0;

	(void)run;
	if (!th || !lat)
		return -1;
	perf_gate_init(&rd.gate, (unsigned int)nw + 1);
	for (i = 0; i < nw * gps; i++)
		lat[i] = NAN;	/* async: a callback that never ran stays NaN */
	for (i = 0; i < nw; i++) {
		th[nbg + i].lat_us = lat + i * gps;
		th[nbg + i].cpu_k = i;
	}
	for (i = 0; i < nr; i++)
		th[i].cpu_k = -(i + 1);
	if (spawn_all(th, 0, nr, "rs_reader", reader_main, &rd) ||
	    spawn_all(th, nr, nbg, "rs_idle", idle_main, &rd) ||
	    spawn_all(th, nbg, nbg + nw, "rs_writer", writer_main, &rd))
		exit(3);	/* threads wait for a stop that never comes */
	wait_ready(&rd, (int)nbg);
	sample(&a, th, nr, c->ops);
	perf_gate_wait(&rd.gate, NULL);	/* the writers go */
	for (i = nbg; i < nbg + nw; i++)
		perf_join(th[i].t);
	sample(&b, th, nr, c->ops);
	stop_all(&rd);
	for (i = 0; i < nbg; i++)
		perf_join(th[i].t);
	for (i = nbg; i < nbg + nw; i++)
		wcpu += th[i].cpu_ns;
	if (READ_ONCE(rd.failed))	/* the threads are joined */
		rc = -1;
	perf_gate_destroy(&rd.gate);

	secs = (b.wall - a.wall) / 1e9;
	lib = lib_cpu(&a, &b, th, nbg + nw);
	perf_threads_free(&a.threads);
	perf_threads_free(&b.threads);
	upd = lib + wcpu;
	for (i = 0; i < nw * gps; i++)
		if (isnan(lat[i])) {
			fprintf(stderr, "rcuscale: %s: a grace-period wait was not measured (a "
				"callback that never ran?)\n", c->ops->name);
			rc = -1;
			lat[i] = INFINITY;
		}
	perf_stats(lat, (size_t)(nw * gps), &st);
	out[G_N] = (double)st.n;
	out[G_MIN] = st.min;
	out[G_P50] = st.p50;
	out[G_P90] = st.p90;
	out[G_P99] = st.p99;
	out[G_MAX] = st.max;
	out[G_MEAN] = st.mean;
	out[G_CALLS] = (double)(nw * gps) / secs;
	out[G_GPS] = c->ops->gps_completed ? (double)(b.gps - a.gps) / secs : NAN;
	out[G_GPC] = c->ops->gps_completed ? (double)(b.gps - a.gps) / (double)(nw * gps) : NAN;
	out[G_READS] = nr ? (double)(b.reads - a.reads) / secs : NAN;
	out[G_CPU_CALL] = upd / 1e3 / (double)(nw * gps);
	out[G_LIB_CALL] = lib / 1e3 / (double)(nw * gps);
	out[G_CPU_GP] = c->ops->gps_completed && b.gps != a.gps ?
			upd / 1e3 / (double)(b.gps - a.gps) : NAN;
	free(th);
	free(lat);
	return rc;
}

static void gp_fixed_json(struct jw *w, const struct perf_cell *c)
{
	jw_str(w, "gp", cell_kind_name(c));
	jw_int(w, "gps", p_gps.v[0]);
	jw_int(w, "writer_holdoff", p_writer_holdoff.v[0]);
	jw_int(w, "pin", p_pin.v[0]);
	if (cell_kind(c) == K_ASYNC)
		jw_int(w, "gp_async_max", p_async_max.v[0]);
}

static char gp_label[200];

static const struct perf_test gp_test = {
	.name = "gp",
	.label = gp_label,
	.figs = gp_figs,
	.nfigs = NG,
	.lists = gp_lists,
	.nlists = 4,
	.fixed_json = gp_fixed_json,
	.measure = gp_measure,
	.cell_skip = gp_skip,
};

/* ------------------------------------------------------------------ */
/* callbacks test (kfree_rcu_test=1) */

static const struct perf_param *const cb_lists[] = { &params[11] };

enum { C_INVOKED, C_QUEUED, C_BYTES, C_CBS, NC };
static const struct perf_fig cb_figs[NC] = {
	[C_INVOKED] = { "invoked_per_s", "invoked/s", PERF_HIGHER, true },
	[C_QUEUED] = { "queued_per_s", "queued/s", PERF_HIGHER, true },
	[C_BYTES] = { "bytes_per_cb", "bytes/cb", PERF_LOWER, true },
	[C_CBS] = { "cbs", "callbacks", PERF_NEUTRAL, true },
};

static unsigned long cbs_invoked;	/* atomic */

static void free_cb(struct torture_cb *cb)
{
	free(cb);
	atomic_inc(&cbs_invoked);	/* a count */
}

struct cb_thread {
	const struct torture_ops *o;
	struct perf_gate *gate;
	pthread_t t;
	struct torture_cb **objs;
	long n;
	double end_ns;
	int ok;
};

/* n objects, allocated and touched beforehand (not timed). */
static struct torture_cb **objs_alloc(long n)
{
	struct torture_cb **v = malloc((size_t)n * sizeof(*v));
	long i;

	for (i = 0; v && i < n; i++)
		if (!(v[i] = calloc(1, sizeof(**v))))
			return NULL;
	return v;
}

static void *cb_main(void *arg)
{
	struct cb_thread *t = arg;
	long i;

	t->ok = !perf_updater_start(t->o);
	perf_gate_wait(t->gate, NULL);
	for (i = 0; t->ok && i < t->n; i++)
		perf_call(t->o, t->objs[i], free_cb);
	t->end_ns = perf_now_ns();
	if (t->ok)
		perf_updater_stop(t->o);
	return NULL;
}

static long rss_bytes(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * sysconf(_SC_PAGESIZE);
}

/* A reader that holds off grace periods until released. */
struct blocker {
	const struct torture_ops *o;
	struct perf_gate gate;		/* in its section / may leave */
	pthread_t t;
	int ok;
};

static void *blocker_main(void *arg)
{
	struct blocker *b = arg;
	int idx = 0;

	b->ok = !perf_register(b->o);
	if (b->ok)
		idx = b->o->readlock();
	pthread_barrier_wait(&b->gate.b);	/* online: holds QSBR GPs too */
	pthread_barrier_wait(&b->gate.b);
	if (b->ok) {
		b->o->readunlock(idx);
		perf_offline(b->o);
		perf_unregister(b->o);
	}
	return NULL;
}

/*
 * The same on one CPU (up.c): a reader must not block in its section
 * there, so the queueing thread holds grace periods off with a section of
 * its own (a callback queued inside a section runs after it ends).
 */
static double up_cb_memory(const struct torture_ops *o, struct torture_cb **objs, long n)
{
	long r0, r1, i;
	int idx = o->readlock();

	r0 = rss_bytes();
	for (i = 0; i < n; i++)
		perf_call(o, objs[i], free_cb);
	r1 = rss_bytes();
	o->readunlock(idx);
	o->cb_barrier();
	free(objs);
	return (double)(r1 - r0) / (double)n;
}

/* Bytes the RCU allocates per queued callback, grace periods held off. */
static double cb_memory(const struct torture_ops *o, long n)
{
	struct torture_cb **objs = objs_alloc(n), *warm = calloc(1, sizeof(*warm));
	struct blocker b = { .o = o };
	long r0, r1, i;

	if (!objs || !warm)
		return NAN;
	/* Warm up: a callback and a barrier start whatever the RCU starts
	 * lazily (liburcu's call_rcu thread). */
	perf_call(o, warm, free_cb);
	o->cb_barrier();
	if (perf_up())
		return up_cb_memory(o, objs, n);
	perf_gate_init(&b.gate, 2);
	if (perf_spawn(&b.t, "rs_blocker", blocker_main, &b))
		exit(3);
	pthread_barrier_wait(&b.gate.b);
	r0 = rss_bytes();
	for (i = 0; i < n; i++)
		perf_call(o, objs[i], free_cb);
	r1 = rss_bytes();
	pthread_barrier_wait(&b.gate.b);
	perf_join(b.t);
	perf_gate_destroy(&b.gate);
	o->cb_barrier();
	free(objs);
	return b.ok ? (double)(r1 - r0) / (double)n : NAN;
}

static int cb_measure(const struct perf_cell *c, int run, double *out)
{
	long nt = per_cpu(c->p[0]), per = p_kfree_alloc_num.v[0] * p_kfree_loops.v[0], i;
	unsigned long before;
	struct cb_thread *th = calloc((size_t)nt, sizeof(*th));
	struct perf_gate gate;
	double t0, tq = 0, ti;
	int rc = 0;

	(void)run;
	if (!th)
		return -1;
	/* The main thread waits in rcu_barrier(): registered if need be. */
	if (perf_updater_start(c->ops)) {
		free(th);
		return -1;
	}
	perf_gate_init(&gate, (unsigned int)nt + 1);
	for (i = 0; i < nt; i++) {
		th[i] = (struct cb_thread){ .o = c->ops, .gate = &gate, .n = per };
		th[i].objs = objs_alloc(per);
		if (!th[i].objs || perf_spawn(&th[i].t, "rs_kfree", cb_main, &th[i]))
			exit(3);
	}
	before = READ_ONCE(cbs_invoked);	/* a count */
	t0 = perf_now_ns();	/* the threads may be done before we leave the gate */
	perf_gate_wait(&gate, NULL);
	for (i = 0; i < nt; i++) {
		perf_join(th[i].t);
		if (th[i].end_ns - t0 > tq)
			tq = th[i].end_ns - t0;
		if (!th[i].ok)
			rc = -1;
		free(th[i].objs);
	}
	c->ops->cb_barrier();
	ti = perf_now_ns() - t0;
	perf_gate_destroy(&gate);
	free(th);
	if (READ_ONCE(cbs_invoked) - before != (unsigned long)(nt * per)) {
		fprintf(stderr, "rcuscale: %s: %lu callbacks invoked of %ld queued before "
			"rcu_barrier() returned\n", c->ops->name,
			READ_ONCE(cbs_invoked) - before, nt * per);
		rc = -1;
	}
	out[C_CBS] = (double)(nt * per);
	out[C_QUEUED] = (double)(nt * per) / (tq / 1e9);
	out[C_INVOKED] = (double)(nt * per) / (ti / 1e9);
	out[C_BYTES] = cb_memory(c->ops, per);
	perf_updater_stop(c->ops);
	return rc;
}

static void cb_fixed_json(struct jw *w, const struct perf_cell *c)
{
	(void)c;
	jw_int(w, "kfree_alloc_num", p_kfree_alloc_num.v[0]);
	jw_int(w, "kfree_loops", p_kfree_loops.v[0]);
	jw_int(w, "cb_bytes", (long)sizeof(struct torture_cb));
}

static const struct perf_test cb_test = {
	.name = "callbacks",
	.label = "call_rcu() throughput: callbacks queued per second (all threads), invoked "
		 "per second (until rcu_barrier() returned), bytes allocated per queued "
		 "callback beyond its head",
	.figs = cb_figs,
	.nfigs = NC,
	.lists = cb_lists,
	.nlists = 1,
	.fixed_json = cb_fixed_json,
	.measure = cb_measure,
};

/* ------------------------------------------------------------------ */
/* Targets */

static int pair_targets(const struct perf_sweep *s, struct perf_target *t, int n, int max)
{
	static const char *const pairs[][2] = { { "rcu", "urcu-memb" }, { "sched", "urcu-qsbr" } };

	n = perf_pair_targets(s, pairs, 2, G_P50, "p50", 1, false, cell_kind_name, t, n, max);
	n = perf_pair_targets(s, pairs, 2, G_P99, "p99", 1, false, cell_kind_name, t, n, max);
	return perf_pair_targets(s, pairs, 2, G_CALLS, "calls/s", 1, true, cell_kind_name, t, n,
				 max);
}

/* Latency with the most idle threads against 16 of them: at most 3x (ours:
 * liburcu's own ratio is in the table, not a target of ours). */
static int idle_targets(const struct perf_sweep *s, struct perf_target *t, int n, int max)
{
	long p16[PERF_MAXP], most = 0;
	int i, k;

	for (k = 0; k < p_nidle.n; k++)
		if (p_nidle.v[k] > most)
			most = p_nidle.v[k];
	for (i = 0; i < s->ncells && n < max; i++) {
		const struct perf_cell *c = &s->cells[i], *c16;

		if (c->p[L_NIDLE] != most || most <= 16 || !strncmp(c->ops->name, "urcu-", 5))
			continue;
		memcpy(p16, c->p, sizeof(p16));
		p16[L_NIDLE] = 16;
		if (!(c16 = perf_cell_find(s, c->ops->name, p16)))
			continue;
		snprintf(t[n].what, sizeof(t[n].what), "%s %s p50 nidle=%ld/nidle=16 (nwriters=%ld "
			 "nreaders=%ld)", cell_kind_name(c), c->ops->name, most, c->p[L_NWRITERS],
			 c->p[L_NREADERS]);
		perf_ratio_target(&t[n++], s, c, G_P50, c16, G_P50, 3, false);
	}
	return n;
}

/*
 * Expedited against normal grace periods (gp_exp=0,1), the expedited
 * issue's targets: our expedited latency at most 1/10 of our normal one
 * and 1/2 of liburcu-memb's synchronize_rcu().
 */
static int exp_targets(const struct perf_sweep *s, struct perf_target *t, int n, int max)
{
	static const struct { const char *other; double limit; } vs[] = {
		{ NULL, 0.1 }, { "urcu-memb", 0.5 },
	};
	long p0[PERF_MAXP];
	int i, k;

	if (perf_up())
		return n;	/* Tiny RCU: every grace period is instant */
	for (i = 0; i < s->ncells; i++) {
		const struct perf_cell *c = &s->cells[i], *o;

		if (cell_kind(c) != K_EXP || !strncmp(c->ops->name, "urcu-", 5))
			continue;
		memcpy(p0, c->p, sizeof(p0));
		p0[L_EXP] = 0;
		for (k = 0; k < 2 && n < max; k++) {
			if (!(o = perf_cell_find(s, vs[k].other ? vs[k].other : c->ops->name, p0)))
				continue;
			snprintf(t[n].what, sizeof(t[n].what), "exp %s/%s %s p50 (nwriters=%ld "
				 "nreaders=%ld nidle=%ld)", c->ops->name, kind_names[base_kind],
				 o->ops->name, c->p[L_NWRITERS], c->p[L_NREADERS], c->p[L_NIDLE]);
			perf_ratio_target(&t[n++], s, c, G_P50, o, G_P50, vs[k].limit, false);
		}
	}
	return n;
}

static void gp_targets(const struct perf_sweep *s, const struct perf_cli *cli)
{
	struct perf_target t[128] = { 0 };
	/* rcu_barrier()'s only target is its idle latency (below): a few
	 * nanoseconds either way against liburcu's are not a verdict. */
	int n = base_kind == K_BARRIER ? 0 : pair_targets(s, t, 0, 90), i;

	n = idle_targets(s, t, n, 100);
	n = exp_targets(s, t, n, 120);
	for (i = 0; i < s->ncells && n < 128 && base_kind == K_BARRIER; i++) {
		const struct perf_cell *c = &s->cells[i];

		if ((strcmp(c->ops->name, "rcu") && strcmp(c->ops->name, "sched")) ||
		    cell_kind(c) != K_BARRIER)
			continue;
		snprintf(t[n].what, sizeof(t[n].what), "idle rcu_barrier() %s p50 (nwriters=%ld "
			 "nreaders=%ld nidle=%ld)", c->ops->name, c->p[L_NWRITERS],
			 c->p[L_NREADERS], c->p[L_NIDLE]);
		t[n].value = perf_cell_median(s, c, G_P50);
		t[n].limit = 100;
		t[n].at_least = false;
		t[n++].unit = "us";
	}
	perf_targets_print(cli, "gp", t, n);
}

/* Our call_rcu() throughput against liburcu's best flavor's. */
static void cb_targets(const struct perf_sweep *s, const struct perf_cli *cli)
{
	struct perf_target t[PERF_MAXV] = { 0 };
	int n = 0, i, j;

	for (i = 0; i < s->ncells && n < PERF_MAXV; i++) {
		const struct perf_cell *c = &s->cells[i];
		const struct perf_cell *who = NULL;
		double best = NAN, v;

		if (strcmp(c->ops->name, "rcu"))
			continue;
		for (j = 0; j < s->ncells; j++) {
			const struct perf_cell *l = &s->cells[j];

			if (strncmp(l->ops->name, "urcu-", 5) || l->p[0] != c->p[0])
				continue;
			v = perf_cell_median(s, l, C_INVOKED);
			if (isnan(best) || v > best) {
				best = v;
				who = l;
			}
		}
		if (!who)
			continue;
		snprintf(t[n].what, sizeof(t[n].what), "callbacks invoked/s rcu/%s (best liburcu; "
			 "kfree_nthreads=%ld)", who->ops->name, c->p[0]);
		perf_ratio_target(&t[n++], s, c, C_INVOKED, who, C_INVOKED, 1, true);
	}
	perf_targets_print(cli, "callbacks", t, n);
}

/* ------------------------------------------------------------------ */

/* Whether gp_exp's list has value v. */
static bool exp_has(long v)
{
	int i;

	for (i = 0; i < p_gp_exp.n; i++)
		if (p_gp_exp.v[i] == v)
			return true;
	return false;
}

static int bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "rcuscale: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 2;
}

/* A list of values of which none may be 0. */
static int nonzero(const struct perf_pval *v, const char *name, const char *what)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (!v->v[i])
			return bad("rcuscale.%s=0: at least one %s (-1: one per CPU)", name, what);
	return 0;
}

static int check_params(const struct perf_cli *cli)
{
	const char *m, *m0, *m1;
	int i;

	if (p_gp_async.v[0] + p_gp_poll.v[0] + p_gp_barrier.v[0] + exp_has(1) > 1)
		return bad("rcuscale.gp_exp, gp_async, gp_poll and gp_barrier: at most one of "
			   "them%s%s", "", "");
	base_kind = p_gp_async.v[0] ? K_ASYNC : p_gp_poll.v[0] ? K_POLL :
		    p_gp_barrier.v[0] ? K_BARRIER : K_SYNC;
	if (p_kfree.v[0] ? nonzero(&p_kfree_nthreads, "kfree_nthreads", "thread") :
			   nonzero(&p_nwriters, "nwriters", "writer"))
		return 2;
	for (i = 0; i < cli->ntypes; i++) {
		const struct torture_ops *o = cli->types[i];

		if (p_kfree.v[0]) {
			if (!o->call || !o->cb_barrier)
				return bad("rcuscale.kfree_rcu_test=1: torture type %s has no call and "
					   "cb_barrier%s", o->name, "");
			continue;
		}
		/* A type must have one of the kinds asked for; the cells of
		 * the other are left out (gp_skip()). */
		m0 = exp_has(0) ? kind_missing(o, base_kind) : NULL;
		m1 = exp_has(1) ? kind_missing(o, K_EXP) : NULL;
		m = exp_has(0) && exp_has(1) ? (m0 && m1 ? m0 : NULL) : exp_has(1) ? m1 : m0;
		if (m) {
			fprintf(stderr, "rcuscale: %s: torture type %s has no %s\n",
				kind_names[exp_has(0) ? base_kind : K_EXP], o->name, m);
			return 2;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The floor of an expedited grace period: one membarrier() while another
 * thread runs (it gets the interrupt). */

static int floor_stop, floor_spinning;	/* atomic */

static void *floor_spinner(void *arg)
{
	(void)arg;
	/* Pinned as a reader (from the last CPU); an unpinned spinner shared
	 * the caller's CPU at times and was never interrupted. */
	if (p_pin.v[0])
		perf_pin(-1);
	/* Flags only, no data: relaxed, read by membarrier_floor(). */
	WRITE_ONCE(floor_spinning, 1);
	while (!READ_ONCE(floor_stop))	/* set by membarrier_floor() */
		;
	return NULL;
}

static void membarrier_floor(const struct perf_cli *cli)
{
	double v[1000], t0;
	struct perf_stats st;
	cpu_set_t mask;
	bool pinned;
	struct jw w;
	pthread_t t;
	int i;

	/* The caller pinned as a writer (from the first CPU) meanwhile. */
	pinned = p_pin.v[0] && !sched_getaffinity(0, sizeof(mask), &mask) && !perf_pin(0);
	if (perf_spawn(&t, "rs_spin", floor_spinner, NULL)) {
		if (pinned)
			sched_setaffinity(0, sizeof(mask), &mask);
		return;
	}
	/* Measured before the spinner first ran, membarrier() interrupts
	 * nobody and the floor reads 0.15 us instead of 15-20. */
	while (!READ_ONCE(floor_spinning))	/* floor_spinner() sets it */
		sched_yield();
	for (i = 0; i < 1000; i++) {
		t0 = perf_now_ns();
		if (perf_membarrier())
			break;
		v[i] = (perf_now_ns() - t0) / 1e3;
	}
	WRITE_ONCE(floor_stop, 1);
	perf_join(t);
	if (pinned)
		sched_setaffinity(0, sizeof(mask), &mask);
	perf_stats(v, (size_t)i, &st);
	fprintf(cli->table, "\nThe floor of an expedited grace period: membarrier() with another "
		"thread running: %s\n", i < 1000 ? "not available" : "");
	if (i == 1000)
		fprintf(cli->table, "  p50 %.4g us, p90 %.4g us, p99 %.4g us (%zu calls)\n", st.p50,
			st.p90, st.p99, st.n);
	if (!cli->json)
		return;
	jw_begin(&w, cli->json);
	jw_str(&w, "prog", cli->prog);
	jw_str(&w, "test", "gp");
	jw_str(&w, "kind", "floor");
	jw_obj(&w, "figures");
	jw_int(&w, "n", (long)st.n);
	jw_num(&w, "membarrier_p50_us", i == 1000 ? st.p50 : NAN);
	jw_num(&w, "membarrier_p90_us", i == 1000 ? st.p90 : NAN);
	jw_num(&w, "membarrier_p99_us", i == 1000 ? st.p99 : NAN);
	jw_close(&w);
	perf_host_json(&w);
	jw_close(&w);
}

int main(int argc, char **argv)
{
	struct perf_cli cli = {
		.prog = "rcuscale", .params = params, .nparams = NPARAMS,
		.nruns = 3, .verbose = 0, .timeout_s = 300,
	};
	struct perf_sweep s;
	int rc;

	rc = perf_setup(&cli, argc, argv,
			"Update-side performance of torture types: grace-period latency, "
			"updater\nthroughput, shared grace periods, CPU per grace period, "
			"idle threads;\ncallback throughput and memory (kfree_rcu_test=1).");
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = check_params(&cli);
	if (rc || perf_checked(&cli))
		return rc;
	snprintf(gp_label, sizeof(gp_label), "%s%s: grace-period wait latency (us) and "
		 "updater throughput; CPU per call (us): update side, lib = RCU threads only",
		 exp_has(0) ? kind_names[base_kind] : "exp", exp_has(0) && exp_has(1) ? ", exp" : "");
	if (perf_sweep_init(&s, p_kfree.v[0] ? &cb_test : &gp_test, &cli))
		return 3;
	rc = perf_sweep_run(&s, &cli);
	if (!rc) {
		if (p_kfree.v[0])
			cb_targets(&s, &cli);
		else
			gp_targets(&s, &cli);
		/* One CPU: no other thread for membarrier() to interrupt. */
		if (!p_kfree.v[0] && exp_has(1) && !perf_up())
			membarrier_floor(&cli);
	}
	perf_sweep_free(&s);
	return rc;
}
