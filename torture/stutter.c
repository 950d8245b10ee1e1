/* SPDX-License-Identifier: MIT */
/*
 * stutter.c - stutter: every torture thread pauses for `stutter' seconds,
 * then runs for `stutter' seconds, and so on (the kernel's
 * torture_stutter()).  Threads call stutter_wait() at the top of their
 * loops; a registered QSBR thread is offline while it waits.
 */
#include "torture.h"

static int stutter_pause;	/* 1 while paused; atomic */

bool stutter_wait(const char *who)
{
	bool waited = false;

	(void)who;
	/* Relaxed: a late look only shortens one pause. */
	while (READ_ONCE(stutter_pause) && !torture_must_stop()) {
		torture_idle_sleep_us(10000);
		waited = true;
	}
	return waited;
}

static void *torture_stutter(void *arg)
{
	unsigned long us = (unsigned long)tp.stutter * 1000000;

	(void)arg;
	torverbose(" torture_stutter task started");
	while (!torture_must_stop()) {
		torture_sleep_us(us);	/* run */
		if (torture_must_stop())
			break;
		WRITE_ONCE(stutter_pause, 1);	/* see stutter_wait() */
		torture_sleep_us(us);	/* pause */
		WRITE_ONCE(stutter_pause, 0);
	}
	WRITE_ONCE(stutter_pause, 0);	/* see stutter_wait() */
	return NULL;
}

int stutter_start(void)
{
	if (tp.stutter <= 0)
		return 0;
	return torture_spawn("torture_stutter", torture_stutter, NULL);
}
