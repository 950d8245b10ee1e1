/* SPDX-License-Identifier: MIT */
/* ops_liburcu_bp.c - liburcu's bp flavor as torture_type urcu-bp (see liburcu_ops.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-bp.h>

#define LU_FLAVOR	bp
#define LU_NAME		"urcu-bp"
#define LU_FLAGS	0
#define LU_INIT()	
#include "builtin.h"
#include "liburcu_ops.h"

LU_OPS_TABLE(liburcu_bp_ops);
