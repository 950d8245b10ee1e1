/* SPDX-License-Identifier: MIT */
/*
 * main.c - rcutorture: parse the command line, pick the ops, start the
 * threads, wait for shutdown_secs (or SIGINT/SIGTERM), stop everything,
 * print the verdict and write summary.json.  The contract with the
 * scripts is torture/INTERFACE.md.
 *
 * "CPUs": threads play CPUs.  torture_ncpus is the RCU's nr_cpus parameter
 * when given on the command line, else the number of online processors;
 * nreaders=-1 (the default) means ncpus-1, another negative n means
 * ncpus-2-n, at least 1; nfakewriters=-1 means ncpus (as in the kernel).
 *
 * The verdict: FAILURE when a check failed; else INCOMPLETE when the run
 * did not last its shutdown_secs (stopped by a signal: exit 4) or its
 * results could not be written (a full disk: exit 5); else SUCCESS.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "torture.h"

const struct torture_ops *cur_ops;
long torture_ncpus;
static const char *outdir, *scenario;
static int sig_stop;		/* the signal that asked us to stop, or 0 */

static void on_signal(int sig)
{
	/* Only the first one counts; polled by run_until_shutdown(). */
	int none = 0;

	try_cmpxchg_relaxed(&sig_stop, &none, sig);
}

/*
 * SIGINT, SIGTERM and SIGHUP are taken by the main thread only: every
 * other thread (ours, the RCU's, a foreign library's, created from any of
 * them) starts with them blocked, inherited from main, which unblocks
 * them for itself while it waits for the end of the run.  The kernel may
 * deliver a process-directed signal to any thread that does not block it,
 * and a sanitizer runtime defers a handler to the thread's next call into
 * it: a thread that exits first (read_exit's) or spins in a reader loses
 * it, and the run lasts its whole shutdown_secs (seen under TSan).
 */
static void stop_signals_mask(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(how, &set, NULL);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "a signal";
	}
}

/* Console lines written directly (not through torout()). */
static void console_flush(void)
{
	fflush(stdout);
	torture_io_check(stdout, "the console (stdout)");
}

/* ------------------------------------------------------------------ */
/* Parameters of the RCU under test */

/*
 * nr_cpus=N: the number of "CPUs" (thread slots) for every type, and the
 * RCU's own parameter for ours.  0 if the token is bad (a finding).
 */
static long nr_cpus_value(int idx, const char *v)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 0);
	if (!*v || *end || errno || x < 1 || x > 1L << 20) {
		param_finding(PF_ERROR, idx, "nr_cpus: bad value '%s' (expected an integer from "
			      "1 to %ld)", v, 1L << 20);
		return 0;
	}
	return x;
}

/*
 * The RCU's tokens: its own parameters (checked and set one by one, so
 * each error names its token) go to own[]; the rest are findings.  The
 * last good nr_cpus= goes to *nr_cpus.
 */
static void lib_params(const struct lib_arg *lib, int nlib, char *own, size_t len,
		       long *nr_cpus)
{
	char name[256], err[512];
	const char *tok, *why;
	bool known;
	long nr;
	int i;

	own[0] = '\0';
	for (i = 0; i < nlib; i++) {
		tok = lib[i].tok;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "="), tok);
		known = cur_ops->param_known && cur_ops->param_known(name);
		if (!strcmp(name, "nr_cpus") && tok[7] == '=') {
			nr = nr_cpus_value(lib[i].idx, tok + 8);
			if (nr)
				*nr_cpus = nr;
			if (!nr || !known)
				continue;
		}
		if (known) {
			size_t used = strlen(own);

			if (cur_ops->boot_params && cur_ops->boot_params(tok, err, sizeof(err)))
				param_finding(PF_ERROR, lib[i].idx, "%s", err);
			else if (used + strlen(tok) + 2 > len)
				param_finding(PF_ERROR, lib[i].idx, "too many parameters at '%s'", tok);
			else
				snprintf(own + used, len - used, "%s%s", used ? " " : "", tok);
		} else if (torture_param_known_elsewhere(name)) {
			param_finding(PF_IGNORED, lib[i].idx, "%s: not applicable to torture_type=%s",
				      tok, cur_ops->name);
		} else if ((why = kparam_ignored(name)) || (why = torture_up_tree_param(name))) {
			param_finding(PF_IGNORED, lib[i].idx, "%s: ignored: %s", tok, why);
		} else if (kparam_owned(name)) {
			param_finding(PF_ERROR, lib[i].idx, "unknown parameter '%s'", name);
		} else if (!strchr(tok, '=')) {
			param_finding(PF_FOREIGN, lib[i].idx, "malformed argument '%s' (expected "
				      "NAME=VALUE)", tok);
		} else {
			param_finding(PF_FOREIGN, lib[i].idx, "unknown parameter '%s'", name);
		}
	}
}

