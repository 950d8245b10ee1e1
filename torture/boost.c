/* SPDX-License-Identifier: MIT */
/*
 * boost.c - the priority-boost test (rcutorture.test_boost, the kernel's
 * rcu_torture_boost()): every test_boost_interval seconds, one SCHED_FIFO
 * priority-1 thread per processor this process may use, pinned there,
 * keeps it busy for test_boost_duration seconds, starting polled grace
 * periods back to back.  Ordinary threads -- the readers among them --
 * then never run: a reader preempted inside its section holds up the
 * grace period until the RCU boosts it above priority 1.  A grace period
 * that outlasts test_boost_duration - 0.5 s is a boost failure (rtbf),
 * a failure of the run.
 *
 * When: test_boost=2 always; test_boost=1 (the kernel's default) when the
 * RCU says it boosts (ops->can_boost()).  It needs the polled calls, RCU
 * threads running real-time at priority 2 or more (ops->gp_kthreads_prio():
 * above the hogs, or no grace period could end at all), SCHED_FIFO for
 * the hogs (CAP_SYS_NICE), and real-time throttling off: with the
 * kernel's default (sched_rt_runtime_us=950000) ordinary threads still
 * get 5% of each processor, and a preempted reader finishes its section
 * within a second without any boost, so a busted boost would pass.  The
 * kernel's built-in rcutorture turns throttling off for the run; so does
 * this, when it may write /proc/sys/kernel/sched_rt_runtime_us, and puts
 * it back at the end -- a watcher process (a shell in a session of its
 * own that waits for this process's end on a pipe) puts it back even if
 * this one, or its whole process group, is killed.  Runs
 * beside each other share the setting through a lock file: the last of
 * them to end puts it back (lock_open()).
 * Without SCHED_FIFO (no CAP_SYS_NICE) the run is not made: a skip
 * finding before it starts (boost_refuse(); the scenario is SKIPPED, as a
 * test that needs a missing privilege).  Any other obstacle makes the run
 * INCOMPLETE, naming why (params_unhonour()).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "torture.h"

#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define BOOST_ARM_US	200000	/* boost_hold() starts this early */

static unsigned long boost_starttime_us;	/* next test interval (boost_mutex;
						 * read without: boost_hold()) */
static bool boost_running;			/* the hogs were started */
static int boost_holder;			/* reader id + 1 holding (boost_hold()) */
static pthread_mutex_t boost_mutex = PTHREAD_MUTEX_INITIALIZER;
static int watcher_fd = -1;			/* its pipe; closed: it restores */
static bool throttle_lost;			/* switched back on meanwhile */
static char why_buf[200];			/* a test not run: why */

/* ------------------------------------------------------------------ */
/* Real-time throttling */

static long rt_runtime_read(void)
{
	FILE *f = fopen(RT_RUNTIME, "r");
	long v = -2;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -2;
		fclose(f);
	}
	return v;
}

static bool rt_runtime_write(long v)
{
	FILE *f = fopen(RT_RUNTIME, "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", v) > 0;
	return !fclose(f) && ok;
}

/*
 * Runs beside each other (bin/nightly.sh's slots, two make checks) share
 * the setting: each holds RT_LOCK shared for its run; the one that
 * switches throttling off writes the value it found into RT_LOCK, and the
 * last to end (the one that then gets RT_LOCK exclusively) puts that value
 * back.  RT_LOCK.mutex orders a run's start (read, switch off, take
 * RT_LOCK) against another's end (find itself the last, put back).  A run
 * that ended first would otherwise switch throttling on under the others,
 * whose boost tests then prove nothing.  Only root writes the setting, so
 * only root runs take part (the files are root's, 0644: what RT_LOCK
 * holds goes back into the setting).
 */
#define RT_LOCK_DIR	"/run/lock"
#define RT_LOCK_NAME	"rcutorture-rt-throttle"
static int lock_fd = -1, mutex_fd = -1;
static char lock_path[64], mutex_path[80];

