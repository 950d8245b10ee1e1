/* SPDX-License-Identifier: MIT */
/*
 * ck_absent.c - linked instead of ck_built.c when libck-dev is missing or
 * the build says LIBCK=0: the ck types are listed as not built.
 */
#include "builtin.h"

static const struct torture_ops *const none[] = { NULL };
static const char *const names[] = { "ck-epoch", "ck-epoch-busted", NULL };
const struct torture_optional torture_ck = {
	none, names, TORTURE_ABSENT_WHY("libck-dev"),
};
