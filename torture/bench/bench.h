/* SPDX-License-Identifier: MIT */
/* bench.h - what the benchmark's translation units share. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

/* liburcu-memb (its own translation unit: its names clash with ours):
 * ns per urcu_memb_read_lock() + rcu_dereference() + urcu_memb_read_unlock()
 * in one run of `iters' reads. */
double bench_urcu_memb(long iters);
double bench_now_ns(void);

/* idle_wakeups: context switches of every thread but the caller (the
 * main one); sleep until *t + period (absolute, *t advanced). */
#include <time.h>
long bench_other_threads_switches(int *nthreads);
void bench_sleep_until(struct timespec *t, double period_s);
/* idle_wakeups_urcu.c (stubs without liburcu-dev). */
int bench_urcu_child(double rate, double secs);
int bench_have_liburcu(void);

#endif
