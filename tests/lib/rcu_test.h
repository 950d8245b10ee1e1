/* SPDX-License-Identifier: MIT */
/*
 * rcu_test.h - helpers shared by the library tests.
 *
 * The library's geometry and parameters are fixed when it starts, and some
 * tests check behaviour that ends the process (a detected deadlock aborts).
 * Such cases run in a fresh copy of the test program: run_self() re-executes
 * /proc/self/exe with a mode argument and an RCU_BOOTARGS value, capturing
 * its output, and the test's main() dispatches on the mode.
 */
#ifndef TESTS_RCU_TEST_H
#define TESTS_RCU_TEST_H

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <rcu/kernel.h>	/* the tests use the kernel's spellings */
#include <rcu/rcupdate.h>
#include <torture/proc_threads.h>	/* thread_switches(), thread_cpu_ns() */
#include "tap.h"

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Wait until *flag becomes nonzero; false after timeout_s (a hang, not a
 * timing verdict: correct code gets there in milliseconds).
 *
 * The hand-off uses the library's helpers (the kernel's spellings), not
 * raw builtins: in the weak-memory build (docs/design/weakmem.md) only
 * they are emulated, and a raw release would let the flag be seen while
 * the library stores before it are still buffered, an order no hardware
 * allows (a reader seen "inside" whose word still says outside).
 */
static inline bool wait_flag(int *flag, double timeout_s)
{
	double end = now_s() + timeout_s;

	while (!smp_load_acquire(flag)) {	/* pairs with set_flag() */
		if (now_s() > end)
			return false;
		sleep_ms(1);
	}
	return true;
}

static inline void set_flag(int *flag)
{
	smp_store_release(flag, 1);	/* pairs with wait_flag() */
}

/*
 * A call whose only way to fail is to hang (synchronize_*() waiting for a
 * thread it must not wait for): arm the watchdog before it and check
 * watchdog_done() after.  If the deadline passes first, the test bails
 * out at once (TAP "Bail out!") instead of waiting for the run-one
 * timeout.
 */
static const char *wd_what;
static long wd_deadline_ms;	/* 0: disarmed */

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static inline void *watchdog_main(void *arg)
{
	(void)arg;
	for (;;) {
		/* Acquire pairs with the release in watchdog_arm(). */
		long d = __atomic_load_n(&wd_deadline_ms, __ATOMIC_ACQUIRE);

		if (d && now_ms() > d) {
			printf("Bail out! %s did not complete in time\n", wd_what);
			fflush(stdout);
			_exit(1);
		}
		sleep_ms(100);
	}
	return NULL;
}

static inline void watchdog_arm(const char *what, int secs)
{
	static pthread_t t;	/* started on first use (tests arm from one thread) */

	wd_what = what;
	/* Release: wd_what is set before the watchdog can see the deadline. */
	__atomic_store_n(&wd_deadline_ms, now_ms() + secs * 1000L, __ATOMIC_RELEASE);
	if (!t)
		pthread_create(&t, NULL, watchdog_main, NULL);
}

/* Disarm; true (the call completed) for the caller's ok(). */
static inline bool watchdog_done(void)
{
	__atomic_store_n(&wd_deadline_ms, 0, __ATOMIC_RELEASE);	/* see watchdog_arm() */
	return true;
}

/*
 * Another thread takes stderr's stdio lock and keeps it: a message written
 * through stdio now blocks (as one from a signal handler would behind the
 * code it interrupted), one written with write(2) gets out.  For a child
 * (run_self()); its alarm ends a child stuck so (SIGALRM).
 */
static inline void *stderr_holder_main(void *arg)
{
	flockfile(stderr);
	set_flag(arg);
	for (;;)
		pause();
	return NULL;
}

static inline void lock_stderr_for_good(void)
{
	static int locked;
	pthread_t t;

	alarm(20);
	pthread_create(&t, NULL, stderr_holder_main, &locked);
	wait_flag(&locked, 20);
}

/* Under a sanitizer everything is several times slower: scale work down. */
static inline int scale(int n)
{
	const char *san = getenv("SAN");

	if (san && *san)
		return n / 4 > 0 ? n / 4 : 1;
	return n;
}

/*
 * Run this program again as `exe mode [arg]` with RCU_BOOTARGS=bootargs
 * (NULL: unset), stdout+stderr captured into buf.  Returns the wait status.
 * posix_spawn(), not fork(): no fork handlers run in this process (the
 * library's park its threads and take all its locks; tests/rcu/fork.c
 * tests those).
 */
extern char **environ;

