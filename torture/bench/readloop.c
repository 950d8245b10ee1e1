/* SPDX-License-Identifier: MIT */
/*
 * readloop.c - the read side as a plain program would have it: one source,
 * built once per flavor (ours through <rcu/rcupdate.h> and librcu.so,
 * liburcu's through <urcu/urcu-FLAVOR.h> with _LGPL_SOURCE and its shared
 * library, Concurrency Kit's ck_epoch and DPDK's rte_rcu_qsbr through
 * their headers and libraries, all with the same plain flags), so that no harness stands
 * between the loop and the figure.  bin/compare-liburcu.sh runs the
 * flavors interleaved, round by round, beside refscale's figures, and
 * says where the two methods disagree.
 *
 *   build/bench/readloop-FLAVOR [seconds [run [pad]]]
 *
 * One registered reader thread (not the main one, as in refscale) times,
 * in its own CPU time, loops of 1024 `lock; p = rcu_dereference(global);
 * check p->field; unlock' (SRCU: the unlock handed what the lock returned;
 * srcu-fast: srcu_read_lock_fast()'s counter), then the same pairs nested inside an outer
 * section, each pass for `seconds' (default 0.3) after a warm-up of a
 * tenth of it, in the copy of the loop that starts `pad' bytes (0, 4, ...,
 * 60) into a 64-byte block (below).  QSBR flavors announce a quiescent state every 1024 pairs
 * outside the nested pass (as refscale's qs_interval).  Prints one JSON
 * line in refscale's shape:
 *   {"kind":"run","prog":"readloop","flavor":"rcu","run":1,
 *    "params":{"updater":0,"pad":0},"figures":{"ns":..,"nested_ns":..,"wall_ns":..}}
 * Exit 1 if a reader saw a wrong value (the check cannot be optimized out).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(RL_URCU_MEMB) || defined(RL_URCU_QSBR)
#define _LGPL_SOURCE
#endif

#if defined(RL_RCU)
#include <rcu/rcupdate.h>
#define RL_NAME		"rcu"
#define rl_register()	rcu_register_thread()
#define rl_unregister()	rcu_unregister_thread()
#define rl_lock()	(rcu_read_lock(), 0)
#define rl_unlock(t)	((void)(t), rcu_read_unlock())
#define rl_qs()		do { } while (0)
#define rl_deref(p)	rcu_dereference(p)
#define rl_assign(p, v)	rcu_assign_pointer(p, v)
#define RL_PTR		__rcu
#elif defined(RL_SRCU) || defined(RL_SRCU_FAST)
#include <rcu/srcu.h>
#ifdef RL_SRCU_FAST
#define RL_NAME		"srcu-fast"
DEFINE_STATIC_SRCU_FAST(rl_srcu);
#define RL_TOK		struct srcu_ctr *
#define rl_lock()	srcu_read_lock_fast(&rl_srcu)
#define rl_unlock(t)	srcu_read_unlock_fast(&rl_srcu, t)
#else
#define RL_NAME		"srcu"
DEFINE_STATIC_SRCU(rl_srcu);
#define rl_lock()	srcu_read_lock(&rl_srcu)
#define rl_unlock(t)	srcu_read_unlock(&rl_srcu, t)
#endif
#define rl_register()	0	/* SRCU readers need no registration */
#define rl_unregister()	do { } while (0)
#define rl_qs()		do { } while (0)
#define rl_deref(p)	srcu_dereference(p, &rl_srcu)
#define rl_assign(p, v)	rcu_assign_pointer(p, v)
#define RL_PTR		__rcu
#elif defined(RL_SCHED) || defined(RL_SCHED_FREE)
#ifdef RL_SCHED_FREE
#define LRCU_SCHED_FREE_MARKERS
#define RL_NAME		"sched-free"
#else
#define RL_NAME		"sched"
#endif
#include <rcu/rcupdate.h>
#define rl_register()	rcu_register_thread()
#define rl_unregister()	rcu_unregister_thread()
#define rl_lock()	(rcu_read_lock_sched(), 0)
#define rl_unlock(t)	((void)(t), rcu_read_unlock_sched())
#define rl_qs()		rcu_quiescent_state()
#define rl_deref(p)	rcu_dereference_sched(p)
#define rl_assign(p, v)	rcu_assign_pointer(p, v)
#define RL_PTR		__rcu
#elif defined(RL_URCU_MEMB)
#include <urcu/urcu-memb.h>
#define RL_NAME		"urcu-memb"
#define rl_register()	(urcu_memb_register_thread(), 0)
#define rl_unregister()	urcu_memb_unregister_thread()
#define rl_lock()	(urcu_memb_read_lock(), 0)
#define rl_unlock(t)	((void)(t), urcu_memb_read_unlock())
#define rl_qs()		do { } while (0)
#define rl_deref(p)	rcu_dereference(p)
#define rl_assign(p, v)	rcu_assign_pointer(p, v)
#define RL_PTR
#elif defined(RL_URCU_QSBR)
#include <urcu/urcu-qsbr.h>
#define RL_NAME		"urcu-qsbr"
#define rl_register()	(urcu_qsbr_register_thread(), 0)
#define rl_unregister()	urcu_qsbr_unregister_thread()
#define rl_lock()	(urcu_qsbr_read_lock(), 0)
#define rl_unlock(t)	((void)(t), urcu_qsbr_read_unlock())
#define rl_qs()		urcu_qsbr_quiescent_state()
#define rl_deref(p)	rcu_dereference(p)
#define rl_assign(p, v)	rcu_assign_pointer(p, v)
#define RL_PTR
#elif defined(RL_CK_EPOCH)
#include <stdbool.h>
#include <ck_epoch.h>
#define RL_NAME		"ck-epoch"
static ck_epoch_t rl_epoch;
static __thread ck_epoch_record_t rl_record;
#define rl_register()	(ck_epoch_register(&rl_epoch, &rl_record, NULL), 0)
#define rl_unregister()	ck_epoch_unregister(&rl_record)
#define rl_lock()	(ck_epoch_begin(&rl_record, NULL), 0)
#define rl_unlock(t)	((void)(t), ck_epoch_end(&rl_record, NULL))
#define rl_qs()		do { } while (0)
#define rl_deref(p)	((struct rl_obj *)ck_pr_load_ptr(&(p)))
#define rl_assign(p, v)	(ck_epoch_init(&rl_epoch), ck_pr_fence_store(), ck_pr_store_ptr(&(p), (v)))
#define RL_PTR
#elif defined(RL_DPDK_QSBR)
#include <rte_rcu_qsbr.h>
#define RL_NAME		"dpdk-qsbr"
static struct rte_rcu_qsbr *rl_v;
#define rl_register()	(rte_rcu_qsbr_thread_register(rl_v, 0) ? -1 : \
			 (rte_rcu_qsbr_thread_online(rl_v, 0), 0))
