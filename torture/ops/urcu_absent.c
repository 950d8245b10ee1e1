/* SPDX-License-Identifier: MIT */
/*
 * urcu_absent.c - linked instead of urcu_built.c when liburcu-dev is
 * missing or the build says LIBURCU=0: the liburcu types are known by
 * name, listed as not built, and a run asking for one says why
 * (TORTURE_ABSENT_WHY: what to install, or that the Tiny RCU build has
 * only its own types).
 */
#include "builtin.h"

static const struct torture_ops *const none[] = { NULL };
static const char *const names[] = {
	"urcu-memb", "urcu-mb", "urcu-signal", "urcu-qsbr", "urcu-bp", NULL,
};
const struct torture_optional torture_urcu = {
	none, names, TORTURE_ABSENT_WHY("liburcu-dev"),
};
