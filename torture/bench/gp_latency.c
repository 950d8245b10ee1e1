/* SPDX-License-Identifier: MIT */
/*
 * gp_latency.c - grace-period latency and CPU cost, through the torture
 * ops table (so any torture type can be measured): with one busy reader
 * (a registered thread in back-to-back short read-side sections), the
 * main thread waits for N grace periods of each primitive and prints one
 * JSON line per type and primitive:
 *
 *   {"bench":"gp_latency","type":"rcu","primitive":"exp_sync","readers":1,
 *    "n":2000,"median_us":..,"p90_us":..,"p99_us":..,"mean_us":..,
 *    "updater_cpu_us":..,"reader_mreads_per_s":..}
 *
 * updater_cpu_us is the CPU time per grace period of everything but the
 * reader (the caller and the RCU's own threads); reader_mreads_per_s shows
 * what the grace periods cost the reader.  Rounds alternate the types and
 * primitives so that a change in the machine's load hits all of them.
 * A "membarrier" line gives the floor: one membarrier() with the reader
 * running; a "context" line the CPUs and the load average (the figures
 * mean little on a busy machine, where the reader is often not running).  The last line compares our expedited grace period with
 * liburcu-memb's synchronize_rcu() and with our normal one (the issue's
 * targets: at most 1/2 and 1/10).
 *
 * usage: gp_latency [n=N] [rounds=R] [types=rcu,urcu-memb]
 * (library parameters through RCU_BOOTARGS).  Built by make as
 * $(BUILD)/bench/gp_latency; not run by make check.
 */
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <torture/ops.h>
#include "../ops/builtin.h"

#define MAX_SAMPLES	100000
#define MAX_RUNS	8

struct run {
	const struct torture_ops *ops;
	const char *prim;
	void (*wait)(void);
	double *lat;		/* microseconds */
	size_t n;
	double updater_cpu_s, reader_reads, wall_s;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------ */
/* The busy reader */

struct reader {
	const struct torture_ops *ops;
	pthread_t t;
	int started, stop;
	unsigned long reads;	/* atomic: sampled by the main thread */
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	volatile int spin;
	int idx, i;

	if (r->ops->thread_register && r->ops->thread_register())
		exit(3);
	__atomic_store_n(&r->started, 1, __ATOMIC_RELEASE);	/* registered */
	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		idx = r->ops->readlock();
		for (i = 0, spin = 0; i < 50; i++)
			spin += i;	/* a short section */
		r->ops->readunlock(idx);
		if (r->ops->flags & TORTURE_OPS_QSBR)
			r->ops->quiescent_state();
		/* Relaxed: a counter the main thread samples. */
		__atomic_store_n(&r->reads, r->reads + 1, __ATOMIC_RELAXED);
	}
	if (r->ops->thread_unregister)
		r->ops->thread_unregister();
	return NULL;
}