/* The CPUs: maxcpus= (online), else nr_cpus= (possible), else the
 * processors here. */
static void ncpus_init(long nr_cpus)
{
	torture_ncpus = tp.maxcpus ? tp.maxcpus : nr_cpus > 0 ? nr_cpus :
			sysconf(_SC_NPROCESSORS_ONLN);
	if (torture_ncpus < 1)
		torture_ncpus = 1;
	if (tp.nreaders < 0) {
		tp.nreaders = torture_ncpus - 2 - tp.nreaders;
		if (tp.nreaders < 1)
			tp.nreaders = 1;
	}
	if (tp.nfakewriters < 0)
		tp.nfakewriters = torture_ncpus;
}

/* The kernel's conflict rules, stated on the console. */
static void params_adjust(void)
{
	if (!tp.seed) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		tp.seed = ((unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
			   (unsigned long)ts.tv_sec) % 1000000000UL + 1;
	}
	if (tp.fwd_progress && (cur_ops->flags & TORTURE_OPS_BROKEN)) {
		param_finding(PF_NOTE, 0, "fwd_progress disabled for torture_type=%s", cur_ops->name);
		tp.fwd_progress = 0;
	}
	if (tp.fwd_progress && (!cur_ops->call || !cur_ops->cb_barrier)) {
		param_finding(PF_NOTE, 0, "fwd_progress disabled: %s has no call()/cb_barrier()",
			      cur_ops->name);
		tp.fwd_progress = 0;
	}
	if (tp.fwd_progress && tp.stall_cpu > 0) {
		param_finding(PF_NOTE, 0, "fwd_progress disabled: stall_cpu>0");
		tp.fwd_progress = 0;
	}
	if (tp.stall_gp_kthread > 0 && !OPS_HAS(stall_gp_kthread)) {
		params_unhonour("stall_gp_kthread", "%s has no grace-period thread to stall",
				cur_ops->name);
		tp.stall_gp_kthread = 0;
	}
	if (tp.test_srcu_lockdep && !OPS_HAS(srcu_lockdep)) {
		params_unhonour("test_srcu_lockdep", "%s has no lock-dependency checking",
				cur_ops->name);
		tp.test_srcu_lockdep = 0;
	}
	if (tp.nocbs_nthreads && !cur_ops->nocb_toggle) {
		param_finding(PF_NOTE, 0, "nocbs_nthreads ignored: %s cannot switch callback "
			      "offloading", cur_ops->name);
		tp.nocbs_nthreads = 0;
	}
	/* As the kernel: -1 is one thread a CPU, and never more than that. */
	if (tp.fwd_progress < 0 || tp.fwd_progress > torture_ncpus) {
		if (tp.fwd_progress > torture_ncpus)
			param_finding(PF_NOTE, 0, "fwd_progress=%ld: one forward-progress thread "
				      "a CPU: %ld", tp.fwd_progress, torture_ncpus);
		tp.fwd_progress = torture_ncpus;
	}
}

/*
 * rcutorture.reader_flavor: the type's readers take these flavors (before
 * init(), which may set their domain up), or the run cannot test them.
 * 0 and 1 both mean the normal flavor, as in the kernel.
 */
static void reader_flavor_setup(void)
{
	if (cur_ops->reader_flavor) {
		if (cur_ops->reader_flavor((unsigned int)tp.reader_flavor))
			params_unhonour("reader_flavor", "torture_type=%s cannot take these "
					"reader flavors", cur_ops->name);
	} else if (tp.reader_flavor > 1) {
		params_unhonour("reader_flavor", "torture_type=%s has one reader flavor",
				cur_ops->name);
	}
}

/* ------------------------------------------------------------------ */
/* Start, run, stop */

