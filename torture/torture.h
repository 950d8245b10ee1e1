/* SPDX-License-Identifier: MIT */
/*
 * torture.h - the torture core's shared state: parameters, counters,
 * threads, the element pool, and the helpers every thread uses.
 *
 * Counters are updated with relaxed atomics (they order nothing: the
 * stats thread only needs untorn values).  Parameters are written by main()
 * before any thread starts and read-only afterwards (pthread_create()
 * orders them).
 */
#ifndef TORTURE_TORTURE_H
#define TORTURE_TORTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <torture/atomic.h>
#include <torture/ops.h>

#define RCU_TORTURE_PIPE_LEN	10
#define TORTURE_POOL_SIZE	(10 * RCU_TORTURE_PIPE_LEN)
#define TORTURE_HZ		1000	/* a jiffy is 1 ms here */
#define TORTURE_MAX_FLAVORS	8

/* Statistics: relaxed atomics (STAT_INC() and STAT_ADD() return the old
 * value). */
#define STAT_INC(x)	atomic_fetch_add_relaxed(1, &(x))
#define STAT_ADD(x, n)	atomic_fetch_add_relaxed((n), &(x))
#define STAT_READ(x)	READ_ONCE(x)
#define STAT_SET(x, v)	WRITE_ONCE(x, v)

/* ------------------------------------------------------------------ */
/* Parameters (params.c): kernel names; see the table there. */
struct torture_params {
	char torture_type[256];
	long nreaders, nfakewriters, stat_interval, verbose, shutdown_secs;
	long stutter, shuffle_interval, test_no_idle_hz, irqreader, extendables;
	long n_barrier_cbs, object_debug, onoff_interval, onoff_holdoff;
	long fqs_duration, fqs_holdoff, fqs_stutter;
	long stall_cpu, stall_cpu_holdoff, stall_cpu_block, stall_cpu_irqsoff, stall_cpu_repeat;
	long stall_gp_kthread;
	long fwd_progress, fwd_progress_holdoff, fwd_progress_div;
	long gp_sync, gp_exp, gp_normal, gp_cond, gp_poll, gp_cond_exp, gp_poll_exp;
	long gp_cond_full, gp_poll_full, gp_cond_exp_full, gp_poll_exp_full;
	long gp_cond_wi, gp_poll_wi, gp_cond_wi_exp, gp_poll_wi_exp;
	long read_exit_delay, read_exit_burst, stop_on_error;
	long nocbs_nthreads, nocbs_toggle;
	long test_boost, test_boost_duration, test_boost_interval, test_boost_holdoff;
	long preempt_duration, preempt_interval;
	long leakpointer, test_nmis;
	long reader_flavor;		/* SRCU_READ_FLAVOR_* bits (ops->reader_flavor) */
	long n_up_down;			/* up/down readers (updown.c) */
	long test_srcu_lockdep;		/* DNNL: ops->srcu_lockdep() at start
					 * (CONFIG_PROVE_LOCKING builds) */
	long gp_hang_timeout;		/* ours: oracle.c's hang watchdog, s */
	long span_reads;		/* ours: reads that span a grace period */
	long weak_mem;			/* ours: widen store-buffer windows */
	long maxcpus;			/* kernel boot parameter: online "CPUs" */
	unsigned long seed;
};
extern struct torture_params tp;
extern const struct torture_ops *cur_ops;
/* Is optional ops field f set?  (A plugin's shorter table is copied into
 * a full one, zero-extended: types.c.) */
#define OPS_HAS(f)	(cur_ops->f != NULL)
extern long torture_ncpus;		/* "CPUs": see ncpus_init() in main.c */

/* What params.c found about a token (N = its position among the PARAM
 * arguments, 0 for the command line as a whole); see params_report(). */
enum param_finding { PF_ERROR, PF_IGNORED, PF_FOREIGN, PF_NOTE, PF_SKIP, PF_UNHONOURED };
__attribute__((format(printf, 3, 4)))
void param_finding(enum param_finding kind, int idx, const char *fmt, ...);
int params_report(void);		/* print the findings; number of errors */
bool params_check_mode(void);		/* --check given */
int params_type_idx(void);		/* N of the torture_type token, or 0 */

/* A token for the RCU under test (rcutree.*, nr_cpus=, ...). */
struct lib_arg {
	int idx;
	const char *tok;
};
/* Parse argv; the RCU's tokens go to lib[] (argc entries).  Returns -1 if
 * some token was bad (findings made), else 0. */
