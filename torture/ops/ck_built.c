/* SPDX-License-Identifier: MIT */
/*
 * ck_built.c - the Concurrency Kit torture types, linked when libck-dev is
 * found (torture/torture.mk; ck_absent.c otherwise).
 */
#include "builtin.h"

static const struct torture_ops *const ck_ops[] = { &ck_epoch_ops, &ck_epoch_busted_ops, NULL };
static const char *const none[] = { NULL };
const struct torture_optional torture_ck = { ck_ops, none, "" };
