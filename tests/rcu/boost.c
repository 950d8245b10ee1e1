/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/boost.c - real-time RCU threads (rcutree.kthread_prio) and
 * priority boosting (rcutree.rcu_boost): the RCU threads run SCHED_FIFO
 * (srcu_worker does not); a reader that holds up a grace period past
 * rcutree.rcu_boost_delay runs at the booster's priority inside its
 * section -- also while a real-time thread of lower priority keeps its
 * CPU, or behind a reader that sleeps in its section -- until its
 * outermost rcu_read_unlock(), and not after; without
 * rcu_boost it never is; a process that may not use SCHED_FIFO gets
 * ordinary threads and a note; fork() works with priority-inheriting
 * locks.  Each case runs in a fresh child (run_self()): the parameters
 * are fixed at start.  Needs CAP_SYS_NICE (root) but for the last case.
 */
#include <dirent.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <rcu/rcutree.h>
#include <rcu/srcu.h>
#include "rcu_test.h"

#define PRIO	3

static char out[16384];

static bool may_rt(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		return false;
	sp.sched_priority = 0;
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	return true;
}

/*
 * The calling thread's effective scheduling: a priority inherited through
 * a PI futex changes what it runs at, not its policy, so read the
 * kernel's effective priority (/proc's "priority": -1 - the real-time
 * priority for one that runs real-time, 20 + nice otherwise).
 */
static void self_sched(int *policy, int *prio)
{
	char buf[1024], *p;
	long pr = 20;
	FILE *f = fopen("/proc/thread-self/stat", "r");
	int i;

	if (f && fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'))) {
		for (i = 3; i <= 18 && p; i++)	/* p: before field i */
			p = strchr(p + 1, ' ');
		if (p)
			pr = strtol(p + 1, NULL, 10);
	}
	if (f)
		fclose(f);
	*policy = pr < 0 ? SCHED_FIFO : SCHED_OTHER;
	*prio = pr < 0 ? (int)(-1 - pr) : 0;
}

/* The policy and priority of this process's thread called name, -1 if
 * there is none. */
