/* SPDX-License-Identifier: MIT */
/*
 * urcu_absent.c - linked instead of urcu_built.c when liburcu-dev is
 * missing or the build says LIBURCU=0: the liburcu types are known by
 * name, listed as not built, and a run asking for one says what to install.
 */
#include "builtin.h"

const struct torture_ops *const torture_urcu_ops[] = { NULL };
const char *const torture_urcu_absent[] = {
	"urcu-memb", "urcu-mb", "urcu-signal", "urcu-qsbr", "urcu-bp", NULL,
};
const char torture_urcu_why[] = "not built: install liburcu-dev (and rebuild)";
