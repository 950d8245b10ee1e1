/* SPDX-License-Identifier: MIT */
/*
 * output.c - the console (kernel-shaped lines, "<type>-torture:" prefix,
 * flushed line by line) and the files under --out DIR: stats.jsonl is
 * written by stats.c, gp-latency.dat here (one line per grace period the
 * writer or a fakewriter waited for), summary.json by main.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "torture.h"

FILE *torture_stats_file, *torture_latency_file;

static const char *prefix(void)
{
	return cur_ops ? cur_ops->name : tp.torture_type;
}

static void vtorout(const char *fmt, va_list ap)
{
	if (params_check_mode())
		return;		/* --check prints its findings only */
	flockfile(stdout);
	printf("%s-torture:", prefix());
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
	torture_io_check(stdout, "the console (stdout)");
	funlockfile(stdout);
}

/* ------------------------------------------------------------------ */
/* Results that could not be written (a full disk): the first failure. */

static pthread_mutex_t io_lock = PTHREAD_MUTEX_INITIALIZER;
static char io_error[300];	/* "cannot write WHAT: REASON" (io_lock) */

void torture_io_check(FILE *f, const char *what)
{
	int e = errno;	/* right after the failed call */

	if (f && !ferror(f))
		return;
	pthread_mutex_lock(&io_lock);
	if (!io_error[0])
		snprintf(io_error, sizeof(io_error), "cannot write %s: %s", what, strerror(e));
	pthread_mutex_unlock(&io_lock);
}

const char *torture_io_error(void)
{
	const char *r;

	pthread_mutex_lock(&io_lock);
	r = io_error[0] ? io_error : NULL;	/* set once, never changed */
	pthread_mutex_unlock(&io_lock);
	return r;
}

void torout(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtorout(fmt, ap);
	va_end(ap);
}

void torverbose(const char *fmt, ...)
{
	va_list ap;

	if (!tp.verbose)
		return;
	va_start(ap, fmt);
	vtorout(fmt, ap);
	va_end(ap);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* ------------------------------------------------------------------ */
/* Grace-period latencies: the file, and every sample kept for summary. */

static pthread_mutex_t lat_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long lat_ewma_us;	/* writer/fakewriter GP waits, smoothed;
					 * relaxed: a hint for the readers */

unsigned long torture_gp_latency_us(void)
{
	return READ_ONCE(lat_ewma_us);	/* a hint */
}
static uint32_t *lat;		/* microseconds (lat_lock) */
static size_t nlat, lat_cap;
static double lat_sum;

void torture_record_gp(const char *kind, unsigned long start_us)
{
	unsigned long now = torture_now_us(), us = now - start_us;

	pthread_mutex_lock(&lat_lock);
	/* 1/8 weight to the new sample (lat_lock serialises writers). */
	WRITE_ONCE(lat_ewma_us, lat_ewma_us ? lat_ewma_us - lat_ewma_us / 8 + us / 8 : us);
	if (torture_latency_file)
		fprintf(torture_latency_file, "%lu.%06lu %s %lu\n", now / 1000000,
			now % 1000000, kind, us);
	if (nlat == lat_cap) {
		size_t cap = lat_cap ? 2 * lat_cap : 4096;
		uint32_t *n = realloc(lat, cap * sizeof(*n));

		if (n) {
			lat = n;
			lat_cap = cap;
		}
	}
	if (nlat < lat_cap) {
		lat[nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
		lat_sum += (double)us;
	}
	pthread_mutex_unlock(&lat_lock);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t pct(size_t n, double p)
{
	size_t i = (size_t)(p * (double)(n - 1) + 0.5);

	return lat[i < n ? i : n - 1];
}

void torture_latency_summary(FILE *out)
{
	pthread_mutex_lock(&lat_lock);
	if (!nlat) {
		fprintf(out, "{\"count\":0,\"min\":null,\"p50\":null,\"p90\":null,"
			"\"p99\":null,\"max\":null,\"mean\":null}");
	} else {
		qsort(lat, nlat, sizeof(*lat), cmp_u32);
		fprintf(out, "{\"count\":%zu,\"min\":%u,\"p50\":%u,\"p90\":%u,\"p99\":%u,"
			"\"max\":%u,\"mean\":%.1f}", nlat, lat[0], pct(nlat, 0.5),
			pct(nlat, 0.9), pct(nlat, 0.99), lat[nlat - 1], lat_sum / (double)nlat);
	}
	pthread_mutex_unlock(&lat_lock);
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "rcutorture: --out %s: cannot create %s: %s\n", dir, path,
			strerror(errno));
	return f;
}

int torture_output_open(const char *dir)
{
	if (!dir)
		return 0;
	mkdir(dir, 0777);	/* may exist; fopen() reports real problems */
	torture_stats_file = open_in(dir, "stats.jsonl");
	torture_latency_file = open_in(dir, "gp-latency.dat");
	if (!torture_stats_file || !torture_latency_file)
		return -1;
	fprintf(torture_latency_file, "# t_seconds kind latency_us\n");
	return 0;
}

/* Close a results file, noting a write that failed on the way. */
static void close_checked(FILE *f, const char *what)
{
	if (!f)
		return;
	fflush(f);
	torture_io_check(f, what);
	if (fclose(f))
		torture_io_check(NULL, what);
}

void torture_output_close(void)
{
	pthread_mutex_lock(&lat_lock);
	close_checked(torture_latency_file, "gp-latency.dat");
	torture_latency_file = NULL;
	pthread_mutex_unlock(&lat_lock);
	close_checked(torture_stats_file, "stats.jsonl");
	torture_stats_file = NULL;
}