static int lock_file(const char *path)
{
	return open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* false if a root run cannot have the locks (errno says why). */
static bool lock_open(void)
{
	snprintf(lock_path, sizeof(lock_path), "%s/" RT_LOCK_NAME,
		 access(RT_LOCK_DIR, F_OK) ? "/tmp" : RT_LOCK_DIR);
	snprintf(mutex_path, sizeof(mutex_path), "%s.mutex", lock_path);
	if (geteuid() != 0)
		return true;	/* cannot switch it: nothing to share */
	lock_fd = lock_file(lock_path);
	mutex_fd = lock_fd < 0 ? -1 : lock_file(mutex_path);
	if (mutex_fd < 0 || flock(mutex_fd, LOCK_EX)) {
		if (lock_fd >= 0)
			close(lock_fd);
		if (mutex_fd >= 0)
			close(mutex_fd);
		lock_fd = mutex_fd = -1;
		return false;
	}
	return true;
}

/* The value a run switched off, kept in RT_LOCK; -2 if none. */
static long lock_saved(void)
{
	char buf[32];
	ssize_t n = pread(lock_fd, buf, sizeof(buf) - 1, 0);
	char *end;
	long v;

	if (n <= 0)
		return -2;
	buf[n] = 0;
	v = strtol(buf, &end, 10);
	return end != buf && v >= 0 ? v : -2;
}

static void lock_save(long v)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ld\n", v);

	if (ftruncate(lock_fd, 0) || (v >= 0 && pwrite(lock_fd, buf, (size_t)n, 0) != n))
		torout(" rcu_torture_boost: WARN: %s: cannot record sched_rt_runtime_us=%ld",
		       lock_path, v);
}

/* A shell that waits for EOF on its stdin (our end closes when we exit,
 * however), then does what boost_restore() does: if no other run holds
 * RT_LOCK, puts back the value recorded in it if throttling is still off. */
static void watcher_start(void)
{
	char cmd[512];
	char *argv[] = { (char *)"sh", (char *)"-c", cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	int pfd[2];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "cat >/dev/null; exec flock -x %s flock -n -x %s sh -c "
		 "'v=$(cat %s); [ -z \"$v\" ] || [ \"$(cat " RT_RUNTIME ")\" != -1 ] || "
		 "echo \"$v\" > " RT_RUNTIME "; : > %s'",
		 mutex_path, lock_path, lock_path, lock_path);
	if (pipe(pfd))
		return;
	fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[0], 0);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* A session of its own: whatever kills this run's process group
	 * (timeout -s KILL, a cancelled CI job, ^\ at a terminal) leaves it
	 * to do its work. */
	posix_spawnattr_init(&attr);
	/* ... and none of the signals our threads block (main.c's). */
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
	if (posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, NULL))
		close(pfd[1]);
	else
		watcher_fd = pfd[1];
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
}

/* Off for the run; false if it is on and stays on. */
static bool rt_throttle_off(void)
{
	long v;

	if (!lock_open()) {
		/* Without them nothing could put the value back safely. */
		torout(" rcu_torture_boost: WARN: %s: %s: throttling left as it is",
		       lock_path, strerror(errno));
		return rt_runtime_read() == -1;
	}
	v = rt_runtime_read();
	if (lock_fd < 0)	/* not root */
		return v == -1;
	if (v == -2 || (v != -1 && !rt_runtime_write(-1))) {
		boost_restore();	/* drops the locks */
		return false;
	}
	if (v != -1)
		lock_save(v);
	else if (lock_saved() >= 0 && !flock(lock_fd, LOCK_EX | LOCK_NB))
		/* A value recorded, and no run holds RT_LOCK: the run that
		 * recorded it was killed, its watcher too (a cgroup's kill)
		 * or still waiting for the mutex (it will find us holding
		 * RT_LOCK and leave the value to us).  It goes back at our
		 * end; said, for it may override an administrator's -1. */
		torout(" rcu_torture_boost: a run killed earlier left real-time throttling off "
		       "(sched_rt_runtime_us was %ld, recorded in %s): put back at the end",
		       lock_saved(), lock_path);
	if (lock_saved() >= 0)
		watcher_start();	/* someone must put it back */
	flock(lock_fd, LOCK_SH);	/* for the run */
	flock(mutex_fd, LOCK_UN);
	if (v == -1)
		return true;	/* off already: by an administrator, or by a run beside us */
	torout(" rcu_torture_boost: real-time throttling off for the run "
	       "(sched_rt_runtime_us was %ld; put back at the end)", v);
	return true;
}

/* The last run to end puts the recorded value back; the others leave it. */
void boost_restore(void)
{
	long v;

	if (lock_fd < 0)
		return;
	flock(mutex_fd, LOCK_EX);	/* no run starts meanwhile */
	if (!flock(lock_fd, LOCK_EX | LOCK_NB)) {	/* the last one */
		v = lock_saved();
		if (v >= 0 && rt_runtime_read() == -1)
			rt_runtime_write(v);
		lock_save(-2);
	}
	close(lock_fd);
	close(mutex_fd);	/* the locks go with them */
	lock_fd = mutex_fd = -1;
	if (watcher_fd >= 0)
		close(watcher_fd);	/* the watcher finds nothing to do */
	watcher_fd = -1;
}