static void gp_state_line(const char *when)
{
	const char *g = cur_ops->gp_name ? cur_ops->gp_name : cur_ops->name;

	if (!cur_ops->get_gp_seq)
		return;
	flockfile(stdout);
	printf("%s:  %s-test grace-period state: g%ld f0x0", g, when, (long)cur_ops->get_gp_seq());
	if (!strcmp(when, "End") && cur_ops->gps_completed)
		printf(" total-gps=%lu", cur_ops->gps_completed());
	printf("\n");
	console_flush();
	funlockfile(stdout);
}

static void start_line(const char *what, const char *result)
{
	flockfile(stdout);
	printf("%s-torture:--- %s%s ", cur_ops->name, what, result);
	params_print(stdout);
	printf("\n");
	console_flush();
	funlockfile(stdout);
}

/* A completed-state cookie (one-word, full-state) always polls as complete. */
static void cookie_check_completed(void)
{
	struct torture_gp_full c;

	if (OPS_HAS(get_comp_state) && OPS_HAS(poll_gp_state) &&
	    !cur_ops->poll_gp_state(cur_ops->get_comp_state())) {
		STAT_INC(tc.cookie_errors);
		torout(" Cookie check: get_comp_state() does not poll as complete");
	}
	if (!OPS_HAS(get_comp_state_full) || !OPS_HAS(poll_gp_state_full))
		return;
	cur_ops->get_comp_state_full(&c);
	if (!cur_ops->poll_gp_state_full(&c)) {
		STAT_INC(tc.cookie_errors);
		torout(" Cookie check: get_comp_state_full() does not poll as complete");
	}
}

static int start_threads(void)
{
	int (*const starters[])(void) = {
		readers_start, regorder_start, writers_start, stats_start, barrier_start, stutter_start,
		onoff_start, shuffle_start, fqs_start, stall_start, fwd_prog_start,
		read_exit_start, nocb_toggle_start, updown_start, gpwd_start, boost_start,
		preempt_start,
	};
	size_t i;

	for (i = 0; i < sizeof(starters) / sizeof(starters[0]); i++)
		if (starters[i]())
			return -1;
	return 0;
}

/* When the first failure was seen (0: none yet), for summary.json: how
 * fast a bug is caught (bin/mutation.sh's kill table). */
static unsigned long first_error_us;

/*
 * Until shutdown_secs, a signal, or (stop_on_error) the first error.
 * Returns the signal that ended the run before shutdown_secs, or 0.
 */
static int run_until_shutdown(void)
{
	unsigned long end = (unsigned long)tp.shutdown_secs * 1000000;
	char reason[256];
	int sig;

	while (!(sig = READ_ONCE(sig_stop)) &&	/* on_signal() */
	       (!end || torture_now_us() < end)) {
		torture_sleep_us(100000);
		if (!torture_errors(reason, sizeof(reason)))
			continue;
		if (!first_error_us) {
			first_error_us = torture_now_us();
			torout(" first failure after %.1f s: %s", (double)first_error_us / 1e6, reason);
		}
		if (tp.stop_on_error) {
			torout(" stop_on_error: %s after %.1f s", reason,
			       (double)torture_now_us() / 1e6);
			break;
		}
	}
	if (sig && end)
		torout(" %s after %.1f of %ld s: stopping early", signame(sig),
		       (double)torture_now_us() / 1e6, tp.shutdown_secs);
	return end ? sig : 0;	/* without shutdown_secs, a signal is the plan */
}

