/* SPDX-License-Identifier: MIT */
/* bench.h - what the benchmark's translation units share. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

/* liburcu-memb (its own translation unit: its names clash with ours):
 * ns per urcu_memb_read_lock() + rcu_dereference() + urcu_memb_read_unlock()
 * in one run of `iters' reads. */
double bench_urcu_memb(long iters);
double bench_now_ns(void);

#endif