/* At each test interval: is throttling still off?  Another program (a
 * run beside this one that switched it off first and has ended) may have
 * switched it back on; the rest of the test would then prove nothing. */
static void rt_throttle_check(void)
{
	/* One thread reports it (an ordered RMW: any would do). */
	if (rt_runtime_read() == -1 || xchg(&throttle_lost, true))
		return;
	torout(" rcu_torture_boost: WARN: real-time throttling was switched back on during the run");
	params_unhonour("test_boost", "real-time throttling was switched back on during the run "
			"(by another program)");
}

/* ------------------------------------------------------------------ */
/* The test */

static bool set_fifo(int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	if (!pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return true;
	STAT_INC(tc.boost_rterror);
	return false;
}

/*
 * Has the grace period of gp_state, started at *start, failed to end in
 * time?  The clock first, then the grace period (the kernel's recheck):
 * a thread delayed between the two must not see a grace period that
 * ended meanwhile as failed.
 */
static bool boost_failed(unsigned long gp_state, unsigned long start)
{
	static int dbg_done;
	unsigned long now = torture_now_us();
	unsigned long min_us = (unsigned long)tp.test_boost_duration * 1000000 - 500000;

	if (now - start <= min_us)
		return false;
	smp_mb();	/* the time check before the grace-period check */
	if (cur_ops->poll_gp_state(gp_state))
		return false;	/* passed, if only just */
	if (rt_runtime_read() != -1) {
		/* Throttling came back on during this interval: the hogs and
		 * the boosted reader alike lost their CPUs to ordinary
		 * threads, so the late grace period proves nothing. */
		rt_throttle_check();
		return true;
	}
	torverbose(" rcu_torture_boost boosting failed");
	STAT_INC(tc.boost_failure);
	if (!xchg(&dbg_done, 1)) {	/* one thread dumps (an ordered RMW: any would do) */
		torout(" Boost inversion thread ->rt_priority 1 gp_state %lu jiffies %lu", gp_state,
		       (now - start) / (1000000 / TORTURE_HZ));
		torture_ops_lines(cur_ops->gp_state);
		torout(" Boost inversion: GP %lu %s.", gp_state,
		       cur_ops->poll_gp_state(gp_state) ? "ended already" : "still pending");
	}
	return true;
}

/* One interval: start polled grace periods back to back, never sleeping,
 * until endtime. */
static void boost_interval(unsigned long endtime)
{
	unsigned long gp_state = 0, gp_start = 0;
	bool started = false, failed = false;

	while (torture_now_us() < endtime && !torture_must_stop()) {
		if (started && !failed && !cur_ops->poll_gp_state(gp_state))
			failed = boost_failed(gp_state, gp_start);
		if (!started || cur_ops->poll_gp_state(gp_state)) {
			gp_state = cur_ops->start_gp_poll();
			gp_start = torture_now_us();
			started = true;
		}
	}
	/* A grace period that outlasted the interval. */
	if (started && !failed && !cur_ops->poll_gp_state(gp_state))
		boost_failed(gp_state, gp_start);
}

/* The next interval starts test_boost_interval s after this one ended
 * (the first thread to get here sets it). */
static void boost_next(unsigned long old)
{
	pthread_mutex_lock(&boost_mutex);
	if (boost_starttime_us == old) {
		WRITE_ONCE(boost_starttime_us,
			   torture_now_us() + (unsigned long)tp.test_boost_interval * 1000000);
		STAT_INC(tc.boosts);
	}
	pthread_mutex_unlock(&boost_mutex);
}

static void *rcu_torture_boost(void *arg)
{
	int cpu = (int)(long)arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	torture_sleep_us((unsigned long)tp.test_boost_holdoff * 1000000);
	torverbose(" rcu_torture_boost started");
	if (!set_fifo(1))
		return NULL;
	while (!torture_must_stop()) {
		unsigned long start;

		pthread_mutex_lock(&boost_mutex);
		start = boost_starttime_us;
		pthread_mutex_unlock(&boost_mutex);
		if (torture_now_us() < start) {
			torture_sleep_us(start - torture_now_us());
			continue;
		}
		rt_throttle_check();
		boost_interval(start + (unsigned long)tp.test_boost_duration * 1000000);
		boost_next(start);
		if (stutter_wait("rcu_torture_boost"))
			set_fifo(1);
	}
	return NULL;
}

/* This thread's CPU time, us. */
static unsigned long thread_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long)ts.tv_sec * 1000000 + (unsigned long)ts.tv_nsec / 1000;
}

