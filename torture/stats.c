/* SPDX-License-Identifier: MIT */
/*
 * stats.c - the stats thread (rcu_torture_stats): every stat_interval
 * seconds the kernel-format block, the same figures as one JSON line in
 * stats.jsonl, and the writer-stall check; also the end-of-test verdict.
 *
 * Writer stalls: `ver' that has not moved for max(stat_interval, 10)
 * seconds while the writer was not deliberately paused (stutter) is a
 * grace-period hang: "??? Writer stall state ..." plus the RCU's GP state.
 * A stall while a stall_cpu episode holds grace periods up (or within that
 * window after it) is deliberate: reported, counted, not a failure.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "torture.h"

#define STALL_MIN_US	10000000UL

struct torture_counters tc = { .min_on = ULONG_MAX, .min_off = ULONG_MAX };
int torture_hung_at_stop;

/* ------------------------------------------------------------------ */
/* Figures */

static unsigned long gps_now(bool *known)
{
	*known = cur_ops->gps_completed != NULL;
	return *known ? cur_ops->gps_completed() : 0;
}

/* ------------------------------------------------------------------ */
/* Console block */

static void print_hist(const char *name, const unsigned long *a, bool bang)
{
	char buf[512];
	size_t used = 0;
	int i;

	for (i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " %lu", STAT_READ(a[i]));
	torout(" %s%s: %s", bang ? "!!! " : "", name, buf);
}

static void print_block(bool bang)
{
	unsigned long minon = STAT_READ(tc.min_on), minoff = STAT_READ(tc.min_off);

	torout(" rtc: 0x%016lx ver: %lu tfle: %d rta: %lu rtaf: %lu rtf: %lu rtmbe: %lu "
	       "rtmbkf: %lu/%lu rtbe: %lu rtbke: 0 rtbf: 0 rtb: 0 nt: %lu "
	       "onoff: %lu/%lu:%lu/%lu %lu,%lu:%lu,%lu %lu:%lu (HZ=%d) barrier: %lu/%lu:%lu "
	       "read-exits: %lu nocb-toggles: %lu:%lu",
	       /* the address only, never dereferenced */
	       (unsigned long)__atomic_load_n(&rcu_torture_current, __ATOMIC_RELAXED),
	       STAT_READ(tc.ver), pool_freelist_empty(), STAT_READ(tc.rta), STAT_READ(tc.rtaf),
	       STAT_READ(tc.rtf), STAT_READ(tc.rtmbe), STAT_READ(tc.rtmbkf_fail),
	       STAT_READ(tc.rtmbkf_try), STAT_READ(tc.rtbe), STAT_READ(tc.nt),
	       STAT_READ(tc.on_ok), STAT_READ(tc.on_try), STAT_READ(tc.off_ok),
	       STAT_READ(tc.off_try), minon == ULONG_MAX ? 0 : minon, STAT_READ(tc.max_on),
	       minoff == ULONG_MAX ? 0 : minoff, STAT_READ(tc.max_off), STAT_READ(tc.sum_on),
	       STAT_READ(tc.sum_off), TORTURE_HZ, STAT_READ(tc.barrier_ok),
	       STAT_READ(tc.barrier_attempts), STAT_READ(tc.rtbe), STAT_READ(tc.read_exits),
	       STAT_READ(tc.nocb_offload), STAT_READ(tc.nocb_deoffload));
	failures_console();	/* before Reader Pipe: the judges read the last "!!!" line */
	print_hist("Reader Pipe", tc.pipe, bang);
	print_hist("Reader Batch", tc.batch, false);
	print_hist("Free-Block Circulation", tc.wcount, false);
}

/* Print every line an ops diagnostic writes, with our prefix. */
void torture_ops_lines(void (*fn)(FILE *out))
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m;

	if (!fn || !(m = open_memstream(&buf, &len)))
		return;
	fn(m);
	fclose(m);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		torout(" %s", line);
	free(buf);
}

/* ------------------------------------------------------------------ */
/* JSON line */

static void json_array(FILE *f, const char *key, const unsigned long *a)
{
	int i;

	fprintf(f, "\"%s\":[", key);
	for (i = 0; i <= RCU_TORTURE_PIPE_LEN; i++)
		fprintf(f, "%s%lu", i ? "," : "", STAT_READ(a[i]));
	fprintf(f, "],");
}

static void json_opt(FILE *f, const char *key, bool known, unsigned long v)
{
	if (known)
		fprintf(f, "\"%s\":%lu,", key, v);
	else
		fprintf(f, "\"%s\":null,", key);
}

