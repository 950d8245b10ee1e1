/* SPDX-License-Identifier: MIT */
/* ops_liburcu_memb.c - liburcu's memb flavor as torture_type urcu-memb (see liburcu_ops.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#define LU_FLAVOR	memb
#define LU_NAME		"urcu-memb"
#define LU_FLAGS	0
#define LU_INIT()	urcu_memb_init()
#include "builtin.h"
#include "liburcu_ops.h"

LU_OPS_TABLE(liburcu_memb_ops);