/*
 * The command that runs this program again: /proc/self/exe, or under an
 * emulator (RCU_TEST_EXEC_WRAPPER="qemu-aarch64 -L /usr/aarch64-linux-gnu",
 * set by tests/lib/qemu-tests: without binfmt_misc the kernel cannot run
 * the guest binary by itself) the emulator with this program's path.
 */
static inline char **self_argv(char **argv, size_t n, char *self, size_t selflen,
			       const char *mode, const char *arg)
{
	static char words[256];
	const char *w = getenv("RCU_TEST_EXEC_WRAPPER");
	size_t i = 0;
	ssize_t got;
	char *save, *tok;

	if (w && *w) {
		snprintf(words, sizeof(words), "%s", w);
		for (tok = strtok_r(words, " ", &save); tok && i + 4 < n;
		     tok = strtok_r(NULL, " ", &save))
			argv[i++] = tok;
		got = readlink("/proc/self/exe", self, selflen - 1);
		self[got > 0 ? got : 0] = '\0';
		argv[i++] = self;
	} else {
		snprintf(self, selflen, "/proc/self/exe");
		argv[i++] = (char *)"child";
	}
	argv[i++] = (char *)mode;
	argv[i++] = (char *)arg;
	argv[i] = NULL;
	return argv;
}

static inline int run_self(const char *mode, const char *arg, const char *bootargs,
			   char *buf, size_t len)
{
	char *argv[16], self[4096];
	char **envp, *boot = NULL;
	posix_spawn_file_actions_t fa;
	int pfd[2], status = 0, n_env = 0, i, j = 0;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	fflush(stdout);
	if (pipe(pfd))
		return -1;
	while (environ[n_env])
		n_env++;
	envp = calloc((size_t)n_env + 2, sizeof(*envp));
	for (i = 0; i < n_env; i++)
		if (strncmp(environ[i], "RCU_BOOTARGS=", 13))
			envp[j++] = environ[i];
	if (bootargs && asprintf(&boot, "RCU_BOOTARGS=%s", bootargs) > 0)
		envp[j++] = boot;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
	self_argv(argv, LRCU_ARRAY_SIZE(argv), self, sizeof(self), mode, arg);
	/* spawnp: the wrapper is found on PATH; /proc/self/exe has a slash. */
	if (posix_spawnp(&pid, strcmp(argv[0], "child") ? argv[0] : self, &fa, NULL, argv, envp))
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	free(boot);
	free(envp);
	close(pfd[1]);
	while (got + 1 < len && (n = read(pfd[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	while (read(pfd[0], &(char){0}, 1) > 0)
		;	/* drain the rest */
	buf[got] = '\0';
	close(pfd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return pid > 0 ? status : -1;
}

static inline bool exited_with(int status, int code)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

static inline bool died_of(int status, int sig)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

/* Print a captured child output as TAP diagnostics. */
static inline void diag_output(const char *buf)
{
	const char *p = buf;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		diag("  | %.*s", n, p);
		p += n + (nl ? 1 : 0);
	}
}

static inline unsigned long gps_completed(enum lrcu_flavor f)
{
	struct lrcu_stats st;

	lrcu_get_stats(f, &st);
	return st.gps_completed;
}

/* Set a parameter at run time (lrcu_param_set()); a rejected one bails out. */
static inline void set_param(const char *name, const char *v)
{
	char err[256];

	if (lrcu_param_set(name, v, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		exit(1);
	}
}

/* A thread that registers, runs fn, and unregisters. */
struct reg_thread {
	pthread_t tid;
	void (*fn)(void *);
	void *arg;
};

static inline void *reg_thread_main(void *p)
{
	struct reg_thread *t = p;

	if (rcu_register_thread())
		abort();
	t->fn(t->arg);
	rcu_unregister_thread();
	return NULL;
}

static inline void reg_thread_start(struct reg_thread *t, void (*fn)(void *), void *arg)
{
	t->fn = fn;
	t->arg = arg;
	if (pthread_create(&t->tid, NULL, reg_thread_main, t))
		abort();
}

static inline void reg_thread_join(struct reg_thread *t)
{
	pthread_join(t->tid, NULL);
}

/*
 * Context switches so far of the threads match() accepts.  The library's
 * threads sleep when nothing is to be done: an idle process shows none
 * over a window.
 */
static inline long thread_switches(bool (*match)(long tid, const char *comm), int *nthreads)
{
	return proc_threads_sum(match, proc_task_switches, nthreads);
}

/* CPU time so far (ns) of the threads match() accepts. */
static inline long thread_cpu_ns(bool (*match)(long tid, const char *comm), int *nthreads)
{
	return proc_threads_sum(match, proc_task_cpu_ns, nthreads);
}

#endif /* TESTS_RCU_TEST_H */
