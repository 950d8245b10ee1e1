/* SPDX-License-Identifier: MIT */
/* ops_liburcu_signal.c - liburcu's signal flavor as torture_type urcu-signal (see liburcu_ops.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-signal.h>

#define LU_FLAVOR	signal
#define LU_NAME		"urcu-signal"
#define LU_FLAGS	0
#define LU_INIT()	urcu_signal_init()
#include "builtin.h"
#include "liburcu_ops.h"

LU_OPS_TABLE(liburcu_signal_ops);