static void reader_start(struct reader *r, const struct torture_ops *ops)
{
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	if (pthread_create(&r->t, NULL, reader_main, r))
		exit(3);
	while (!__atomic_load_n(&r->started, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void reader_stop(struct reader *r)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);	/* pairs with the loop */
	pthread_join(r->t, NULL);
}

/* ------------------------------------------------------------------ */
/* Measuring */

static const struct torture_ops *cur;
static void call_sync(void) { cur->sync(); }
static void call_exp(void) { cur->exp_sync(); }

static void measure(struct run *ru, struct reader *rd, size_t n)
{
	clockid_t rclk;
	double p0, r0, w0, a;
	unsigned long reads0;
	size_t i;

	cur = ru->ops;
	for (i = 0; i < 20; i++)	/* warm up */
		ru->wait();
	pthread_getcpuclockid(rd->t, &rclk);
	reads0 = __atomic_load_n(&rd->reads, __ATOMIC_RELAXED);	/* a sample */
	p0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	r0 = clock_s(rclk);
	w0 = now_s();
	for (i = 0; i < n && ru->n < MAX_SAMPLES; i++) {
		a = now_s();
		ru->wait();
		ru->lat[ru->n++] = (now_s() - a) * 1e6;
	}
	ru->wall_s += now_s() - w0;
	ru->updater_cpu_s += (clock_s(CLOCK_PROCESS_CPUTIME_ID) - p0) - (clock_s(rclk) - r0);
	ru->reader_reads += (double)(__atomic_load_n(&rd->reads, __ATOMIC_RELAXED) - reads0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	return n ? v[(size_t)(p * (double)(n - 1))] : 0;
}

static double report(struct run *ru)
{
	double sum = 0, med;
	size_t i;

	qsort(ru->lat, ru->n, sizeof(double), cmp_double);
	for (i = 0; i < ru->n; i++)
		sum += ru->lat[i];
	med = pct(ru->lat, ru->n, 0.5);
	printf("{\"bench\":\"gp_latency\",\"type\":\"%s\",\"primitive\":\"%s\",\"readers\":1,"
	       "\"n\":%zu,\"median_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"mean_us\":%.2f,"
	       "\"updater_cpu_us\":%.2f,\"reader_mreads_per_s\":%.2f}\n",
	       ru->ops->name, ru->prim, ru->n, med, pct(ru->lat, ru->n, 0.9),
	       pct(ru->lat, ru->n, 0.99), ru->n ? sum / (double)ru->n : 0,
	       ru->n ? ru->updater_cpu_s * 1e6 / (double)ru->n : 0,
	       ru->wall_s > 0 ? ru->reader_reads / ru->wall_s / 1e6 : 0);
	return med;
}

/* One membarrier() with a busy reader of our rcu type running. */
static void membarrier_floor(size_t n)
{
	struct reader rd;
	double *v = malloc(n * sizeof(double)), a;
	size_t i;

	if (!v)
		return;
	reader_start(&rd, &rcu_ops);
	for (i = 0; i < n; i++) {
		a = now_s();
		if (syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
			printf("{\"bench\":\"membarrier\",\"error\":\"not available\"}\n");
			break;
		}
		v[i] = (now_s() - a) * 1e6;
	}
	reader_stop(&rd);
	if (i == n) {
		qsort(v, n, sizeof(double), cmp_double);
		printf("{\"bench\":\"membarrier\",\"readers\":1,\"n\":%zu,\"median_us\":%.2f,"
		       "\"p90_us\":%.2f}\n", n, pct(v, n, 0.5), pct(v, n, 0.9));
	}
	free(v);
}

/* What the figures depend on: CPUs, and how busy the machine was. */
static void context_line(void)
{
	double load = -1;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	printf("{\"bench\":\"context\",\"nproc\":%ld,\"loadavg_1min\":%.2f}\n",
	       sysconf(_SC_NPROCESSORS_ONLN), load);
}

static const struct torture_ops *type_named(const char *name)
{
	static const struct torture_ops *const all[] = {
		&rcu_ops, &rcu_bh_ops, &sched_ops,
#ifdef TORTURE_HAVE_LIBURCU
		&liburcu_memb_ops, &liburcu_mb_ops, &liburcu_signal_ops, &liburcu_qsbr_ops,
		&liburcu_bp_ops,
#endif
	};
	size_t i;

	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct run runs[MAX_RUNS];
	size_t n = 2000, rounds = 4, nruns = 0, i, r;
	char types[256] = "rcu,urcu-memb", *tok, *save = NULL;
	double exp_med = 0, normal_med = 0, urcu_med = 0, med;
	struct reader rd;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strncmp(argv[i], "n=", 2))
			n = strtoul(argv[i] + 2, NULL, 0);
		else if (!strncmp(argv[i], "rounds=", 7))
			rounds = strtoul(argv[i] + 7, NULL, 0);
		else if (!strncmp(argv[i], "types=", 6))
			snprintf(types, sizeof(types), "%s", argv[i] + 6);
		else {
			fprintf(stderr, "gp_latency: unknown argument '%s' (n=N rounds=R types=a,b)\n",
				argv[i]);
			return 2;
		}
	}
	if (!n || !rounds || n * rounds > MAX_SAMPLES) {
		fprintf(stderr, "gp_latency: n*rounds must be 1..%d\n", MAX_SAMPLES);
		return 2;
	}
	for (tok = strtok_r(types, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct torture_ops *o = type_named(tok);

		if (!o) {
			fprintf(stderr, "gp_latency: unknown or unbuilt type '%s'\n", tok);
			return 2;
		}
		if (o->init && o->init())
			return 3;
		if (o->sync && nruns < MAX_RUNS)
			runs[nruns++] = (struct run){ .ops = o, .prim = "sync", .wait = call_sync };
		if (o->exp_sync && nruns < MAX_RUNS)
			runs[nruns++] = (struct run){ .ops = o, .prim = "exp_sync", .wait = call_exp };
	}
	for (i = 0; i < nruns; i++)
		if (!(runs[i].lat = malloc(n * rounds * sizeof(double))))
			return 3;
	context_line();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < nruns; i++) {
			reader_start(&rd, runs[i].ops);
			measure(&runs[i], &rd, n);
			reader_stop(&rd);
		}
	}
	membarrier_floor(n);
	for (i = 0; i < nruns; i++) {
		med = report(&runs[i]);
		if (!strcmp(runs[i].ops->name, "rcu"))
			*(strcmp(runs[i].prim, "sync") ? &exp_med : &normal_med) = med;
		else if (!strcmp(runs[i].ops->name, "urcu-memb") && !strcmp(runs[i].prim, "sync"))
			urcu_med = med;
	}
	if (exp_med > 0 && normal_med > 0) {
		printf("{\"bench\":\"gp_latency_summary\",\"exp_vs_normal\":%.3f,"
		       "\"target_exp_vs_normal\":0.1,\"exp_vs_urcu_memb\":", exp_med / normal_med);
		if (urcu_med > 0)
			printf("%.3f", exp_med / urcu_med);
		else
			printf("null");
		printf(",\"target_exp_vs_urcu_memb\":0.5}\n");
	}
	for (i = 0; i < nruns; i++)
		free(runs[i].lat);
	return 0;
}
