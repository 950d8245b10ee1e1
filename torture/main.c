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
 * ncpus-2-n, at least 1 (as in the kernel).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "torture.h"

const struct torture_ops *cur_ops;
long torture_ncpus;
static const char *outdir, *scenario;
static int sig_stop;

static void on_signal(int sig)
{
	(void)sig;
	__atomic_store_n(&sig_stop, 1, __ATOMIC_RELAXED);	/* polled by run_until_shutdown() */
}

/* ------------------------------------------------------------------ */
/* Parameters of the RCU under test */

/* Split libargs into the RCU's own and the not-applicable ones (noted
 * on one line). */
static int lib_params(const char *libargs, char *own, size_t len)
{
	char buf[8192], na[8192] = "", *tok, *save = NULL, err[512];

	snprintf(buf, sizeof(buf), "%s", libargs);
	own[0] = '\0';
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char name[256];
		char *to;

		snprintf(name, sizeof(name), "%.*s", (int)strcspn(tok, "="), tok);
		if (cur_ops->param_known && cur_ops->param_known(name)) {
			to = own;
		} else if (torture_param_known_elsewhere(name)) {
			to = na;
		} else {
			fprintf(stderr, "rcutorture: unknown parameter '%s'\n", name);
			return -1;
		}
		snprintf(to + strlen(to), (to == own ? len : sizeof(na)) - strlen(to), "%s%s",
			 to[0] ? " " : "", tok);
	}
	if (na[0])
		torout(" not applicable to torture_type=%s, ignored: %s", cur_ops->name, na);
	if (own[0] && cur_ops->boot_params && cur_ops->boot_params(own, err, sizeof(err))) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return -1;
	}
	return 0;
}

/* The value of the last "name=" token in args, or -1. */
static long last_value(const char *args, const char *name)
{
	size_t n = strlen(name);
	const char *p;
	long v = -1;

	for (p = args; (p = strstr(p, name)); p += n)
		if (p == args || p[-1] == ' ')
			v = strtol(p + n, NULL, 0);
	return v;
}

static void ncpus_init(const char *own)
{
	long nr = last_value(own, "nr_cpus=");

	torture_ncpus = tp.maxcpus ? tp.maxcpus : nr > 0 ? nr : sysconf(_SC_NPROCESSORS_ONLN);
	if (torture_ncpus < 1)
		torture_ncpus = 1;
	if (tp.nreaders < 0) {
		tp.nreaders = torture_ncpus - 2 - tp.nreaders;
		if (tp.nreaders < 1)
			tp.nreaders = 1;
	}
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
		torout(" fwd_progress disabled for torture_type=%s", cur_ops->name);
		tp.fwd_progress = 0;
	}
	if (tp.fwd_progress && (!cur_ops->call || !cur_ops->cb_barrier)) {
		torout(" fwd_progress disabled: %s has no call()/cb_barrier()", cur_ops->name);
		tp.fwd_progress = 0;
	}
	if (tp.fwd_progress && tp.stall_cpu > 0) {
		torout(" fwd_progress disabled: stall_cpu>0");
		tp.fwd_progress = 0;
	}
	if (tp.fwd_progress > 1) {
		torout(" fwd_progress=%ld: one forward-progress thread is run", tp.fwd_progress);
		tp.fwd_progress = 1;
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
	fflush(stdout);
	funlockfile(stdout);
}

static void start_line(const char *what, const char *result)
{
	flockfile(stdout);
	printf("%s-torture:--- %s%s ", cur_ops->name, what, result);
	params_print(stdout);
	printf("\n");
	fflush(stdout);
	funlockfile(stdout);
}

/* "Cookie check 4": a completed-state cookie always polls as complete. */
static void cookie_check4(void)
{
	if (!cur_ops->get_comp_state || !cur_ops->poll_gp_state)
		return;
	if (!cur_ops->poll_gp_state(cur_ops->get_comp_state())) {
		STAT_INC(tc.cookie_errors);
		torout(" Cookie check 4: get_comp_state() does not poll as complete");
	}
}

