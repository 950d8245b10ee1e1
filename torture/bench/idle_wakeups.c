/* SPDX-License-Identifier: MIT */
/*
 * idle_wakeups.c - how often an otherwise idle program's RCU threads wake
 * while it frees an object now and then: the cost of callbacks in energy.
 *
 * For each rate (callbacks per second) and mode, a fresh process (this
 * program again, so that each starts its RCU from nothing) has its main
 * thread queue one callback every 1/rate s for `seconds' s, and sums the
 * context switches (voluntary and not, /proc/self/task/N/status) of every
 * other thread of the process over that window: the library's threads, or
 * liburcu's call_rcu worker.  Modes:
 *
 *   lazy        kfree_rcu(): lazy callbacks, grace periods batched
 *               (rcutree.jiffies_lazy_flush, 10 s)
 *   hurry       call_rcu_hurry(): a grace period per callback
 *   lazy-nocb   lazy, with the main thread's "CPU" offloaded
 *               (rcu_nocbs=all: rcuog/rcuop threads)
 *   hurry-nocb  the same, not lazy
 *   liburcu     liburcu-memb's call_rcu() (its worker sleeps 10 ms after
 *               each batch), when liburcu-dev is installed
 *
 * Each prints one JSON line; then, per rate, the ratios the issue sets a
 * target for (lazy at most 1/10 of liburcu's wakeups):
 *
 *   {"bench":"idle_wakeups","mode":"lazy","rate_per_s":10,"seconds":5,
 *    "callbacks":50,"threads":4,"wakeups":3,"wakeups_per_s":0.6,
 *    "grace_periods":1,"all_invoked":true}
 *   {"bench":"idle_wakeups","rate_per_s":10,"lazy_vs_liburcu":0.02,
 *    "lazy_nocb_vs_liburcu":0.03,"hurry_vs_liburcu":1.4,"target_max":0.1,
 *    "target_met":true}
 *
 * usage: idle_wakeups [seconds=S] [rates=R1,R2...] [modes=M1,M2...]
 * (defaults 20, 1,10, all).  Built by make as $(BUILD)/bench/idle_wakeups;
 * not run by make check (a measurement, not a test).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <rcu/rcupdate.h>
#include <rcu/rcutree.h>
#include <rcu/kernel.h>	/* container_of() */
#include <torture/proc_threads.h>
#include "bench.h"

#define MAX_RATES	8

static const char *const all_modes[] = { "lazy", "hurry", "lazy-nocb", "hurry-nocb", "liburcu" };
#define NMODES	(sizeof(all_modes) / sizeof(all_modes[0]))

/* ------------------------------------------------------------------ */
/* The measured process */

static bool not_main(long tid, const char *comm)
{
	(void)comm;
	return tid != (long)getpid();
}

/* Context switches of every thread but the main one (the caller). */
long bench_other_threads_switches(int *nthreads)
{
	return proc_threads_sum(not_main, proc_task_switches, nthreads);
}

