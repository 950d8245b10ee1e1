/* SPDX-License-Identifier: MIT */
/*
 * tests/rcu/membarrier.c - the readers' fence, both ways (rcu/src/
 * membarrier.c): the library relies on membarrier() exactly when the
 * kernel (or qemu-user, tests/lib/qemu-tests) offers the private
 * expedited command, and falls back to readers that fence themselves
 * when it does not or when told so (rcupdate.use_membarrier=0, in a
 * fresh copy of the program): in both, synchronize_rcu() waits for a
 * reader inside its section and only for it.
 */
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "rcu_holder.h"

static int kernel_offers(void)
{
	long m = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	return m >= 0 && (m & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}

int main(int argc, char **argv)
{
	char buf[4096];
	int st, ok_child;

	if (argc > 1 && !strcmp(argv[1], "fallback")) {
		/* The child: RCU_BOOTARGS says rcupdate.use_membarrier=0. */
		rcu_init();
		printf("has_membarrier=%d\n", lrcu_has_membarrier);
		reader_blocks(R_RCU, synchronize_rcu, NULL, "fall-back");
		return tap_exit_status();
	}
	plan(6);
	rcu_init();
#ifdef LRCU_TSAN
	ok(!lrcu_has_membarrier, "ThreadSanitizer: readers fence themselves (membarrier() %s here)",
	   kernel_offers() ? "offered" : "not offered");
#else
	ok(lrcu_has_membarrier == kernel_offers(),
	   "membarrier() in use (%d) exactly when the kernel offers it (%d)",
	   lrcu_has_membarrier, kernel_offers());
#endif
	reader_blocks(R_RCU, synchronize_rcu, NULL, lrcu_has_membarrier ?
		      "membarrier()" : "fall-back (no membarrier() here)");
	st = run_self("fallback", NULL, "rcupdate.use_membarrier=0", buf, sizeof(buf));
	ok_child = WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(buf, "has_membarrier=0\n") &&
		   !strstr(buf, "not ok");
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ';';	/* the child's TAP lines, as one diagnostic */
	ok(ok_child,
	   "rcupdate.use_membarrier=0: the fall-back, and synchronize_rcu() waits for the reader only (child status %d: %s)",
	   st, buf);
	return tap_exit_status();
}
