/* SPDX-License-Identifier: MIT */
/*
 * urcu_built.c - the liburcu torture types, linked when liburcu-dev is
 * found (torture/torture.mk; urcu_absent.c otherwise).
 */
#include "builtin.h"

const struct torture_ops *const torture_urcu_ops[] = {
	&liburcu_memb_ops, &liburcu_mb_ops, &liburcu_signal_ops, &liburcu_qsbr_ops,
	&liburcu_bp_ops, NULL,
};
const char *const torture_urcu_absent[] = { NULL };
const char torture_urcu_why[] = "";
