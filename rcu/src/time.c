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

/*
 * The kernel's jiffies: CLOCK_MONOTONIC_COARSE, the time of the last
 * tick (a few ms of resolution), never ahead of lrcu__now_us().  A tenth
 * of its cost (3 ns against 25 here), which counts where every grace
 * period reads it twice (its start and end, for stall warnings and the
 * longest-grace-period statistic, which the kernel keeps in jiffies too).
 */
unsigned long lrcu__now_coarse_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (unsigned long)ts.tv_sec * 1000000UL + (unsigned long)ts.tv_nsec / 1000;
}

void lrcu__sleep_us(unsigned long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wake words.  A word counts wakeups in steps of 2; bit 0 says that a
 * thread may be asleep on it.  A waiter samples the word, checks its
 * condition, and sleeps only if it can set bit 0 on the value it sampled;
 * a waker bumps the word (clearing the bit) after changing the condition
 * and enters the kernel only if the bit was set.  Both steps are
 * read-modify-writes of the one word, so its modification order decides:
 * a bump after the sample makes the waiter's setting fail (it re-checks),
 * and a bump after the setting sees the bit (the futex wait then returns
 * or is woken).  A wakeup that finds no sleeper (a driver polling for a
 * holdout's report, say) costs the waker no system call.
 */
#define WAKE_SLEEPER	1u
#define WAKE_STEP	2u

static void futex_wake(uint32_t *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/*
 * Sleep while *word == val (a sample the caller took before checking its
 * condition), at most timeout_us (< 0: no limit).  Spurious returns are
 * fine: every caller re-checks its condition.
 */
void lrcu__futex_wait(uint32_t *word, uint32_t val, long timeout_us)
{
	struct timespec ts, *tsp = NULL;
	uint32_t want = val | WAKE_SLEEPER;

	/* Seq_cst: pairs with lrcu__wake()'s exchange (one word: see above). */
	if (val != want &&
	    !try_cmpxchg(word, &val, want))
		return;	/* bumped since the sample */
	if (timeout_us >= 0) {
		ts.tv_sec = timeout_us / 1000000;
		ts.tv_nsec = (timeout_us % 1000000) * 1000;
		tsp = &ts;
	}
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, want, tsp, NULL, 0);
}

/* Has *word been bumped since the sample val (the sleeper bit aside)? */
bool lrcu__woken_since(uint32_t *word, uint32_t val)
{
	/* Acquire: pairs with lrcu__wake()'s exchange, which orders the
	 * waker's condition update before the bump. */
	return (smp_load_acquire(word) | WAKE_SLEEPER) != (val | WAKE_SLEEPER);
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

/* A hint to the CPU that we are in a polling loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * Poll cond(arg) up to `polls' times without leaving the CPU (about a
 * microsecond for LRCU_POLLS): for a wait that is usually over before a
 * futex sleep and wakeup would be, and too short to cost a thread we
 * wait for much of its CPU when there are more threads than CPUs.
 */
bool lrcu__poll_briefly(bool (*cond)(void *), void *arg, int polls)
{
	while (polls-- > 0) {
		if (cond(arg))
			return true;
		cpu_relax();
	}
	return cond(arg);
}

/*
 * Bump the word, then wake a sleeper if the word says there may be one
 * (see "Wake words" above).  The seq_cst exchange orders the waker's
 * condition update before the bump; pairs with the waiter's acquire load
 * of the word (its sample) and its exchange in lrcu__futex_wait().
 */
void lrcu__wake(uint32_t *word)
{
	uint32_t old = READ_ONCE(*word);	/* a guess: the CAS checks */

	while (!try_cmpxchg(word, &old, (old + WAKE_STEP) & ~WAKE_SLEEPER))	/* see above */
		;
	if (old & WAKE_SLEEPER)
		futex_wake(word);
}
