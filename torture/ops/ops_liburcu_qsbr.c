/* SPDX-License-Identifier: MIT */
/* ops_liburcu_qsbr.c - liburcu's qsbr flavor as torture_type urcu-qsbr (see liburcu_ops.h). */
#define _LGPL_SOURCE
#include <urcu/urcu-qsbr.h>

#define LU_FLAVOR	qsbr
#define LU_NAME		"urcu-qsbr"
#define LU_FLAGS	TORTURE_OPS_QSBR
#define LU_INIT()	
#include "builtin.h"
#include "liburcu_ops.h"

LU_OPS_TABLE(liburcu_qsbr_ops);
