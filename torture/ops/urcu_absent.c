/* SPDX-License-Identifier: MIT */
/*
 * urcu_absent.c - linked instead of urcu_built.c when liburcu-dev is
 * missing or the build says LIBURCU=0: the liburcu types are known by
 * name, listed as not built, and a run asking for one says what to install
 * (the Tiny RCU build, which has only its own types, says so instead:
 * torture.mk defines TORTURE_URCU_WHY).
 */
#include "builtin.h"

#ifndef TORTURE_URCU_WHY
#define TORTURE_URCU_WHY	"not built: install liburcu-dev (and rebuild)"
#endif

const struct torture_ops *const torture_urcu_ops[] = { NULL };
const char *const torture_urcu_absent[] = {
	"urcu-memb", "urcu-mb", "urcu-signal", "urcu-qsbr", "urcu-bp", NULL,
};
const char torture_urcu_why[] = TORTURE_URCU_WHY;
