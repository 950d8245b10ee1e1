/* SPDX-License-Identifier: MIT */
/*
 * nmis.c - rcutorture.test_nmis=N, the kernel's rcutorture_test_nmis():
 * as the test ends, N times, one second apart, the main thread dumps the
 * stack of the thread on the next "CPU" (the kernel: dump_cpu_task(), an
 * NMI backtrace of the task running there).  Here the "CPUs" are the
 * readers' threads, and the interruption is a signal whose handler writes
 * its thread's backtrace to the console: a reader interrupted wherever it
 * is, inside its read-side section or not, which must not disturb it.
 */
#include <errno.h>
#include <execinfo.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "torture.h"

#define DUMP_SIGNAL	(SIGRTMIN + 3)
#define DUMP_DEPTH	32

static int dump_done;	/* set by the handler (atomic) */

static void dump_handler(int sig)
{
	void *frames[DUMP_DEPTH];
	int n, e = errno;

	(void)sig;
	/* Async-signal-safe once warmed up (test_nmis_run()); straight to the
	 * console's descriptor: stdio's lock may be held by this thread. */
	n = backtrace(frames, DUMP_DEPTH);
	backtrace_symbols_fd(frames, n, STDOUT_FILENO);
	smp_store_release(&dump_done, 1);	/* pairs with dump_one()'s acquire */
	errno = e;
}

/* Dump reader r's thread; wait for the handler, at most a second. */
static bool dump_one(struct torture_reader *r, int cpu, int dumpcpu)
{
	unsigned long t0 = torture_now_us();

	torout(" rcutorture_test_nmis: CPU %d invoking dump_cpu_task(%d)", cpu, dumpcpu);
	WRITE_ONCE(dump_done, 0);
	/* Acquire: pairs with the reader's release of ->started (its ->thread). */
	if (!smp_load_acquire(&r->started) || pthread_kill(r->thread, DUMP_SIGNAL))
		return false;
	/* Acquire: pairs with dump_handler()'s release. */
	while (!smp_load_acquire(&dump_done) && torture_now_us() - t0 < 1000000)
		torture_sleep_us(1000);
	return READ_ONCE(dump_done);
}

void test_nmis_run(void)
{
	struct sigaction sa;
	void *warm[1];
	long i, n = torture_nreaders();
	int cpu = sched_getcpu();

	if (tp.test_nmis <= 0 || n <= 0)
		return;
	backtrace(warm, 1);	/* loads what backtrace() needs, outside the handler */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = dump_handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(DUMP_SIGNAL, &sa, NULL);
	for (i = 0; i < tp.test_nmis; i++) {
		int dumpcpu = (int)((i + 1) % n);

		if (i)
			torture_sleep_us(1000000);
		if (dump_one(&torture_readers[dumpcpu], cpu, dumpcpu))
			STAT_INC(tc.nmi_dumps);
		else
			torout(" rcutorture_test_nmis: reader %d did not answer", dumpcpu);
	}
}
