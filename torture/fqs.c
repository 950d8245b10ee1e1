/* SPDX-License-Identifier: MIT */
/*
 * fqs.c - the fqs thread (rcu_torture_fqs): every fqs_stutter seconds, a
 * burst of ops->fqs() calls, one every fqs_holdoff us for fqs_duration us,
 * racing forced quiescent-state scans against grace periods that end on
 * their own.  Ignored when the RCU has no fqs().
 */
#include "torture.h"

static void *rcu_torture_fqs(void *arg)
{
	(void)arg;
	torverbose(" rcu_torture_fqs task started");
	while (!torture_must_stop()) {
		unsigned long end;

		torture_sleep_us((unsigned long)tp.fqs_stutter * 1000000);
		end = torture_now_us() + (unsigned long)tp.fqs_duration;
		while (torture_now_us() < end && !torture_must_stop()) {
			cur_ops->fqs();
			torture_sleep_us((unsigned long)tp.fqs_holdoff);
		}
		stutter_wait("rcu_torture_fqs");
	}
	return NULL;
}

int fqs_start(void)
{
	if (!tp.fqs_duration || !tp.fqs_holdoff)
		return 0;
	if (!cur_ops->fqs) {
		torout(" fqs_duration ignored: %s has no fqs()", cur_ops->name);
		return 0;
	}
	return torture_spawn("rcu_torture_fqs", rcu_torture_fqs, NULL);
}