static void json_line(bool final, unsigned long errors)
{
	FILE *f = torture_stats_file;
	unsigned long now = torture_now_us(), minon = STAT_READ(tc.min_on);
	unsigned long minoff = STAT_READ(tc.min_off);
	bool known;
	unsigned long gps = gps_now(&known);

	if (!f)
		return;
	fprintf(f, "{\"t\":%lu.%03lu,\"ver\":%lu,\"rta\":%lu,\"rtaf\":%lu,\"rtf\":%lu,"
		"\"rtmbe\":%lu,\"rtmbkf_fail\":%lu,\"rtmbkf_try\":%lu,\"rtbe\":%lu,"
		"\"rtbke\":0,\"rtbf\":0,\"rtb\":0,\"nt\":%lu,\"tfle\":%d,",
		now / 1000000, now / 1000 % 1000, STAT_READ(tc.ver), STAT_READ(tc.rta),
		STAT_READ(tc.rtaf), STAT_READ(tc.rtf), STAT_READ(tc.rtmbe),
		STAT_READ(tc.rtmbkf_fail), STAT_READ(tc.rtmbkf_try), STAT_READ(tc.rtbe),
		STAT_READ(tc.nt), pool_freelist_empty());
	json_array(f, "pipe", tc.pipe);
	json_array(f, "batch", tc.batch);
	json_array(f, "fbc", tc.wcount);
	json_opt(f, "gps", known, gps);
	if (cur_ops->get_gp_seq)	/* signed, as on the console (starts below 0) */
		fprintf(f, "\"gp_seq\":%ld,", (long)cur_ops->get_gp_seq());
	else
		fprintf(f, "\"gp_seq\":null,");
	fprintf(f, "\"reads\":%lu,\"close_calls\":%lu,\"cookie_errors\":%lu,\"leaks\":%lu,"
		"\"writer_stalls\":%lu,\"rcu_stalls\":%lu,\"barrier_ok\":%lu,"
		"\"barrier_attempts\":%lu,\"barrier_errors\":%lu,",
		STAT_READ(tc.reads), hist_sum_from(tc.batch, 2), STAT_READ(tc.cookie_errors),
		STAT_READ(tc.leaks), STAT_READ(tc.writer_stalls), STAT_READ(tc.rcu_stalls),
		STAT_READ(tc.barrier_ok), STAT_READ(tc.barrier_attempts), STAT_READ(tc.rtbe));
	fprintf(f, "\"onoff\":{\"on_ok\":%lu,\"on_try\":%lu,\"off_ok\":%lu,\"off_try\":%lu,"
		"\"min_on\":%lu,\"max_on\":%lu,\"min_off\":%lu,\"max_off\":%lu,"
		"\"sum_on\":%lu,\"sum_off\":%lu,\"failures\":%lu},",
		STAT_READ(tc.on_ok), STAT_READ(tc.on_try), STAT_READ(tc.off_ok),
		STAT_READ(tc.off_try), minon == ULONG_MAX ? 0 : minon, STAT_READ(tc.max_on),
		minoff == ULONG_MAX ? 0 : minoff, STAT_READ(tc.max_off), STAT_READ(tc.sum_on),
		STAT_READ(tc.sum_off), STAT_READ(tc.onoff_fail));
	fprintf(f, "\"read_exits\":%lu,\"nocb_toggles\":{\"offload\":%lu,\"deoffload\":%lu},",
		STAT_READ(tc.read_exits), STAT_READ(tc.nocb_offload), STAT_READ(tc.nocb_deoffload));
	fprintf(f, "\"fwd\":{\"floods\":%lu,\"n_max_cbs\":%lu,\"launders\":%lu,\"errors\":%lu},",
		STAT_READ(tc.fwd_floods), STAT_READ(tc.fwd_max_cbs), STAT_READ(tc.fwd_launders),
		STAT_READ(tc.fwd_errors));
	json_opt(f, "misuse", cur_ops->misuse_count != NULL,
		 cur_ops->misuse_count ? cur_ops->misuse_count() : 0);
	fprintf(f, "\"oracle_checks\":%lu,\"failures\":", STAT_READ(tc.gpo_checks));
	failures_json(f);
	fprintf(f, ",\"errors\":%lu,\"final\":%s}\n", errors, final ? "true" : "false");
	fflush(f);
	torture_io_check(f, "stats.jsonl");
}

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

void stats_print(bool final)
{
	char reason[256];
	unsigned long errors;

	pthread_mutex_lock(&print_lock);
	errors = torture_errors(reason, sizeof(reason));
	print_block(errors != 0);
	torture_ops_lines(cur_ops->stats);
	json_line(final, errors);
	pthread_mutex_unlock(&print_lock);
}

/* ------------------------------------------------------------------ */
/* Writer stalls */

static bool stall_deliberate(unsigned long now, unsigned long window)
{
	unsigned long s = STAT_READ(tc.stall_active);

	return s == ULONG_MAX || (s && now - s < window);
}

/* Is a stall_cpu episode holding grace periods up now (or did one, within
 * the stall window)? */
bool stall_deliberate_now(void)
{
	unsigned long window = (unsigned long)tp.stat_interval * 1000000;

	return stall_deliberate(torture_now_us(), window < STALL_MIN_US ? STALL_MIN_US : window);
}

void writer_stall_report(void)
{
	int st = __atomic_load_n(&writer_state, __ATOMIC_RELAXED);	/* diagnostics */
	unsigned long g = cur_ops->get_gp_seq ? cur_ops->get_gp_seq() : 0;

	torout(" ??? Writer stall state %s(%d) g%ld f0x0 ver %lu", writer_state_name(st),
	       st, (long)g, STAT_READ(tc.ver));
	torture_ops_lines(cur_ops->gp_state);
}

static void *rcu_torture_stats(void *arg)
{
	unsigned long window = (unsigned long)tp.stat_interval * 1000000;
	unsigned long last_ver = 0, last_change = torture_now_us();

	(void)arg;
	if (window < STALL_MIN_US)
		window = STALL_MIN_US;
	torverbose(" rcu_torture_stats task started");
	for (;;) {
		unsigned long now, ver;
		int st;

		torture_sleep_us((unsigned long)tp.stat_interval * 1000000);
		if (torture_must_stop())
			break;
		stats_print(false);
		now = torture_now_us();
		ver = STAT_READ(tc.ver);
		st = __atomic_load_n(&writer_state, __ATOMIC_RELAXED);	/* diagnostics */
		if (ver != last_ver || writer_paused(st)) {
			last_ver = ver;
			last_change = now;
		} else if (now - last_change >= window) {
			writer_stall_report();
			STAT_INC(tc.writer_stalls);
			if (stall_deliberate(now, window))
				STAT_INC(tc.deliberate_stalls);
		}
	}
	return NULL;
}

int stats_start(void)
{
	if (tp.stat_interval <= 0)
		return 0;
	return torture_spawn("rcu_torture_sta", rcu_torture_stats, NULL);
}
