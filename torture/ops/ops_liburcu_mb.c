/* SPDX-License-Identifier: MIT */
/* ops_liburcu_mb.c - liburcu's mb flavor as torture_type urcu-mb (see liburcu_ops.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-mb.h>

#define LU_FLAVOR	mb
#define LU_NAME		"urcu-mb"
#define LU_FLAGS	0
#define LU_INIT()	urcu_mb_init()
#include "builtin.h"
#include "liburcu_ops.h"

LU_OPS_TABLE(liburcu_mb_ops);
