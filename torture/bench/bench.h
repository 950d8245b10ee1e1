/* SPDX-License-Identifier: MIT */
/* bench.h - what the benchmark's translation units share. */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

/* idle_wakeups: context switches of every thread but the caller (the
 * main one); sleep until *t + period (absolute, *t advanced). */
#include <time.h>
long bench_other_threads_switches(int *nthreads);
void bench_sleep_until(struct timespec *t, double period_s);
/* idle_wakeups_urcu.c (stubs without liburcu-dev). */
int bench_urcu_child(double rate, double secs);
int bench_have_liburcu(void);

#endif
