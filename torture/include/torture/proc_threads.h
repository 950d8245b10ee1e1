/* SPDX-License-Identifier: MIT */
/*
 * torture/proc_threads.h - sums over this process's threads, read from
 * /proc/self/task: context switches (voluntary + not) and CPU time.  For
 * the tests and benchmarks that check that the library's threads sleep
 * when nothing is to be done (not part of the ops ABI of ops.h).
 */
#ifndef TORTURE_PROC_THREADS_H
#define TORTURE_PROC_THREADS_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Context switches of the task whose /proc folder is d. */
static inline long proc_task_switches(const char *d)
{
	char path[320], line[128];
	long sum = 0, v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/status", d);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
			sum += v;
	fclose(f);
	return sum;
}

/* Nanoseconds on a CPU of the task whose /proc folder is d (schedstat's
 * first field). */
static inline long proc_task_cpu_ns(const char *d)
{
	char path[320];
	long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/schedstat", d);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%ld", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/*
 * The sum of get() over the threads that match() accepts (by thread id
 * and name, comm); *nthreads: how many matched.
 */
static inline long proc_threads_sum(bool (*match)(long tid, const char *comm),
				    long (*get)(const char *d), int *nthreads)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	long sum = 0;

	*nthreads = 0;
	while (dir && (de = readdir(dir))) {
		char d[300], path[320], comm[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(d, sizeof(d), "/proc/self/task/%s", de->d_name);
		snprintf(path, sizeof(path), "%s/comm", d);
		if (!(f = fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
		if (!match(atol(de->d_name), comm))
			continue;
		(*nthreads)++;
		sum += get(d);
	}
	if (dir)
		closedir(dir);
	return sum;
}

#endif /* TORTURE_PROC_THREADS_H */
