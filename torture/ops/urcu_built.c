/* SPDX-License-Identifier: MIT */
/*
 * urcu_built.c - the liburcu torture types, linked when liburcu-dev is
 * found (torture/torture.mk; urcu_absent.c otherwise).
 */
#include "builtin.h"

static const struct torture_ops *const urcu_ops[] = {
	&liburcu_memb_ops, &liburcu_mb_ops, &liburcu_signal_ops, &liburcu_qsbr_ops,
	&liburcu_bp_ops, NULL,
};
static const char *const none[] = { NULL };
const struct torture_optional torture_urcu = { urcu_ops, none, "" };
