/* SPDX-License-Identifier: MIT */
/*
 * common.c - what both perf programs use: clocks, threads as CPUs through
 * the ops, a start gate, JSON lines, host facts and statistics.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "perf.h"

#ifndef PERF_LIBURCU_VERSION
#define PERF_LIBURCU_VERSION	NULL	/* built without liburcu-dev */
#endif
#ifndef PERF_CK_VERSION
#define PERF_CK_VERSION		NULL	/* built without libck-dev */
#endif
#ifndef PERF_DPDK_VERSION
#define PERF_DPDK_VERSION	NULL	/* built without libdpdk-dev */
#endif

/* ------------------------------------------------------------------ */
/* Time */

static double clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

double perf_now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
double perf_thread_cpu_ns(void) { return clock_ns(CLOCK_THREAD_CPUTIME_ID); }

/*
 * A thread's CPU clock by its id: the kernel's encoding of a per-thread
 * CPUCLOCK_SCHED clock, which pthread_getcpuclockid() uses too (there is
 * no call that takes a thread id).
 */
static clockid_t tid_clock(pid_t tid)
{
	return (clockid_t)((~(unsigned int)tid << 3) | 6);
}

int perf_threads_cpu(struct perf_threads *set)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t cap = 0;
	struct timespec ts;

	perf_threads_free(set);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0 || clock_gettime(tid_clock(tid), &ts))
			continue;	/* "." and "..", or exited since */
		if (set->n == cap) {
			struct perf_tcpu *t = realloc(set->t, (cap = cap ? 2 * cap : 64) * sizeof(*t));

			if (!t) {
				closedir(d);
				return -1;
			}
			set->t = t;
		}
		set->t[set->n++] = (struct perf_tcpu){ tid, (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec };
	}
	closedir(d);
	return 0;
}

static const struct perf_tcpu *tcpu_find(const struct perf_threads *s, pid_t tid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->t[i].tid == tid)
			return &s->t[i];
	return NULL;
}

double perf_threads_delta(const struct perf_threads *a, const struct perf_threads *b,
			  const pid_t *skip, size_t nskip)
{
	double sum = 0;
	size_t i, k;

	for (i = 0; i < b->n; i++) {
		const struct perf_tcpu *before = tcpu_find(a, b->t[i].tid);

		for (k = 0; k < nskip && skip[k] != b->t[i].tid; k++)
			;
		if (k == nskip)
			sum += b->t[i].ns - (before ? before->ns : 0);
	}
	return sum;
}

void perf_threads_free(struct perf_threads *set)
{
	free(set->t);
	set->t = NULL;
	set->n = 0;
}

void perf_spin_ns(double ns)
{
	double end = perf_now_ns() + ns;

	while (perf_now_ns() < end)
		;
}

void perf_sleep_us(unsigned long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------ */
/* Threads as CPUs */

/* Whether this thread registered with the type (updaters may not). */
static __thread bool tls_registered;

bool perf_qsbr(const struct torture_ops *o)
{
	return o->flags & TORTURE_OPS_QSBR;
}

int perf_register(const struct torture_ops *o)
{
	if (!o->thread_register)
		return 0;
	if (o->thread_register()) {
		fprintf(stderr, "%s: a thread could not register (thread slots: nr_cpus)\n",
			o->name);
		return -1;
	}
	tls_registered = true;
	return 0;
}

void perf_unregister(const struct torture_ops *o)
{
	if (!tls_registered)
		return;
	if (o->thread_unregister)
		o->thread_unregister();
	tls_registered = false;
}

/* Extended quiescent states matter to QSBR types only: a registered
 * thread that waits must not hold their grace periods up. */
void perf_offline(const struct torture_ops *o)
{
	if (tls_registered && perf_qsbr(o) && o->thread_offline)
		o->thread_offline();
}

void perf_online(const struct torture_ops *o)
{
	if (tls_registered && perf_qsbr(o) && o->thread_online)
		o->thread_online();
}

/* QSBR readers must announce quiescent states; NO_BLOCK ones (RCU
 * Tasks), which register with nothing, would otherwise hold every grace
 * period up for as long as they run. */
void perf_qs(const struct torture_ops *o)
{
	if (((tls_registered && perf_qsbr(o)) || (o->flags & TORTURE_OPS_NO_BLOCK)) &&
	    o->quiescent_state)
		o->quiescent_state();
}

int perf_updater_start(const struct torture_ops *o)
{
	if (!(o->flags & TORTURE_OPS_UPDATERS_REGISTER))
		return 0;
	if (perf_register(o))
		return -1;
	perf_offline(o);
	return 0;
}

void perf_updater_stop(const struct torture_ops *o)
{
	perf_online(o);
	perf_unregister(o);
}

void perf_call(const struct torture_ops *o, struct torture_cb *cb,
	       void (*func)(struct torture_cb *cb))
{
	cb->func = func;
	perf_online(o);
	o->call(cb);
	perf_offline(o);
}

void perf_gate_init(struct perf_gate *g, unsigned int n)
{
	pthread_barrier_init(&g->b, NULL, n);
}

void perf_gate_destroy(struct perf_gate *g)
{
	pthread_barrier_destroy(&g->b);
}

void perf_gate_wait(struct perf_gate *g, const struct torture_ops *o)
{
	if (o)
		perf_offline(o);
	pthread_barrier_wait(&g->b);
	if (o)
		perf_online(o);
}

/* Small stacks: rcuscale starts a thousand idle threads. */
#define PERF_STACK	(512 * 1024)

int perf_spawn(pthread_t *t, const char *name, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int rc;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PERF_STACK);
	rc = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);

	if (rc) {
		fprintf(stderr, "perf: cannot create thread %s: %s\n", name, strerror(rc));
		return -1;
	}
	pthread_setname_np(*t, name);
	return 0;
}