#define rl_unregister()	(rte_rcu_qsbr_thread_offline(rl_v, 0), \
			 (void)rte_rcu_qsbr_thread_unregister(rl_v, 0))
#define rl_lock()	(rte_rcu_qsbr_lock(rl_v, 0), 0)
#define rl_unlock(t)	((void)(t), rte_rcu_qsbr_unlock(rl_v, 0))
#define rl_qs()		rte_rcu_qsbr_quiescent(rl_v, 0)
/* DPDK has no rcu_dereference(): a once-load (the address dependency
 * orders what follows). */
#define rl_deref(p)	(*(struct rl_obj *volatile *)&(p))
/* The QS variable first, one thread; main() stores before the reader
 * thread exists (pthread_create() orders it). */
#define rl_assign(p, v)	((rl_v = aligned_alloc(64, rte_rcu_qsbr_get_memsize(1))), \
			 (void)rte_rcu_qsbr_init(rl_v, 1), (p) = (v))
#define RL_PTR
#else
#error "build with one of -DRL_RCU, -DRL_SCHED, -DRL_SCHED_FREE, -DRL_SRCU, -DRL_SRCU_FAST, -DRL_URCU_MEMB, -DRL_URCU_QSBR, -DRL_CK_EPOCH, -DRL_DPDK_QSBR"
#endif

/* What rl_lock() returns and rl_unlock() takes back. */
#ifndef RL_TOK
#define RL_TOK		int
#endif

#define RL_MAGIC	0x5ca1ab1eL
#define RL_CHUNK	1024

struct rl_obj {
	long field;
};

static struct rl_obj *RL_PTR global;
static double seconds = 0.3;
static int bad;

static double rl_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* RL_CHUNK pairs; returns how many saw a wrong value. */
static inline __attribute__((always_inline)) long chunk(void)
{
	long i, wrong = 0;

	for (i = 0; i < RL_CHUNK; i++) {
		RL_TOK t = rl_lock();
		struct rl_obj *p = rl_deref(global);

		wrong += p->field != RL_MAGIC;
		rl_unlock(t);
	}
	return wrong;
}

/* Chunks for `secs' of this thread's CPU time (nested: inside one outer
 * section, no quiescent state); ns per pair, in CPU and wall time. */