int params_parse(int argc, char **argv, struct lib_arg *lib, int *nlib,
		 const char **outdir, const char **scenario, int *list_types);
void params_print(FILE *out);		/* "name=value ..." */
void params_json(FILE *out);		/* {"name":value,...} */
/* "unhonoured":[...],"ignored":[...]: rcutorture's own parameters given
 * but not honoured here ({"param":"NAME=VALUE","why":...} each). */
void params_said_json(FILE *out);
/* "not honoured: rcutorture.X=V (why); ..." into buf: the parameters that
 * define a test this run does not do; returns how many. */
int params_unhonoured(char *buf, size_t len);
/* At run time: the test rcutorture.TOK asked for cannot run (why: a
 * string that lives as long as the run). */
void params_unhonour(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* At run time: rcutorture.TOK honoured in part (listed as ignored). */
void params_ignore(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Before the run: the test rcutorture.TOK asks for needs a privilege this
 * process lacks (SCHED_FIFO): a skip finding, nothing run. */
void params_skip(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Was rcutorture.NAME given (a token set it)? */
bool params_given(const char *name);
void params_usage(FILE *out);

/* ------------------------------------------------------------------ */
/* Types (types.c) */
const struct torture_ops *torture_type_find(const char *name, char *err, size_t len,
					    int *status);
void torture_types_list(FILE *out);
/* Find types as the ThreadSanitizer build would (--check=tsan: the plain
 * build checks a KCSAN scenario's plan). */
void torture_types_as_tsan(void);
void torture_types_list_long(FILE *out);
int torture_param_known_elsewhere(const char *name);

/* The kernel's parameters (kparams.c): why one is ignored here (NULL if it
 * is not one of them); is a name in rcutorture's or the RCU's namespace? */
const char *kparam_ignored(const char *name);
bool kparam_unhonoured(const char *name, const char *value);
bool kparam_owned(const char *name);

/* ------------------------------------------------------------------ */
/* Random numbers (util.c): per-thread LCG, seeded from tp.seed. */
struct torture_random {
	uint64_t state;
};
void torture_random_init(struct torture_random *r, unsigned long salt);
unsigned long torture_random(struct torture_random *r);

/* ------------------------------------------------------------------ */
/* Time and sleeping (util.c).  Sleeps return early once the test must
 * stop.  torture_idle_sleep_us() puts a registered QSBR thread offline
 * while it sleeps. */
unsigned long torture_now_us(void);	/* since the start of the run */
void torture_sleep_us(unsigned long us);
void torture_hrtimeout_us(unsigned long base, unsigned long fuzz, struct torture_random *r);
void torture_idle_sleep_us(unsigned long us);
void torture_spin_us(unsigned long us);

/* ------------------------------------------------------------------ */
/* Threads (util.c) */
bool torture_must_stop(void);
void torture_request_stop(void);
/* Spawn a torture thread; it is joined by torture_stop_all().  A bound
 * one keeps its own affinity: the shuffler leaves it alone. */
int torture_spawn(const char *name, void *(*fn)(void *), void *arg);
int torture_spawn_bound(const char *name, void *(*fn)(void *), void *arg);
/* Stop every thread, waiting at most timeout_s (less once give_up(),
 * if given, says so); false if some hung. */
bool torture_join_all(unsigned long timeout_s, bool (*give_up)(void), char *hung, size_t len);
/* For the shuffler: run fn on every live torture thread's pthread_t. */
void torture_for_each_thread(void (*fn)(pthread_t t, void *arg), void *arg);
void torture_thread_exiting(void);	/* the calling thread is done */

/* Threads as CPUs: registration and extended quiescent states, through
 * the ops, remembered per thread so helpers know what to do. */
int torture_slots_init(long readers);	/* -1: readers do not fit */
int torture_reader_register(int cpu);	/* register (a reader's slot), online;
					 * as that CPU if the RCU numbers them
					 * and it is free (-1: any) */
int torture_reader_cpu_plan(int reader);	/* the CPU that spreads readers
						 * over groups; -1: not numbered */
int torture_cpu_group(int cpu);		/* cpu's group, -1 if unknown */
int torture_thread_cpu(void);		/* this thread's CPU, -1 if none */
int torture_random_online_cpu(struct torture_random *r);	/* one in use */
/* Register in a shared slot; -1 (after a note naming who and what it
 * does without) if none is free. */
int torture_aux_register(const char *who, const char *what, bool prio);
void torture_reader_unregister(void);
void torture_offline(void);
void torture_online(void);
/* Register if the RCU needs it (or if asked: in a shared or a stall/
 * forward-progress slot, if one is free), then go offline.  True if
 * registered. */
enum { UPD_NO_SLOT, UPD_SHARED_SLOT, UPD_PRIO_SLOT };
bool torture_updater_start(int want, const char *who, const char *what);
void torture_updater_stop(void);
void torture_call(struct torture_cb *cb, void (*func)(struct torture_cb *));
bool torture_thread_registered(void);
bool torture_may_read(void);		/* registered and online (irqreader) */

/* ------------------------------------------------------------------ */
/* Output (output.c) */
extern FILE *torture_stats_file, *torture_latency_file;
__attribute__((format(printf, 1, 2))) void torout(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void torverbose(const char *fmt, ...);
void torture_record_gp(const char *kind, unsigned long start_us);
unsigned long torture_gp_latency_us(void);	/* recent typical GP wait */
void torture_latency_summary(FILE *out);	/* JSON object */
void json_string(FILE *out, const char *s);
int torture_output_open(const char *dir);
void torture_output_close(void);
/* A write to f (NULL: one that just failed) failed: remember the first
 * such failure, "cannot write WHAT: strerror", for the verdict. */
void torture_io_check(FILE *f, const char *what);
const char *torture_io_error(void);	/* NULL if every write worked */

/* ------------------------------------------------------------------ */
/* The run's counters; counters.c says which are reported, and how. */
struct torture_counters {
	unsigned long ver;		/* writer updates (rcu_torture_current_version) */
	unsigned long rta, rtaf, rtf;	/* allocs, failed allocs, frees */
	unsigned long rtmbe;		/* reader saw mbtest == 0 */
	unsigned long rtmbkf_fail, rtmbkf_try;
	unsigned long rtbe;		/* barrier errors */
	unsigned long nt;		/* irq (signal-handler) reads */
	unsigned long reads;		/* read-side critical sections */
	unsigned long updown_reads;	/* ... of which up/down (updown.c) */
	unsigned long cookie_errors;	/* polled-cookie checks failed */
	unsigned long leaks;		/* pool elements lost */
	unsigned long writer_stalls;	/* stats prints with a stalled writer */
	unsigned long deliberate_stalls;/* ... of which during a deliberate stall */
	unsigned long barrier_ok, barrier_attempts;
	unsigned long read_exits;
	unsigned long nocb_offload, nocb_deoffload;	/* switches done (nocb.c) */
	unsigned long fwd_floods, fwd_launders, fwd_max_cbs, fwd_errors;
	unsigned long on_ok, on_try, off_ok, off_try;
	unsigned long min_on, max_on, min_off, max_off, sum_on, sum_off;
	unsigned long onoff_fail;
	unsigned long pipe[RCU_TORTURE_PIPE_LEN + 1];	/* Reader Pipe */
	unsigned long batch[RCU_TORTURE_PIPE_LEN + 1];	/* Reader Batch */
	unsigned long wcount[RCU_TORTURE_PIPE_LEN + 1];	/* Free-Block Circulation */
	unsigned long writer_gps;	/* GP waits completed by the writer */
	unsigned long stall_active;	/* stall episode (or its aftermath): ULONG_MAX
					 * during one, then when it ended */
	unsigned long rcu_stalls;	/* RCU CPU stall warnings (ops->stall_notifier) */
	unsigned long rcu_stalls_unexpected;	/* ... in a run that asked for no stall */
	unsigned long stall_episodes;	/* stall_cpu, stall_gp_kthread episodes done */
	unsigned long stall_unnamed;	/* stall_cpu ones that no warning named */
	unsigned long stall_gp_unnamed;	/* stall_gp_kthread ones that no warning
					 * said starved the GP kthread */
	unsigned long misuse_expected;	/* misuses caused on purpose */
	unsigned long objdebug_fail;	/* object_debug: duplicate not caught */
	unsigned long register_fail;	/* thread_register() failed */
	unsigned long gpo_checks;	/* oracle checks made by readers */
	unsigned long gpo_fail;		/* ... that caught a too-short GP */
	unsigned long gpo_cb_early;	/* callbacks invoked before their GP */
	unsigned long gp_hangs;		/* hang watchdog reports */
	unsigned long gp_hangs_deliberate;	/* ... during a deliberate stall */
	unsigned long boosts;		/* boost-test intervals done (rtb) */
	unsigned long boost_failure;	/* grace periods that outlasted one (rtbf) */
	unsigned long boost_ktrerror;	/* boost threads not started (rtbke) */
	unsigned long boost_rterror;	/* ... not made SCHED_FIFO (rtbre) */
	unsigned long boost_holds;	/* sections held across an interval */
	unsigned long leaked_used;	/* leakpointer: a leaked element freed */
	unsigned long nmi_dumps;	/* test_nmis: thread dumps done */
	unsigned long preemptions;	/* preempt_duration episodes (preempt.c) */
};
extern struct torture_counters tc;

/* ------------------------------------------------------------------ */
/* The pool (pool.c) and the pipeline */
struct rtc_mbox;
struct rcu_torture {
	struct torture_cb cb;		/* the async (deferred-free) path */
	int pipe_count;			/* GPs since removal (+1); atomic */
	int mbtest;			/* 1 while allocated; atomic */
	int state;			/* RTORT_*: the writer's view; atomic */
	struct rcu_torture *next;	/* freelist / removed list (owner lock) */
	struct rtc_mbox *chkp;		/* pending mailbox check; atomic */
	unsigned long call_us;		/* when call() was issued (latency) */
	unsigned long gpo_stamp;	/* oracle ticket of its removal, 0 while
					 * current (writer: release; readers:
					 * acquire) */
	unsigned long gpo_t0;		/* oracle ticket when call() was issued */
	unsigned long gpo_cookie;	/* polled cookie taken before call() */
};
enum { RTORT_FREE, RTORT_CURRENT, RTORT_REMOVED, RTORT_ASYNC };

extern void *rcu_torture_current;	/* published with a release store */
struct rcu_torture *pool_alloc(void);
void pool_free(struct rcu_torture *rp);
bool pipe_update_one(struct rcu_torture *rp);	/* true: reached PIPE_LEN */
void pool_deferred_free(struct rcu_torture *rp);
void pool_removed_add(struct rcu_torture *rp);
void pool_removed_update(void);		/* after a grace period */
unsigned long pool_leak_check(void);	/* elements neither free, current,
					 * removed nor legitimately queued */
void *pool_element(int i);
int pool_freelist_empty(void);

/* ------------------------------------------------------------------ */
/* Readers (reader.c) */
struct rtc_mbox {
	int state;			/* MBOX_*; atomic */
	int target;			/* reader whose loop count is checked */
	unsigned long chkloops;		/* its count when the request was hung */
};
struct torture_reader {
	int id;
	struct torture_random rng;
	unsigned long myloops;		/* reads so far; atomic (mailbox checks) */
	struct rtc_mbox mbox;		/* this reader's mailbox request */
	int onoff_req;			/* ONOFF_*: asked by onoff; atomic */
	int onoff_ack;			/* ONOFF_*: state reached; atomic */
	int irq_ok;			/* may a signal handler read now; atomic */
	pthread_t thread;
	int started;			/* thread up and registered; atomic */
	unsigned long next_span_us;	/* when its next GP-spanning read is due */
	int cpu;			/* its CPU number, -1 if none; atomic */
	unsigned char *sb_buf;		/* weak_mem: lines to store to (owner) */
	unsigned long span_window;	/* last quiet window it spanned (oracle.c) */
	int reg_turn;			/* 1: may register at start, 2: tried
					 * (regorder.c); atomic */
} __attribute__((aligned(64)));
extern struct torture_reader *torture_readers;
long torture_nreaders(void);
enum { ONOFF_ONLINE, ONOFF_OFFLINE, ONOFF_UNREGISTERED };
/* Readers' registration order for RCUs with their own slots (regorder.c). */
bool regorder_applies(void);
void regorder_reader_turn(struct torture_reader *r);
void regorder_reader_tried(struct torture_reader *r);
int regorder_start(void);
unsigned long regorder_reshuffles(void);
void *rcu_torture_reader(void *arg);
/* One read; ctx may be NULL (aux readers: read_exit, stall, fwd). */
bool rcu_torture_one_read(struct torture_random *rng, struct torture_reader *ctx);
/* The checks of one read, for a section the caller enters and leaves
 * (the up/down readers): begin and end inside it, record after it.
 * who: the reader's number in reports (-3: an up/down reader). */
struct read_check {
	struct rcu_torture *p;		/* the element the read holds */
	unsigned long started, completed;	/* gp samples at both ends */
	int pipe;			/* its pipe_count at the end */
	bool failed;			/* the oracle caught it */
};
bool read_check_begin(struct read_check *rc, void *(*deref)(void *const *pp), int who);
void read_check_end(struct read_check *rc, int who);
long read_check_record(const struct read_check *rc);	/* counts it; its batch */
void reader_segments_dump(void);
int readers_start(void);
void irqreader_start(void);

/* ------------------------------------------------------------------ */
/* Writer, fakewriters (writer.c) */
extern int writer_state;		/* RTWS_*; atomic */
const char *writer_state_name(int s);
bool writer_paused(int s);		/* deliberately idle (stutter, stop) */
void writer_stall_report(void);
int writer_update_types(void);		/* pick the enabled update types */
int writers_start(void);
void writer_final_drain(void);		/* after stop: barriers, leak check */

/* Other threads: each file starts its own. */
int barrier_start(void);
int stutter_start(void);
bool stutter_wait(const char *who);	/* true if it paused */
int onoff_start(void);
int shuffle_start(void);
int fqs_start(void);
int stall_start(void);
void stall_warning_seen(const struct torture_stall *s);	/* the RCU's report */
void stall_final_check(void);	/* at the end, before the verdict */
int fwd_prog_start(void);
int read_exit_start(void);
void updown_adjust(void);		/* n_up_down=0 where the type has none */
int updown_start(void);
int nocb_toggle_start(void);
int boost_start(void);			/* the priority-boost test (boost.c) */
void boost_refuse(void);		/* params_skip() if it needs SCHED_FIFO, refused */
void boost_restore(void);		/* put real-time throttling back */
void boost_hold(int reader);		/* a reader's section across an interval */
void test_nmis_run(void);		/* rcutorture.test_nmis, at the end (nmis.c) */
int preempt_start(void);		/* reader preemption (preempt.c) */
void preempt_refuse(void);		/* params_skip() if SCHED_FIFO is refused */
/* May this process make a thread SCHED_FIFO at prio (tried and undone:
 * CAP_SYS_NICE or RLIMIT_RTPRIO, and nothing else refuses it)? may_rt.c */
bool torture_may_rt(int prio);
int object_debug_test(void);		/* 0 ok, -1 failed */
/* A uniprocessor RCU's run (TORTURE_OPS_UP, up.c): why it cannot run
 * here (NULL: it can, or not such an RCU); the setup before the RCU
 * starts; is it on; the watchers' priority and back; the kernel's
 * cond_resched() (a no-op outside such a run); a callback queued inside
 * a section (begin, inside it) that must not run before its end. */
const char *torture_up_refused(void);
int torture_up_setup(void);
bool torture_up(void);
void torture_up_watcher(void);
void torture_up_member(void);
void torture_cond_resched(void);
void *torture_up_read_begin(struct torture_random *rng);
const char *torture_up_tree_param(const char *name);
void torture_up_read_end(void *c);

/* Stats (stats.c) */
int stats_start(void);
void stats_print(bool final);
bool stall_deliberate_now(void);

/* Every reported counter (counters.c): one table makes the console's
 * stats block, stats.jsonl's counters, summary.json's and the verdict. */
void counters_console(bool failing);	/* the stats line, " !!! Failures:",
					 * the histogram lines */
void counters_json(FILE *out);		/* "key":n,... (stats.jsonl, in order) */
void counters_summary(FILE *out, int from, int to);	/* ,"key":n for summary.json's
							 * places from..to (0: on) */
void failures_json(FILE *out);		/* {"key":n,...}: the failure counters */
unsigned long torture_errors(char *reason, size_t len);	/* total; first reason */

/* The exact grace-period oracle and hang watchdog (oracle.c). */
unsigned long gpo_removed(void);	/* ticket for a removal */
unsigned long gpo_begin(void);		/* ticket before a grace-period wait */
void gpo_end(unsigned long t0);		/* ... after it ended */
bool gpo_violated(const struct rcu_torture *p, unsigned long *stamp, unsigned long *done);
unsigned long gpo_cb_cookie(void);
void gpo_cb_check(unsigned long cookie, bool have);
void gpo_wait_begin(const char *who, const char *what);
void gpo_wait_end(void);
extern unsigned long gpo_progress_us;
int gpwd_start(void);
void gpwd_stop(void);			/* before the ops are cleaned up */
bool gp_hang_reported(void);		/* a non-deliberate hang so far */
unsigned long gpo_gp_len_us(void);	/* typical GP wait, 100 us .. 100 ms */
void gpo_quiet_maybe(struct torture_random *rng);	/* writer: open a window */
void gpo_quiet_hold(void);		/* fakewriters: wait while one is open */
unsigned long gpo_quiet_window(void);	/* id of the open window, 0: none */
extern int torture_hung_at_stop;
void torture_ops_lines(void (*fn)(FILE *out));	/* prefix an ops dump */

#endif /* TORTURE_TORTURE_H */
