/* SPDX-License-Identifier: MIT */
/*
 * srcu_read.c - read-side cost, side by side in one run: ns per
 * srcu_read_lock() + srcu_dereference() + srcu_read_unlock() (a
 * DEFINE_SRCU() domain, an init_srcu_struct() one, srcu_read_lock_nmisafe()),
 * per rcu_read_lock() + rcu_dereference() + rcu_read_unlock() of our rcu
 * flavor and, when built with liburcu-dev, of liburcu-memb.  One JSON line
 * per flavor, then one with the SRCU/rcu ratio (the target is at most 2).
 *
 *   build/bench/srcu_read [ITERATIONS [ROUNDS]]    (default 5000000 11)
 *
 * Each figure is the best of ROUNDS runs of ITERATIONS reads (the least
 * disturbed by other load; the rounds interleave the flavors), on one
 * thread, with the library's membarrier setting as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <rcu/srcu.h>
#include "bench.h"

DEFINE_STATIC_SRCU(bench_ss);
static struct srcu_struct bench_dyn;
static int val = 1;
static int *__rcu gp = &val;
static long sink;

double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

enum kind { K_SRCU, K_NMISAFE, K_RCU };

/* ns per read of one run of iters reads. */
static double run_once(enum kind k, struct srcu_struct *ssp, long iters)
{
	double t0 = bench_now_ns();
	long i, s = 0;

	switch (k) {
	case K_SRCU:
		for (i = 0; i < iters; i++) {
			int idx = srcu_read_lock(ssp);

			s += *srcu_dereference(gp, ssp);
			srcu_read_unlock(ssp, idx);
		}
		break;
	case K_NMISAFE:
		for (i = 0; i < iters; i++) {
			int idx = srcu_read_lock_nmisafe(ssp);

			s += *srcu_dereference(gp, ssp);
			srcu_read_unlock_nmisafe(ssp, idx);
		}
		break;
	case K_RCU:
		for (i = 0; i < iters; i++) {
			rcu_read_lock();
			s += *rcu_dereference(gp);
			rcu_read_unlock();
		}
		break;
	}
	__atomic_store_n(&sink, s, __ATOMIC_RELAXED);	/* keep the loop */
	return (bench_now_ns() - t0) / (double)iters;
}

static void keep_min(double *best, double v, int round)
{
	if (!round || v < *best)
		*best = v;
}

static void line(const char *flavor, double ns, long iters, int rounds)
{
	printf("{\"bench\":\"read_side\",\"flavor\":\"%s\",\"ns_per_read\":%.3f,"
	       "\"iterations\":%ld,\"rounds\":%d,\"threads\":1,\"membarrier\":%d}\n",
	       flavor, ns, iters, rounds, __atomic_load_n(&lrcu_has_membarrier, __ATOMIC_RELAXED));
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 5000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 11;
	double srcu = 0, dyn = 0, nmi = 0, rcu = 0, urcu = 0;
	int r;

	if (iters <= 0 || rounds <= 0) {
		fprintf(stderr, "usage: %s [ITERATIONS [ROUNDS]] (both > 0)\n", argv[0]);
		return 2;
	}
	if (lrcu_init() || rcu_register_thread() || init_srcu_struct(&bench_dyn))
		return 3;
	/* Rounds interleave the flavors, so that a burst of other load on
	 * the machine hits them all alike; each keeps its best round. */
	for (r = 0; r < rounds; r++) {
		keep_min(&srcu, run_once(K_SRCU, &bench_ss, iters), r);
		keep_min(&dyn, run_once(K_SRCU, &bench_dyn, iters), r);
		keep_min(&nmi, run_once(K_NMISAFE, &bench_ss, iters), r);
		keep_min(&rcu, run_once(K_RCU, NULL, iters), r);
#ifdef BENCH_HAVE_LIBURCU
		keep_min(&urcu, bench_urcu_memb(iters), r);
#endif
	}
	line("srcu", srcu, iters, rounds);
	line("srcu-dynamic", dyn, iters, rounds);
	line("srcu-nmisafe", nmi, iters, rounds);
	line("rcu", rcu, iters, rounds);
#ifdef BENCH_HAVE_LIBURCU
	line("urcu-memb", urcu, iters, rounds);
#else
	(void)urcu;
	printf("{\"bench\":\"read_side\",\"flavor\":\"urcu-memb\",\"skipped\":\"liburcu-dev "
	       "not installed\"}\n");
#endif
	printf("{\"bench\":\"read_side\",\"ratio_srcu_vs_rcu\":%.2f,\"target_max\":2}\n",
	       srcu / rcu);
	rcu_unregister_thread();
	cleanup_srcu_struct(&bench_dyn);
	return 0;
}
