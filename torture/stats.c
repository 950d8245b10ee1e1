/* SPDX-License-Identifier: MIT */
/*
 * stats.c - the stats thread (rcu_torture_stats): every stat_interval
 * seconds the kernel-format block and the same figures as one JSON line in
 * stats.jsonl (both made from counters.c's table), and the writer-stall
 * check.
 *
 * Writer stalls: `ver' that has not moved for max(stat_interval, 10)
 * seconds while the writer was not deliberately paused (stutter) is a
 * grace-period hang: "??? Writer stall state ..." plus the RCU's GP state.
 * A stall while a stall episode (stall_cpu, stall_gp_kthread) holds grace
 * periods up (or within that window after it) is deliberate: reported,
 * counted, not a failure.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "torture.h"

#define STALL_MIN_US	10000000UL

struct torture_counters tc = { .min_on = ULONG_MAX, .min_off = ULONG_MAX };
int torture_hung_at_stop;

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

/* One stats.jsonl line: the time, every counter, the verdict so far. */
static void json_line(bool final, unsigned long errors)
{
	FILE *f = torture_stats_file;
	unsigned long now = torture_now_us();

	if (!f)
		return;
	fprintf(f, "{\"t\":%lu.%03lu,", now / 1000000, now / 1000 % 1000);
	counters_json(f);
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
	counters_console(errors != 0);
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

/* Is a stall episode holding grace periods up now (or did one, within
 * the stall window)? */
bool stall_deliberate_now(void)
{
	unsigned long window = (unsigned long)tp.stat_interval * 1000000;

	return stall_deliberate(torture_now_us(), window < STALL_MIN_US ? STALL_MIN_US : window);
}

void writer_stall_report(void)
{
	int st = READ_ONCE(writer_state);	/* diagnostics */
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
	torture_up_watcher();	/* sees a group thread that spins */
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
		st = READ_ONCE(writer_state);	/* diagnostics */
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