void perf_join(pthread_t t)
{
	pthread_join(t, NULL);
}

/* ------------------------------------------------------------------ */
/* JSON lines */

/* A JSON string: escape what JSON requires. */
static void jw_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, (*s == '"' || *s == '\\') ? "\\%c" :
			((unsigned char)*s < 0x20 ? "\\u%04x" : "%c"), *s);
	fputc('"', f);
}

static void jw_sep(struct jw *w, const char *key)
{
	if (w->comma)
		fputc(',', w->f);
	w->comma = true;
	if (!key)
		return;
	jw_quoted(w->f, key);
	fputc(':', w->f);
}

void jw_begin(struct jw *w, FILE *f)
{
	w->f = f;
	w->depth = 1;
	w->comma = false;
	fputc('{', f);
}

void jw_obj(struct jw *w, const char *key)
{
	jw_sep(w, key);
	fputc('{', w->f);
	w->depth++;
	w->comma = false;
}

void jw_close(struct jw *w)
{
	fputc('}', w->f);
	w->comma = true;
	if (--w->depth == 0) {
		fputc('\n', w->f);
		fflush(w->f);
	}
}

void jw_arr(struct jw *w, const char *key)
{
	jw_sep(w, key);
	fputc('[', w->f);
	w->depth++;
	w->comma = false;
}

void jw_arr_close(struct jw *w)
{
	fputc(']', w->f);
	w->depth--;
	w->comma = true;
}

void jw_str(struct jw *w, const char *key, const char *v)
{
	jw_sep(w, key);
	if (v)
		jw_quoted(w->f, v);
	else
		fputs("null", w->f);
}

void jw_num(struct jw *w, const char *key, double v)
{
	jw_sep(w, key);
	if (isnan(v) || isinf(v))
		fputs("null", w->f);
	else
		fprintf(w->f, "%.6g", v);
}

void jw_int(struct jw *w, const char *key, long v)
{
	jw_sep(w, key);
	fprintf(w->f, "%ld", v);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_sep(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* ------------------------------------------------------------------ */
/* Host facts: what the figures depend on. */

int perf_membarrier(void)
{
	static int registered;	/* main thread only */

	/* Registering again is harmless (the RCU may have done it). */
	if (!registered++ &&
	    syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0))
		return -1;
	return (int)syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

static bool host_membarrier(void)
{
	long mask = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return mask >= 0 && (mask & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

static double host_loadavg(void)
{
	double load = NAN;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = NAN;
		fclose(f);
	}
	return load;
}

void perf_host_json(struct jw *w)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.release, "?");
	jw_obj(w, "host");
	jw_int(w, "cores", sysconf(_SC_NPROCESSORS_ONLN));	/* the machine's */
	jw_str(w, "kernel", u.release);
	jw_bool(w, "membarrier", host_membarrier());
	jw_str(w, "liburcu", PERF_LIBURCU_VERSION);
	jw_str(w, "ck", PERF_CK_VERSION);
	jw_str(w, "dpdk", PERF_DPDK_VERSION);
	jw_num(w, "loadavg", host_loadavg());
	perf_up_json(w);
	jw_close(w);
}

/* ------------------------------------------------------------------ */
/* Statistics */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	return v[(size_t)lround(p * (double)(n - 1))];
}

void perf_stats(double *v, size_t n, struct perf_stats *s)
{
	double sum = 0;
	size_t i;

	s->n = n;
	if (!n) {
		s->min = s->p50 = s->p90 = s->p99 = s->max = s->mean = NAN;
		return;
	}
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	s->min = v[0];
	s->max = v[n - 1];
	s->p50 = pct(v, n, 0.5);
	s->p90 = pct(v, n, 0.9);
	s->p99 = pct(v, n, 0.99);
	s->mean = sum / (double)n;
}

/* The median of the non-NaN values (the middle one, or the mean of the
 * two middle ones, as analysis/compare.jq computes it). */
double perf_median(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), m;
	size_t i, k = 0;

	if (!c)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			c[k++] = v[i];
	qsort(c, k, sizeof(*c), cmp_double);
	m = !k ? NAN : k % 2 ? c[k / 2] : (c[k / 2 - 1] + c[k / 2]) / 2;
	free(c);
	return m;
}