static void write_summary(const char *result, const char *reason, int status)
{
	char path[4096];
	FILE *f;

	if (!outdir)
		return;
	snprintf(path, sizeof(path), "%s/summary.json", outdir);
	f = fopen(path, "w");
	if (!f) {
		torture_io_check(NULL, "summary.json");
		return;
	}
	fprintf(f, "{\"scenario\":");
	json_string(f, scenario ? scenario : "");
	fprintf(f, ",\"torture_type\":");
	json_string(f, cur_ops->name);
	fprintf(f, ",\"params\":");
	params_json(f);
	fputc(',', f);
	params_said_json(f);
	fprintf(f, ",\"result\":\"%s\",\"reason\":\"%s\",\"errors\":", result, reason);
	failures_json(f);
	/* The counters (counters.c's summary places) between our own keys. */
	counters_summary(f, 1, 1);			/* oracle_checks */
	if (first_error_us)
		fprintf(f, ",\"first_error_s\":%.3f", (double)first_error_us / 1e6);
	else
		fprintf(f, ",\"first_error_s\":null");
	counters_summary(f, 2, 5);			/* gps ver reads close_calls */
	fprintf(f, ",\"duration_s\":%.3f,\"seed\":%lu,\"latency_us\":",
		(double)torture_now_us() / 1e6, tp.seed);
	torture_latency_summary(f);
	counters_summary(f, 6, 0);			/* stalls rcu_stalls, any new one */
	fprintf(f, ",\"exit_status\":%d}\n", status);
	fflush(f);
	torture_io_check(f, "summary.json");
	if (fclose(f))
		torture_io_check(NULL, "summary.json");
}

/*
 * The final drain (callback barriers) runs on the main thread; if the RCU
 * hangs there, this watchdog still gives the verdict.  finish_done says
 * that main got through (then the watchdog does nothing).
 */
static int finish_done;
static int finish(void);

static void *drain_watchdog(void *arg)
{
	unsigned long secs = (unsigned long)arg, end = torture_now_us() + secs * 1000000;

	torture_up_watcher();
	/* Gives up early once the hang watchdog (still watching the drain's
	 * barriers) has reported a hang. */
	while (torture_now_us() < end && !gp_hang_reported())
		if (smp_load_acquire(&finish_done))	/* pairs with main */
			return NULL;
		else
			usleep(100000);
	/* Exactly one of main and the watchdog wins (the exchange in finish(),
	 * fully ordered). */
	if (xchg(&finish_done, 1))
		return NULL;
	STAT_SET(torture_hung_at_stop, 1);
	torout(" callback barriers did not complete within %lu s after the stop", secs);
	writer_stall_report();
	_exit(finish());
}

static void drain_watchdog_start(void)
{
	pthread_t t;

	if (!pthread_create(&t, NULL, drain_watchdog, (void *)60UL))
		pthread_detach(t);
}

/* Threads that do not stop mean a grace period that never ends. */
static void stop_threads(void)
{
	char hung[1024];
	unsigned long timeout = 60 + (unsigned long)(tp.stall_cpu + tp.stall_gp_kthread);

	/* A hang already reported: no point in waiting long for it to end. */
	if (STAT_READ(tc.writer_stalls) > STAT_READ(tc.deliberate_stalls) ||
	    STAT_READ(tc.gp_hangs) > STAT_READ(tc.gp_hangs_deliberate))
		timeout = 5;
	if (torture_join_all(timeout, gp_hang_reported, hung, sizeof(hung))) {
		boost_restore();	/* the boost threads are gone */
		return;
	}
	STAT_SET(torture_hung_at_stop, 1);
	torout(" threads did not stop within %lu s: %s", timeout, hung);
	writer_stall_report();
}

/* The signal that ended the run early (0: none) and when (main sets). */
static int stop_sig;
static double stop_s;

/* The verdict (see the top of this file), its files and its end line. */
static int finish(void)
{
	char reason[300];
	const char *result = "SUCCESS", *io;
	int status = 0;

	if (!STAT_READ(torture_hung_at_stop)) {
		drain_watchdog_start();
		writer_final_drain();
		/* Pairs with the watchdog's exchange: one of us reports. */
		if (xchg(&finish_done, 1))
			for (;;)
				pause();	/* the watchdog is reporting the hang */
	}
	gpwd_stop();
	stall_final_check();
	stats_print(true);
	gp_state_line("End");
	reader_segments_dump();
	torture_output_close();
	if (torture_errors(reason, sizeof(reason))) {
		if (!first_error_us)
			first_error_us = torture_now_us();	/* found while stopping */
		result = "FAILURE";
		status = 1;
	} else if ((io = torture_io_error())) {
		result = "INCOMPLETE";
		status = 5;
		snprintf(reason, sizeof(reason), "%s", io);
	} else if (stop_sig) {
		result = "INCOMPLETE";
		status = 4;
		snprintf(reason, sizeof(reason), "stopped by %s after %.1f of %ld s",
			 signame(stop_sig), stop_s, tp.shutdown_secs);
	} else if (params_unhonoured(reason, sizeof(reason))) {
		/* Every check passed, but not the test the parameters asked for. */
		result = "INCOMPLETE";
		status = 6;
	}
	write_summary(result, status ? reason : "", status);
	if (status) {
		char what[320];

		snprintf(what, sizeof(what), "%s: %s:", result, reason);
		start_line("End of test: ", what);
	} else {
		start_line("End of test: SUCCESS:", "");
	}
	/* Results that could not be saved: say so where it can still be seen. */
	if (status != 1 && (io = torture_io_error())) {
		fprintf(stderr, "rcutorture: %s: free disk space (or fix the output "
			"directory) and run again\n", io);
		status = 5;
	}
	return status;
}

