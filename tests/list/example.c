/* SPDX-License-Identifier: MIT */
/*
 * tests/list/example.c - keep rcu/examples/hashtable.c working.
 *
 * The example's code is compiled into this test (so it is built, with the
 * test's warnings and sanitizers, by every `make check'), and its demo runs
 * here: concurrent lookups against inserts, updates and deletes, then a
 * check of the final contents.  When the example binary has been built
 * ($BUILD_DIR/examples/hashtable, by rcu/examples/examples.mk) it is run as
 * well and must succeed.
 */
#define HASHTABLE_NO_MAIN
#include "../../rcu/examples/hashtable.c"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "list_test.h"

extern char **environ;

/* Run argv with stdout captured into buf; returns the wait status. */
static int run_capture(char *const argv[], char *buf, size_t len)
{
	posix_spawn_file_actions_t fa;
	int pfd[2], status = -1;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	while (got + 1 < len && (n = read(pfd[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(pfd[0]);
	waitpid(pid, &status, 0);
	return status;
}

static void run_binary(void)
{
	const char *dir = getenv("BUILD_DIR");
	char path[4096], out[4096], updates[32];
	struct stat sb;

	if (!dir)
		dir = "build";
	snprintf(path, sizeof(path), "%s/examples/hashtable", dir);
	if (stat(path, &sb) != 0) {
		ok(1, "# SKIP %s not built (rcu/examples/examples.mk not included)", path);
		return;
	}
	snprintf(updates, sizeof(updates), "%lu", lt_iters(50000, 15000));
	{
		char *argv[] = { path, (char *)"3", updates, NULL };
		int status = run_capture(argv, out, sizeof(out));

		ok(status == 0 && strstr(out, " 0 wrong values") &&
		   strstr(out, "final contents match"),
		   "%s 3 %s succeeds", path, updates);
		if (status != 0)
			diag("status %#x, output:\n%s", status, out);
	}
}

int main(void)
{
	char *text = NULL, *line;
	size_t len = 0;
	FILE *out;
	int rc;

	/* First, while this process has no threads yet. */
	run_binary();

	out = open_memstream(&text, &len);
	if (!out)
		return 2;
	rc = hashtable_demo(3, (long)lt_iters(100000, 30000), out);
	fclose(out);
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		diag("%s", line);
	ok(rc == 0, "hashtable demo: readers saw no wrong value and the final "
	   "contents match the updates");
	free(text);
	return done_testing();
}
