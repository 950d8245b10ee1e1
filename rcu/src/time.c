/* SPDX-License-Identifier: MIT */
/*
 * time.c - clocks, sleeps and futex waits.  A jiffy is 1 ms here.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

unsigned long lrcu__now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)ts.tv_sec * 1000000UL + (unsigned long)ts.tv_nsec / 1000;
}

void lrcu__sleep_us(unsigned long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Sleep while *word == val, at most timeout_us (< 0: no limit).  Spurious
 * returns are fine: every caller re-checks its condition.
 */
void lrcu__futex_wait(uint32_t *word, uint32_t val, long timeout_us)
{
	struct timespec ts, *tsp = NULL;

	if (timeout_us >= 0) {
		ts.tv_sec = timeout_us / 1000000;
		ts.tv_nsec = (timeout_us % 1000000) * 1000;
		tsp = &ts;
	}
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, tsp, NULL, 0);
}

void lrcu__futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/*
 * Poll cond(arg) for up to `us' microseconds, yielding the CPU between
 * polls (so that with more threads than CPUs the thread we wait for can
 * run).  A handoff between threads costs an idle-CPU wakeup, often tens
 * of microseconds; a short poll first avoids it when the wait is short,
 * and a long wait still ends up asleep: nothing polls an idle process.
 */
bool lrcu__spin_until(bool (*cond)(void *), void *arg, unsigned long us)
{
	unsigned long t0 = lrcu__now_us();

	do {
		if (cond(arg))
			return true;
		sched_yield();
	} while (lrcu__now_us() - t0 < us);
	return cond(arg);
}

/*
 * Bump the word, then wake.  The waiter samples the word before checking
 * its condition and sleeps only while the word is unchanged, so a wake
 * that follows a condition change is never lost.  The seq_cst increment
 * orders the waker's condition update before the bump; pairs with the
 * waiter's acquire load of the word.
 */
void lrcu__wake(uint32_t *word)
{
	__atomic_fetch_add(word, 1, __ATOMIC_SEQ_CST);
	lrcu__futex_wake(word);
}
