/* SPDX-License-Identifier: MIT */
/*
 * dpdk_built.c - the DPDK torture types, linked when libdpdk-dev is found
 * (torture/torture.mk; dpdk_absent.c otherwise).
 */
#include "builtin.h"

static const struct torture_ops *const dpdk_ops[] = {
	&dpdk_qsbr_ops, &dpdk_qsbr_scan_ops, &dpdk_qsbr_busted_ops, NULL,
};
static const char *const none[] = { NULL };
const struct torture_optional torture_dpdk = { dpdk_ops, none, "" };