/*
 * From a reader inside its section (read_delay()): one reader at a time
 * holds its section across the start of each test interval, until it has
 * had test_boost_duration / 8 of CPU time within the interval (or the
 * interval ends).  Why: since Linux 6.12 the kernel's fair server gives
 * ordinary threads about 5% of each CPU beside real-time ones, throttling
 * or not, and a preempted reader needs only microseconds to leave a short
 * section: grace periods would end within a second without any boost,
 * and a busted boost would pass.  A reader that needs real CPU time
 * inside its section gets it in time only if it is boosted
 * (docs/design/boost.md has the figures).
 */
void boost_hold(int reader)
{
	unsigned long start, end, now, hold, cpu0 = 0;
	int none = 0;

	if (!smp_load_acquire(&boost_running))	/* pairs with boost_start() */
		return;
	start = READ_ONCE(boost_starttime_us);
	end = start + (unsigned long)tp.test_boost_duration * 1000000;
	now = torture_now_us();
	if (now + BOOST_ARM_US < start || now >= end)
		return;
	/* One holder at a time (an ordered RMW: any would do). */
	if (!try_cmpxchg(&boost_holder, &none, reader + 1))
		return;
	hold = (unsigned long)tp.test_boost_duration * 1000000 / 8;
	while ((now = torture_now_us()) < end && !torture_must_stop()) {
		if (now < start)
			continue;	/* armed: in the section when the hogs come */
		if (!cpu0)
			cpu0 = thread_cpu_us();
		else if (thread_cpu_us() - cpu0 >= hold)
			break;
	}
	STAT_INC(tc.boost_holds);
	smp_store_release(&boost_holder, 0);	/* pairs with the cmpxchg above */
}

/* Does the run ask for the boost test (test_boost=2, or 1 on a boosting
 * RCU), on a type that has what it needs (the polled calls)? */
static bool boost_wanted(void)
{
	return tp.test_boost == 2 ||
	       (tp.test_boost == 1 && cur_ops->can_boost && cur_ops->can_boost());
}

void boost_refuse(void)
{
	if (boost_wanted() && cur_ops->start_gp_poll && cur_ops->poll_gp_state &&
	    !torture_may_rt(1))
		params_skip("test_boost", "the boost test's threads need SCHED_FIFO, refused here "
			    "(CAP_SYS_NICE: run as root)");
}

/* Why a test asked for cannot run here (NULL: it can).  The kernel skips
 * it quietly, but for a priority below 2, which it warns about. */
static const char *boost_obstacle(void)
{
	int prio = cur_ops->gp_kthreads_prio ? cur_ops->gp_kthreads_prio() : 0;

	if (!cur_ops->start_gp_poll || !cur_ops->poll_gp_state)
		return "the torture type has no polled grace periods";
	if (prio < 2) {
		snprintf(why_buf, sizeof(why_buf), "the RCU's threads run at real-time priority %d: "
			 "boosting is tested from 2 (rcutree.kthread_prio=2, and CAP_SYS_NICE)", prio);
		return why_buf;
	}
	if (!rt_throttle_off())
		return "real-time throttling is on (" RT_RUNTIME " is not -1, and not writable "
		       "here: run as root): a preempted reader would finish without a boost";
	return NULL;
}

int boost_start(void)
{
	cpu_set_t set;
	const char *why;
	int cpu;

	if (tp.test_boost_interval < 1)
		tp.test_boost_interval = 1;	/* the kernel's lower bounds */
	if (tp.test_boost_duration < 2)
		tp.test_boost_duration = 2;
	if (!boost_wanted())
		return 0;
	if ((why = boost_obstacle())) {
		torout(" rcu_torture_boost: WARN: not testing boosting: %s", why);
		params_unhonour("test_boost", "%s", why);
		return 0;
	}
	WRITE_ONCE(boost_starttime_us,
		   torture_now_us() + (unsigned long)tp.test_boost_interval * 1000000);
	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	smp_store_release(&boost_running, true);	/* pairs with boost_hold() */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) &&
		    torture_spawn_bound("rcu_torture_boo", rcu_torture_boost, (void *)(long)cpu)) {
			STAT_INC(tc.boost_ktrerror);
			return -1;
		}
	return 0;
}
