/* SPDX-License-Identifier: MIT */
/*
 * onoff.c - the CPU-hotplug analogue (the kernel's torture_onoff): after
 * onoff_holdoff seconds, every onoff_interval jiffies (ms) pick a random
 * reader: if it is online, ask it to go offline (an extended quiescent
 * state, thread_offline()) or, one time in two, to unregister ("CPU
 * offline"); if it is offline, ask it to come back.  The reader does the
 * transition itself at the top of its loop (reader.c) and acknowledges.
 * Durations (ms) are the kernel's onoff: statistics; an attempt the
 * reader does not acknowledge within 30 s is a failure (RCU_HOTPLUG).
 * When the RCU numbers its CPUs in groups (ops->cpu_group: our rcu_node
 * leaves), one pick in four unregisters every online reader of the
 * picked reader's group at once, so that a whole leaf empties (they come
 * back one by one, each on a random free CPU).
 */
#include <limits.h>
#include "torture.h"

#define ONOFF_ACK_TIMEOUT_US	30000000UL

static void stat_minmax(unsigned long *min, unsigned long *max, unsigned long *sum,
			unsigned long v)
{
	if (v < STAT_READ(*min))
		STAT_SET(*min, v);
	if (v > STAT_READ(*max))
		STAT_SET(*max, v);
	STAT_ADD(*sum, v);
}

/* Ask r for state `req' and wait for the acknowledgement; true if it came. */
static bool onoff_request(struct torture_reader *r, int req, unsigned long *ms)
{
	unsigned long start = torture_now_us();

	/* Release/acquire pair with reader_onoff(). */
	smp_store_release(&r->onoff_req, req);
	while (smp_load_acquire(&r->onoff_ack) != req) {	/* reader_onoff() */
		if (torture_must_stop() || torture_now_us() - start > ONOFF_ACK_TIMEOUT_US)
			return false;
		torture_sleep_us(100);
	}
	*ms = (torture_now_us() - start) / 1000;
	return true;
}

static void onoff_one(struct torture_reader *r, struct torture_random *rng)
{
	unsigned long ms;
	int cur = smp_load_acquire(&r->onoff_ack);	/* reader_onoff()'s release */

	if (cur == ONOFF_ONLINE) {
		int req = (torture_random(rng) & 1) ? ONOFF_UNREGISTERED : ONOFF_OFFLINE;

		STAT_INC(tc.off_try);
		if (onoff_request(r, req, &ms)) {
			STAT_INC(tc.off_ok);
			stat_minmax(&tc.min_off, &tc.max_off, &tc.sum_off, ms);
		} else if (!torture_must_stop()) {
			STAT_INC(tc.onoff_fail);
			torout(" torture_onoff: reader %d did not go offline", r->id);
		}
		return;
	}
	STAT_INC(tc.on_try);
	if (onoff_request(r, ONOFF_ONLINE, &ms)) {
		STAT_INC(tc.on_ok);
		stat_minmax(&tc.min_on, &tc.max_on, &tc.sum_on, ms);
	} else if (!torture_must_stop()) {
		STAT_INC(tc.onoff_fail);
		torout(" torture_onoff: reader %d did not come back online", r->id);
	}
}

/* Unregister every online reader of r's group: the group empties. */
static void onoff_group(struct torture_reader *r, struct torture_random *rng)
{
	int g = torture_cpu_group(READ_ONCE(r->cpu));	/* a hint */
	long i;
	unsigned long ms;

	if (g < 0) {
		onoff_one(r, rng);
		return;
	}
	for (i = 0; i < tp.nreaders && !torture_must_stop(); i++) {
		struct torture_reader *o = &torture_readers[i];

		/* Acquire pairs with reader_onoff()'s release of the ack. */
		if (smp_load_acquire(&o->onoff_ack) != ONOFF_ONLINE ||
		    torture_cpu_group(READ_ONCE(o->cpu)) != g)
			continue;
		STAT_INC(tc.off_try);
		if (onoff_request(o, ONOFF_UNREGISTERED, &ms)) {
			STAT_INC(tc.off_ok);
			stat_minmax(&tc.min_off, &tc.max_off, &tc.sum_off, ms);
		} else if (!torture_must_stop()) {
			STAT_INC(tc.onoff_fail);
			torout(" torture_onoff: reader %ld did not go offline", i);
		}
	}
}

static void *torture_onoff(void *arg)
{
	struct torture_random rng;
	long i;

	(void)arg;
	torture_random_init(&rng, 0x8000);
	torverbose(" torture_onoff task started");
	torture_sleep_us((unsigned long)tp.onoff_holdoff * 1000000);
	while (!torture_must_stop()) {
		struct torture_reader *r =
			&torture_readers[torture_random(&rng) % (unsigned long)tp.nreaders];

		/* Acquire pairs with reader_onoff()'s release of the ack. */
		if (!(torture_random(&rng) % 4) &&
		    smp_load_acquire(&r->onoff_ack) == ONOFF_ONLINE)
			onoff_group(r, &rng);
		else
			onoff_one(r, &rng);
		torture_hrtimeout_us((unsigned long)tp.onoff_interval * 1000, 0, &rng);
	}
	/* Leave every reader online so that it can stop normally. */
	for (i = 0; i < tp.nreaders; i++)
		/* Pairs with the acquire loads in reader_onoff(). */
		smp_store_release(&torture_readers[i].onoff_req, ONOFF_ONLINE);
	return NULL;
}

int onoff_start(void)
{
	if (tp.onoff_interval <= 0 || tp.nreaders <= 0)
		return 0;
	if (!cur_ops->thread_register) {
		/* In the verdict too: the run tests no hotplug. */
		params_ignore("onoff_interval", "%s has no thread registration, so no CPU-hotplug "
			      "analogue (its readers are any thread)", cur_ops->name);
		return 0;
	}
	return torture_spawn("torture_onoff", torture_onoff, NULL);
}