/*
 * Everything the command line says, checked before anything starts: the
 * findings are reported together (--check stops after them).  Returns
 * the exit status to leave with, or -1 to go on and run.
 */
static int setup(int argc, char **argv)
{
	static char own[8192];
	struct lib_arg *lib = calloc((size_t)argc, sizeof(*lib));
	char err[512];
	int list = 0, status = 0, nlib = 0;
	long nr_cpus = 0;

	if (!lib)
		return 3;
	params_parse(argc, argv, lib, &nlib, &outdir, &scenario, &list);
	if (list) {
		free(lib);
		if (list == 2)
			torture_types_list_long(stdout);
		else
			torture_types_list(stdout);
		return 0;
	}
	cur_ops = torture_type_find(tp.torture_type, err, sizeof(err), &status);
	if (!cur_ops) {
		param_finding(status == 4 ? PF_SKIP : PF_ERROR, params_type_idx(), "%s", err);
		free(lib);
		return params_report() ? (status == 4 ? 2 : status) : 0;
	}
	if (torture_up_refused()) {
		param_finding(PF_SKIP, params_type_idx(), "%s", torture_up_refused());
		free(lib);
		return params_report() ? 2 : 0;
	}
	lib_params(lib, nlib, own, sizeof(own), &nr_cpus);
	free(lib);
	ncpus_init(nr_cpus);
	params_adjust();
	reader_flavor_setup();
	updown_adjust();
	torture_slots_init(tp.nreaders);
	boost_refuse();
	preempt_refuse();
	if (writer_update_types())
		param_finding(PF_ERROR, 0, "no update-side primitives enabled for "
			      "torture_type=%s (check gp_sync/gp_exp/gp_normal/gp_cond/gp_poll)",
			      cur_ops->name);
	if (params_report())
		return 2;
	return params_check_mode() ? 0 : -1;
}

int main(int argc, char **argv)
{
	int status;

	torture_now_us();	/* the run's time origin */
	stop_signals_mask(SIG_BLOCK);	/* before any thread exists */
	status = setup(argc, argv);
	if (status >= 0)
		return status;
	if (torture_output_open(outdir))
		return 3;
	if (torture_up_setup())
		return 3;
	if (cur_ops->init && cur_ops->init())
		return 3;
	if (tp.test_srcu_lockdep)	/* before the test, as the kernel's */
		cur_ops->srcu_lockdep(tp.test_srcu_lockdep, stdout);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	start_line("Start of test:", "");
	torture_ops_lines(cur_ops->print_tree);
	gp_state_line("Start");
	if (object_debug_test())
		STAT_INC(tc.objdebug_fail);
	cookie_check_completed();
	if (start_threads()) {
		torture_request_stop();
		torout(" could not start the torture threads");
		return 3;
	}
	torture_up_watcher();
	/* One that came since "Start of test" is delivered here, at once. */
	stop_signals_mask(SIG_UNBLOCK);
	stop_sig = run_until_shutdown();
	stop_signals_mask(SIG_BLOCK);	/* the run's end is decided */
	stop_s = (double)torture_now_us() / 1e6;
	if (!stop_sig)
		test_nmis_run();	/* the kernel's, as the test ends */
	stop_threads();
	torture_up_member();	/* finish() drains the callbacks */
	status = finish();
	if (STAT_READ(torture_hung_at_stop)) {
		fflush(NULL);
		_exit(status);	/* hung threads cannot be joined */
	}
	if (cur_ops->cleanup)
		cur_ops->cleanup();
	return status;
}
