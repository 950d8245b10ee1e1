/* SPDX-License-Identifier: MIT */
/*
 * read_exit.c - rcu_torture_read_exit: every read_exit_delay seconds,
 * read_exit_burst short-lived threads each register, do one read,
 * unregister and exit (reader paths at thread start and exit).
 * Stats: read-exits.
 */
#include <stdlib.h>
#include "torture.h"

static void *read_exit_child(void *arg)
{
	struct torture_random rng;

	torture_random_init(&rng, 0x5000 + (unsigned long)arg);
	if (torture_aux_register("rcu_torture_read_exit", "some exiting readers skipped", false))
		return NULL;
	if (cur_ops->flags & TORTURE_OPS_QSBR && cur_ops->quiescent_state)
		cur_ops->quiescent_state();
	rcu_torture_one_read(&rng, NULL);
	torture_reader_unregister();
	return NULL;
}

static void *rcu_torture_read_exit(void *arg)
{
	pthread_t *kids = calloc((size_t)tp.read_exit_burst, sizeof(*kids));
	unsigned long round = 0;
	long i, n;

	(void)arg;
	if (!kids)
		return NULL;
	torverbose(" rcu_torture_read_exit: Start of test");
	while (!torture_must_stop()) {
		torture_sleep_us((unsigned long)tp.read_exit_delay * 1000000);
		if (torture_must_stop())
			break;
		for (n = 0; n < tp.read_exit_burst; n++)
			if (pthread_create(&kids[n], NULL, read_exit_child,
					   (void *)(round * 1024 + (unsigned long)n)))
				break;
		for (i = 0; i < n; i++)
			pthread_join(kids[i], NULL);
		STAT_ADD(tc.read_exits, (unsigned long)n);
		round++;
		stutter_wait("rcu_torture_read_exit");
	}
	free(kids);
	return NULL;
}

int read_exit_start(void)
{
	if (tp.read_exit_burst <= 0)
		return 0;
	return torture_spawn("rcu_torture_rea", rcu_torture_read_exit, NULL);
}
