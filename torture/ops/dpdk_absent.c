/* SPDX-License-Identifier: MIT */
/*
 * dpdk_absent.c - linked instead of dpdk_built.c when libdpdk-dev is
 * missing or the build says LIBDPDK=0: the DPDK types are listed as not
 * built.
 */
#include "builtin.h"

static const struct torture_ops *const none[] = { NULL };
static const char *const names[] = { "dpdk-qsbr", "dpdk-qsbr-scan", "dpdk-qsbr-busted", NULL };
const struct torture_optional torture_dpdk = {
	none, names, TORTURE_ABSENT_WHY("libdpdk-dev"),
};