static int thread_policy(const char *name, int *prio)
{
	DIR *d = opendir("/proc/self/task");
	char path[300], comm[32];
	struct dirent *e;
	int policy = -1;
	FILE *f;

	while (d && policy < 0 && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if (e->d_name[0] == '.' || !(f = fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, name, strlen(name)) &&
		    comm[strlen(name)] == '\n') {
			struct sched_param sp;
			pid_t tid = atoi(e->d_name);

			policy = sched_getscheduler(tid);
			sched_getparam(tid, &sp);
			*prio = sp.sched_priority;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return policy;
}

/* ------------------------------------------------------------------ */
/* The reader: inside a section until it sees itself boosted (or for
 * wait_ms); then outermost unlock in two steps. */

struct reader {
	int in, boosted, done, policy_in, prio_in, policy_nested, policy_after;
	int hog_cpu;		/* -1, or pin there beside a SCHED_FIFO 1 hog */
	long wait_ms;
};

static int hog_stop;

/* SCHED_FIFO 1 on cpu, busy until told to stop (at most 20 s). */
static void *hog_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	int cpu = *(int *)arg;
	cpu_set_t set;
	double end = now_s() + 20;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (!__atomic_load_n(&hog_stop, __ATOMIC_RELAXED) && now_s() < end)
		;
	return NULL;
}

static void reader_fn(void *arg)
{
	struct reader *r = arg;
	long t0 = now_ms();
	int prio;

	if (r->hog_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(r->hog_cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	rcu_read_lock();
	rcu_read_lock();
	set_flag(&r->in);
	/* Busy, as a preempted reader would be if it could run. */
	while (now_ms() - t0 < r->wait_ms) {
		self_sched(&r->policy_in, &r->prio_in);
		if (r->policy_in == SCHED_FIFO)
			break;
	}
	rcu_read_unlock();
	self_sched(&r->policy_nested, &prio);	/* still inside */
	rcu_read_unlock();
	self_sched(&r->policy_after, &prio);
	set_flag(&r->done);
}

/* A reader that sleeps inside its section until sleeper_stop is set (at
 * most 60 s, longer than the boosted reader waits): no boost can hurry
 * it. */
static int sleeper_in, sleeper_stop;

static void sleeper_fn(void *arg)
{
	long t0 = now_ms();

	(void)arg;
	rcu_read_lock();
	set_flag(&sleeper_in);
	while (!__atomic_load_n(&sleeper_stop, __ATOMIC_ACQUIRE) && now_ms() - t0 < 60000)
		usleep(1000);
	rcu_read_unlock();
}

static void *sync_main(void *arg)
{
	(void)arg;
	synchronize_rcu();
	return NULL;
}

/* Run a reader that a synchronize_rcu() waits for; print what it saw. */
static int child_reader(long wait_ms, bool hog, bool sleeper)
{
	struct reader r = { .wait_ms = wait_ms, .hog_cpu = -1 };
	struct reg_thread rt, rs;
	struct lrcu_stats st;
	pthread_t s, h;
	int cpu = 0;

	if (hog)
		r.hog_cpu = cpu;
	if (sleeper) {	/* registered first: the first holdout in slot order */
		reg_thread_start(&rs, sleeper_fn, NULL);
		wait_flag(&sleeper_in, 30);
	}
	reg_thread_start(&rt, reader_fn, &r);
	wait_flag(&r.in, 30);
	if (hog)
		pthread_create(&h, NULL, hog_main, &cpu);
	pthread_create(&s, NULL, sync_main, NULL);
	wait_flag(&r.done, 30);
	reg_thread_join(&rt);
	if (sleeper) {
		__atomic_store_n(&sleeper_stop, 1, __ATOMIC_RELEASE);
		reg_thread_join(&rs);
	}
	pthread_join(s, NULL);
	if (hog) {
		__atomic_store_n(&hog_stop, 1, __ATOMIC_RELAXED);
		pthread_join(h, NULL);
	}
	lrcu_get_stats(LRCU_PREEMPT, &st);
	printf("in=%s:%d nested=%s after=%s boosts=%lu\n",
	       r.policy_in == SCHED_FIFO ? "fifo" : "other", r.prio_in,
	       r.policy_nested == SCHED_FIFO ? "fifo" : "other",
	       r.policy_after == SCHED_FIFO ? "fifo" : "other", st.boosts);
	return 0;
}

static void noop_cb(struct rcu_head *rh)
{
	(void)rh;
}

static int child_threads(void)
{
	int gp = 0, cb = 0, rcub = 0, srcu = 0, pgp, pcb, prcub, psrcu;
	struct srcu_struct ss;
	struct rcu_head rh;

	init_srcu_struct(&ss);
	call_srcu(&ss, &rh, noop_cb);	/* srcu_worker runs */
	srcu_barrier(&ss);
	synchronize_rcu();
	pgp = thread_policy("rcu_preempt", &gp);
	pcb = thread_policy("rcu_cb_preempt", &cb);
	prcub = thread_policy("rcub/0", &rcub);
	psrcu = thread_policy("srcu_worker", &srcu);
	printf("prio=%d gp=%d:%d cb=%d:%d rcub=%d:%d srcu=%d\n", rcu_get_gp_kthreads_prio(),
	       pgp, gp, pcb, cb, prcub, rcub, psrcu);
	cleanup_srcu_struct(&ss);
	return 0;
}

/* Drop CAP_SYS_NICE and real-time limits, then start the library. */
static int child_denied(void)
{
	struct __user_cap_header_struct hd = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_RTPRIO, &rl);
	if (!syscall(SYS_capget, &hd, data)) {
		data[CAP_SYS_NICE / 32].effective &= ~(1U << (CAP_SYS_NICE % 32));
		syscall(SYS_capset, &hd, data);
	}
	synchronize_rcu();
	printf("prio=%d\n", rcu_get_gp_kthreads_prio());
	return 0;
}

/* fork() with priority-inheriting library locks: the child's RCU works. */
static int child_fork(void)
{
	pid_t pid;
	int status;

	synchronize_rcu();
	pid = fork();
	if (!pid) {
		synchronize_rcu();
		synchronize_rcu_expedited();
		rcu_barrier();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	synchronize_rcu();
	printf("child=%d\n", exited_with(status, 0));
	return 0;
}

static int child(const char *mode)
{
	if (!strcmp(mode, "boost"))
		return child_reader(30000, false, false);
	if (!strcmp(mode, "hog"))
		return child_reader(30000, true, false);
	if (!strcmp(mode, "sleeper"))
		return child_reader(30000, false, true);
	if (!strcmp(mode, "noboost"))
		return child_reader(300, false, false);
	if (!strcmp(mode, "threads"))
		return child_threads();
	if (!strcmp(mode, "denied"))
		return child_denied();
	if (!strcmp(mode, "fork"))
		return child_fork();
	return 2;
}

#define BOOST_ARGS "rcutree.rcu_boost=1 rcutree.kthread_prio=3 rcutree.rcu_boost_delay=20"

static void test_threads(void)
{
	int st = run_self("threads", NULL, BOOST_ARGS, out, sizeof(out));

	if (!ok(exited_with(st, 0) && strstr(out, "prio=3 gp=1:3 cb=1:3 rcub=1:3 srcu=0\n"),
	   "kthread_prio=3: the GP, callback and boost threads run SCHED_FIFO 3, srcu_worker "
	   "does not")) diag_output(out);
}

static void test_boosted(const char *mode, const char *what)
{
	int st = run_self(mode, NULL, BOOST_ARGS, out, sizeof(out));

	if (!ok(exited_with(st, 0) && strstr(out, "in=fifo:3 nested=fifo after=other boosts=") &&
	   !strstr(out, "boosts=0\n"),
	   "%s: boosted to SCHED_FIFO 3 inside the section, still after the nested unlock, "
	   "back to SCHED_OTHER after the outermost", what)) diag_output(out);
}

static void test_not_boosted(void)
{
	int st = run_self("noboost", NULL, "rcutree.kthread_prio=3 rcutree.rcu_boost_delay=20",
			  out, sizeof(out));

	if (!ok(exited_with(st, 0) && strstr(out, "in=other:0 nested=other after=other boosts=0\n"),
	   "kthread_prio without rcu_boost: a reader holding up a grace period for 300 ms "
	   "(15 boost delays) is never boosted")) diag_output(out);
}

static void test_denied(void)
{
	int st = run_self("denied", NULL, BOOST_ARGS, out, sizeof(out));

	if (!ok(exited_with(st, 0) && strstr(out, "prio=0\n") &&
	   strstr(out, "rcu: rcutree.kthread_prio=3: this process may not make threads SCHED_FIFO"),
	   "without CAP_SYS_NICE: ordinary threads, rcu_get_gp_kthreads_prio() 0, and a note "
	   "saying why")) diag_output(out);
}

static void test_fork(void)
{
	int st;

	/* ThreadSanitizer: as tests/rcu/fork.c (fork() holds more locks than
	 * its deadlock detector tracks; the child starts threads). */
	snprintf(out, sizeof(out), "%s:die_after_fork=0:detect_deadlocks=0",
		 getenv("TSAN_OPTIONS") ? getenv("TSAN_OPTIONS") : "");
	setenv("TSAN_OPTIONS", out, 1);
	st = run_self("fork", NULL, BOOST_ARGS, out, sizeof(out));

	if (!ok(exited_with(st, 0) && strstr(out, "child=1\n"),
	   "fork() with priority-inheriting locks: grace periods, expedited ones and "
	   "rcu_barrier() work in the child")) diag_output(out);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return child(argv[1]);
	if (!may_rt()) {
		skip("kthread_prio: needs CAP_SYS_NICE (run as root)");
		skip("boosting: needs CAP_SYS_NICE (run as root)");
		skip("boosting beside a real-time hog: needs CAP_SYS_NICE (run as root)");
		skip("behind a sleeping reader: needs CAP_SYS_NICE (run as root)");
		skip("not boosted: needs CAP_SYS_NICE (run as root)");
		skip("fork: needs CAP_SYS_NICE (run as root)");
	} else {
		test_threads();
		test_boosted("boost", "a reader holding up a grace period");
		if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
			test_boosted("hog", "a reader kept off its CPU by a SCHED_FIFO 1 thread");
		else
			skip("beside a real-time hog: needs 2 CPUs");
		test_boosted("sleeper", "a reader behind one that sleeps in its section");
		test_not_boosted();
		test_fork();
	}
	test_denied();
	return done_testing();
}