static int start_threads(void)
{
	int (*const starters[])(void) = {
		readers_start, writers_start, stats_start, barrier_start, stutter_start,
		onoff_start, shuffle_start, fqs_start, stall_start, fwd_prog_start,
		read_exit_start, gpwd_start,
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

/* Until shutdown_secs, a signal, or (stop_on_error) the first error. */
static void run_until_shutdown(void)
{
	unsigned long end = (unsigned long)tp.shutdown_secs * 1000000;
	char reason[256];

	while (!__atomic_load_n(&sig_stop, __ATOMIC_RELAXED) &&	/* set by on_signal() */
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
}

static void write_summary(const char *result, const char *reason, int status)
{
	char path[4096];
	FILE *f;
	bool gk = cur_ops->gps_completed != NULL;

	if (!outdir)
		return;
	snprintf(path, sizeof(path), "%s/summary.json", outdir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "rcutorture: cannot write %s\n", path);
		return;
	}
	fprintf(f, "{\"scenario\":");
	json_string(f, scenario ? scenario : "");
	fprintf(f, ",\"torture_type\":");
	json_string(f, cur_ops->name);
	fprintf(f, ",\"params\":");
	params_json(f);
	fprintf(f, ",\"result\":\"%s\",\"reason\":\"%s\",\"errors\":", result, reason);
	failures_json(f);
	fprintf(f, ",\"oracle_checks\":%lu,", STAT_READ(tc.gpo_checks));
	if (first_error_us)
		fprintf(f, "\"first_error_s\":%.3f,", (double)first_error_us / 1e6);
	else
		fprintf(f, "\"first_error_s\":null,");
	if (gk)
		fprintf(f, "\"gps\":%lu,", cur_ops->gps_completed());
	else
		fprintf(f, "\"gps\":null,");
	fprintf(f, "\"ver\":%lu,\"reads\":%lu,\"close_calls\":%lu,\"duration_s\":%.3f,"
		"\"seed\":%lu,\"latency_us\":", STAT_READ(tc.ver), STAT_READ(tc.reads),
		hist_sum_from(tc.batch, 2),
		(double)torture_now_us() / 1e6, tp.seed);
	torture_latency_summary(f);
	fprintf(f, ",\"stalls\":%lu,\"rcu_stalls\":%lu,\"exit_status\":%d}\n",
		STAT_READ(tc.writer_stalls) + STAT_READ(tc.rcu_stalls), STAT_READ(tc.rcu_stalls),
		status);
	fclose(f);
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

	/* Gives up early once the hang watchdog (still watching the drain's
	 * barriers) has reported a hang. */
	while (torture_now_us() < end && !gp_hang_reported())
		if (__atomic_load_n(&finish_done, __ATOMIC_ACQUIRE))	/* pairs with main */
			return NULL;
		else
			usleep(100000);
	/* Exactly one of main and the watchdog wins (the exchange in finish()). */
	if (__atomic_exchange_n(&finish_done, 1, __ATOMIC_ACQ_REL))
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
	unsigned long timeout = 60 + (unsigned long)tp.stall_cpu;

	/* A hang already reported: no point in waiting long for it to end. */
	if (STAT_READ(tc.writer_stalls) > STAT_READ(tc.deliberate_stalls) ||
	    STAT_READ(tc.gp_hangs) > STAT_READ(tc.gp_hangs_deliberate))
		timeout = 5;
	if (torture_join_all(timeout, gp_hang_reported, hung, sizeof(hung)))
		return;
	STAT_SET(torture_hung_at_stop, 1);
	torout(" threads did not stop within %lu s: %s", timeout, hung);
	writer_stall_report();
}

static int finish(void)
{
	char reason[256];
	unsigned long errors;
	int status;

	if (!STAT_READ(torture_hung_at_stop)) {
		drain_watchdog_start();
		writer_final_drain();
		/* Pairs with the watchdog's exchange: one of us reports. */
		if (__atomic_exchange_n(&finish_done, 1, __ATOMIC_ACQ_REL))
			for (;;)
				pause();	/* the watchdog is reporting the hang */
	}
	gpwd_stop();
	stall_final_check();
	stats_print(true);
	gp_state_line("End");
	reader_segments_dump();
	errors = torture_errors(reason, sizeof(reason));
	if (errors && !first_error_us)
		first_error_us = torture_now_us();	/* found while stopping */
	status = errors ? 1 : 0;
	write_summary(errors ? "FAILURE" : "SUCCESS", reason, status);
	if (errors) {
		char what[300];

		snprintf(what, sizeof(what), "%s:", reason);
		start_line("End of test: FAILURE: ", what);
	} else {
		start_line("End of test: SUCCESS:", "");
	}
	torture_output_close();
	return status;
}

int main(int argc, char **argv)
{
	static char libargs[8192], own[8192];
	char err[512];
	int list = 0, status = 0;

	torture_now_us();	/* the run's time origin */
	if (params_parse(argc, argv, libargs, sizeof(libargs), &outdir, &scenario, &list))
		return 2;
	if (list) {
		torture_types_list(stdout);
		return 0;
	}
	cur_ops = torture_type_find(tp.torture_type, err, sizeof(err), &status);
	if (!cur_ops) {
		fprintf(stderr, "rcutorture: %s\n", err);
		return status;
	}
	if (lib_params(libargs, own, sizeof(own)))
		return 2;
	ncpus_init(own);
	params_adjust();
	if (torture_slots_init(tp.nreaders))
		return 2;
	if (writer_update_types()) {
		fprintf(stderr, "rcutorture: no update-side primitives enabled for "
			"torture_type=%s (check gp_sync/gp_exp/gp_normal/gp_cond/gp_poll)\n",
			cur_ops->name);
		return 2;
	}
	if (torture_output_open(outdir))
		return 3;
	if (cur_ops->init && cur_ops->init())
		return 3;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	start_line("Start of test:", "");
	torture_ops_lines(cur_ops->print_tree);
	gp_state_line("Start");
	if (object_debug_test())
		STAT_INC(tc.objdebug_fail);
	cookie_check4();
	if (start_threads()) {
		torture_request_stop();
		torout(" could not start the torture threads");
		return 3;
	}
	run_until_shutdown();
	stop_threads();
	status = finish();
	if (STAT_READ(torture_hung_at_stop)) {
		fflush(NULL);
		_exit(status);	/* hung threads cannot be joined */
	}
	if (cur_ops->cleanup)
		cur_ops->cleanup();
	return status;
}