static inline __attribute__((always_inline)) void
pass(int nested, double secs, double *cpu_ns, double *wall_ns)
{
	double c0 = rl_ns(CLOCK_THREAD_CPUTIME_ID), w0 = rl_ns(CLOCK_MONOTONIC), c;
	long pairs = 0, wrong = 0;
	RL_TOK outer = 0;
	int k;

	if (nested)
		outer = rl_lock();
	do {
		for (k = 0; k < 64; k++) {
			wrong += chunk();
			if (!nested)
				rl_qs();
		}
		pairs += 64L * RL_CHUNK;
		c = rl_ns(CLOCK_THREAD_CPUTIME_ID);
	} while (c - c0 < secs * 1e9);
	if (nested)
		rl_unlock(outer);
	if (!nested)
		rl_qs();
	*cpu_ns = (c - c0) / (double)pairs;
	*wall_ns = (rl_ns(CLOCK_MONOTONIC) - w0) / (double)pairs;
	bad += wrong != 0;
}

/*
 * The same pass at 16 places in the 64-byte blocks the CPU fetches: each
 * copy starts a block and puts `pad' bytes of no-ops (0, 4, ..., 60)
 * before the pass, so that its loop, wherever GCC aligns it, falls at
 * every 4-byte step of a block.  A loop this short costs up to 2x more or
 * less by where it falls and by how its branches share blocks (liburcu-qsbr's
 * pair: 0.43 to 1.4 ns on an AMD EPYC, 2026-12-07), for either side:
 * bin/compare-liburcu.sh runs all 16 and pools them.  (Four copies, 16
 * bytes apart, put a flavor's loop at one residue mod 16 only; two runs
 * minutes apart then gave sched/urcu-qsbr 1.66x and 1.94x, where 16
 * copies gave 1.60x and 1.65x.)
 */
#define RL_PASS_AT(pad)							\
static __attribute__((noinline, aligned(64))) void			\
pass_at_##pad(int nested, double secs, double *cpu_ns, double *wall_ns) \
{									\
	__asm__ __volatile__(".if " #pad "\n.skip " #pad ", 0x90\n.endif"); \
	pass(nested, secs, cpu_ns, wall_ns);				\
}
RL_PASS_AT(0) RL_PASS_AT(4) RL_PASS_AT(8) RL_PASS_AT(12)
RL_PASS_AT(16) RL_PASS_AT(20) RL_PASS_AT(24) RL_PASS_AT(28)
RL_PASS_AT(32) RL_PASS_AT(36) RL_PASS_AT(40) RL_PASS_AT(44)
RL_PASS_AT(48) RL_PASS_AT(52) RL_PASS_AT(56) RL_PASS_AT(60)

typedef void rl_pass_fn(int nested, double secs, double *cpu_ns, double *wall_ns);
static rl_pass_fn *const passes[] = {
	pass_at_0, pass_at_4, pass_at_8, pass_at_12, pass_at_16, pass_at_20, pass_at_24, pass_at_28,
	pass_at_32, pass_at_36, pass_at_40, pass_at_44, pass_at_48, pass_at_52, pass_at_56, pass_at_60,
};
#define RL_NPADS	(int)(sizeof(passes) / sizeof(passes[0]))
static int layout;		/* index in passes[]: pad / 4 */

static double fig[3];	/* ns, nested_ns, wall_ns */

static void *reader(void *arg)
{
	rl_pass_fn *run = passes[layout];
	double unused;

	(void)arg;
	if (rl_register()) {
		perror("readloop: register");
		exit(2);
	}
	run(0, seconds / 10, &unused, &unused);	/* warm-up */
	run(0, seconds, &fig[0], &fig[2]);
	run(1, seconds / 10, &unused, &unused);
	run(1, seconds, &fig[1], &unused);
	rl_unregister();
	return NULL;
}

int main(int argc, char **argv)
{
	struct rl_obj *o = malloc(sizeof(*o));
	long run = argc > 2 ? atol(argv[2]) : 1, pad = argc > 3 ? atol(argv[3]) : 0;
	pthread_t t;

	if (argc > 1)
		seconds = atof(argv[1]);
	layout = (int)(pad / 4);
	if (!o || seconds <= 0 || seconds > 60 || run < 1 || pad < 0 || pad % 4 || layout >= RL_NPADS) {
		fprintf(stderr, "usage: %s [seconds (0-60, default 0.3) [run (1..) [pad (0, 4, ..., 60)]]]\n",
			argv[0]);
		return 2;
	}
	o->field = RL_MAGIC;
	rl_assign(global, o);
	if (pthread_create(&t, NULL, reader, NULL) || pthread_join(t, NULL)) {
		perror("readloop: pthread");
		return 2;
	}
	printf("{\"kind\":\"run\",\"prog\":\"readloop\",\"flavor\":\"%s\",\"run\":%ld,"
	       "\"params\":{\"updater\":0,\"pad\":%ld},\"figures\":{\"ns\":%.4f,"
	       "\"nested_ns\":%.4f,\"wall_ns\":%.4f}}\n", RL_NAME, run, pad, fig[0], fig[1], fig[2]);
	if (bad)
		fprintf(stderr, "readloop: %s: a reader saw a wrong value\n", RL_NAME);
	return bad ? 1 : 0;
}