void bench_sleep_until(struct timespec *t, double period_s)
{
	long ns = (long)(period_s * 1e9);

	t->tv_nsec += ns % 1000000000L;
	t->tv_sec += ns / 1000000000L + t->tv_nsec / 1000000000L;
	t->tv_nsec %= 1000000000L;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

struct kobj {
	long payload[4];
	struct rcu_head rh;
};

static void free_cb(struct rcu_head *rh)
{
	free(container_of(rh, struct kobj, rh));
}

static unsigned long invoked_so_far(void)
{
	struct lrcu_stats st;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	return st.cbs_invoked;
}

static unsigned long gps_so_far(void)
{
	struct lrcu_stats st;

	lrcu_get_stats(LRCU_PREEMPT, &st);
	return st.gps_completed;
}

/* Ours: one callback every 1/rate s for `secs' s, from a registered thread. */
static int child_ours(const char *mode, double rate, double secs)
{
	bool lazy = !strncmp(mode, "lazy", 4);
	unsigned long inv0, gp0;
	long n = (long)(rate * secs + 0.5), i, w0, w1;
	struct timespec t;
	int nthreads;

	if (lrcu_init() || rcu_register_thread())
		return 3;
	usleep(300000);		/* its threads started and asleep */
	inv0 = invoked_so_far();
	gp0 = gps_so_far();
	w0 = bench_other_threads_switches(&nthreads);
	clock_gettime(CLOCK_MONOTONIC, &t);
	for (i = 0; i < n; i++) {
		struct kobj *k = malloc(sizeof(*k));

		if (lazy)
			kfree_rcu(k, rh);
		else
			call_rcu_hurry(&k->rh, free_cb);
		bench_sleep_until(&t, 1 / rate);
	}
	w1 = bench_other_threads_switches(&nthreads);
	gp0 = gps_so_far() - gp0;
	rcu_barrier();
	printf("{\"bench\":\"idle_wakeups\",\"mode\":\"%s\",\"rate_per_s\":%g,\"seconds\":%g,"
	       "\"callbacks\":%ld,\"threads\":%d,\"wakeups\":%ld,\"wakeups_per_s\":%.2f,"
	       "\"grace_periods\":%lu,\"all_invoked\":%s}\n", mode, rate, secs, n, nthreads,
	       w1 - w0, (double)(w1 - w0) / secs, gp0,
	       invoked_so_far() - inv0 == (unsigned long)n ? "true" : "false");
	rcu_unregister_thread();
	return 0;
}

/* ------------------------------------------------------------------ */
/* The driver */

static void usage(void)
{
	fprintf(stderr, "usage: idle_wakeups [seconds=S] [rates=R1,R2...] [modes=M1,M2...]\n"
		"  modes: lazy hurry lazy-nocb hurry-nocb liburcu\n");
	exit(2);
}

static double parse_pos(const char *arg, const char *v)
{
	char *end;
	double x = strtod(v, &end);

	if (end == v || *end || !(x > 0) || x > 1e6) {
		fprintf(stderr, "idle_wakeups: %s: expected a number above 0\n", arg);
		exit(2);
	}
	return x;
}

static bool mode_known(const char *m)
{
	size_t i;

	for (i = 0; i < NMODES; i++)
		if (!strcmp(m, all_modes[i]))
			return true;
	return false;
}

/* Run one measurement in a fresh process; its line is echoed and its
 * wakeups per second returned (-1: none). */
static double measure(const char *exe, const char *mode, double rate, double secs)
{
	char cmd[PATH_MAX + 128], line[1024];
	double w = -1;
	const char *p;
	FILE *f;

	if (strstr(mode, "nocb"))
		setenv("RCU_BOOTARGS", "nr_cpus=4 rcu_nocbs=all", 1);
	else
		setenv("RCU_BOOTARGS", "nr_cpus=4", 1);
	snprintf(cmd, sizeof(cmd), "'%s' child %s %g %g", exe, mode, rate, secs);
	fflush(stdout);
	if (!(f = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		if ((p = strstr(line, "\"wakeups_per_s\":")))
			w = atof(p + 16);
	}
	pclose(f);
	return w;
}

static void ratio(const char *name, double a, double b, bool *first)
{
	if (a < 0 || b <= 0)
		printf("%s\"%s\":null", *first ? "" : ",", name);
	else
		printf("%s\"%s\":%.3f", *first ? "" : ",", name, a / b);
	*first = false;
}

int main(int argc, char **argv)
{
	double secs = 20, rates[MAX_RATES] = { 1, 10 }, w[MAX_RATES][NMODES];
	const char *modes[NMODES];
	char exe[PATH_MAX];
	int nrates = 2, nmodes = 0, i, r, m;
	ssize_t len;

	if (argc == 5 && !strcmp(argv[1], "child")) {
		if (!strcmp(argv[2], "liburcu"))
			return bench_urcu_child(atof(argv[3]), atof(argv[4]));
		return child_ours(argv[2], atof(argv[3]), atof(argv[4]));
	}
	for (i = 1; i < argc; i++) {
		char *v = strchr(argv[i], '='), *tok, *save = NULL;

		if (!v)
			usage();
		*v++ = '\0';
		if (!strcmp(argv[i], "seconds")) {
			secs = parse_pos("seconds", v);
		} else if (!strcmp(argv[i], "rates")) {
			for (nrates = 0, tok = strtok_r(v, ",", &save); tok && nrates < MAX_RATES;
			     tok = strtok_r(NULL, ",", &save))
				rates[nrates++] = parse_pos("rates", tok);
		} else if (!strcmp(argv[i], "modes")) {
			for (tok = strtok_r(v, ",", &save); tok && nmodes < (int)NMODES;
			     tok = strtok_r(NULL, ",", &save)) {
				if (!mode_known(tok)) {
					fprintf(stderr, "idle_wakeups: modes: unknown mode '%s'\n", tok);
					return 2;
				}
				modes[nmodes++] = tok;
			}
		} else {
			usage();
		}
	}
	if (!nmodes)
		for (m = 0; m < (int)NMODES; m++)
			modes[nmodes++] = all_modes[m];
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return 3;
	exe[len] = '\0';
	for (r = 0; r < nrates; r++) {
		bool first = true;
		double lz = -1, lzn = -1, hu = -1, lu = -1;

		for (m = 0; m < nmodes; m++) {
			if (!strcmp(modes[m], "liburcu") && !bench_have_liburcu()) {
				printf("{\"bench\":\"idle_wakeups\",\"mode\":\"liburcu\",\"skipped\":"
				       "\"not built: install liburcu-dev (and rebuild)\"}\n");
				w[r][m] = -1;
				continue;
			}
			w[r][m] = measure(exe, modes[m], rates[r], secs);
			lz = !strcmp(modes[m], "lazy") ? w[r][m] : lz;
			lzn = !strcmp(modes[m], "lazy-nocb") ? w[r][m] : lzn;
			hu = !strcmp(modes[m], "hurry") ? w[r][m] : hu;
			lu = !strcmp(modes[m], "liburcu") ? w[r][m] : lu;
		}
		printf("{\"bench\":\"idle_wakeups\",\"rate_per_s\":%g,", rates[r]);
		ratio("lazy_vs_liburcu", lz, lu, &first);
		ratio("lazy_nocb_vs_liburcu", lzn, lu, &first);
		ratio("hurry_vs_liburcu", hu, lu, &first);
		printf(",\"target_max\":0.1,\"target_met\":%s}\n",
		       lz >= 0 && lu > 0 ? (lz / lu <= 0.1 && (lzn < 0 || lzn / lu <= 0.1) ?
					    "true" : "false") : "null");
	}
	return 0;
}
