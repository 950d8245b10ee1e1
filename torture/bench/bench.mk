# torture/bench/: benchmarks that are not perf programs on the ops table
# (those are torture/perf/: refscale, rcuscale), built by `make`, never run
# by `make check` (speed is measured, not tested).
#
#   $(BUILD)/bench/idle_wakeups wakeups per second of the RCU's threads in an
#                               otherwise idle program that frees now and
#                               then: lazy, not lazy, offloaded, liburcu's
#                               call_rcu worker; JSON lines

BENCH_IDLE      := $(BUILD)/bench/idle_wakeups
BENCH_IDLE_OBJS := $(BUILD)/obj/torture/bench/idle_wakeups.o
BENCH_IDLE_LIBS :=

# The liburcu side follows torture's LIBURCU choice (torture/torture.mk):
# one object or the other, never both, so that installing liburcu-dev
# after a first build relinks instead of defining things twice.
ifeq ($(LIBURCU),1)
EXTRA_CFLAGS_torture/bench/ += $(shell pkg-config --cflags liburcu-memb)
BENCH_IDLE_OBJS += $(BUILD)/obj/torture/bench/idle_wakeups_urcu.o
BENCH_IDLE_LIBS += $(shell pkg-config --libs liburcu-memb)
else
BENCH_IDLE_OBJS += $(BUILD)/obj/torture/bench/idle_wakeups_absent.o
endif

all: $(BENCH_IDLE)

$(BENCH_IDLE): $(BENCH_IDLE_OBJS) $(LIB_A) $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_IDLE_OBJS) $(LIB_A) $(BENCH_IDLE_LIBS) $(LDLIBS)

# $(BUILD)/bench/readloop-FLAVOR: the read side as a plain program, one
# source built per flavor with the same plain flags (not the project's
# -fPIC), ours against librcu.so as a user links it, liburcu's against
# its shared libraries, ck's and DPDK's against theirs (bin/compare-liburcu.sh's
# cross-check of refscale).
READLOOP_OURS := rcu sched sched-free srcu srcu-fast
READLOOP_URCU := $(if $(filter 1,$(LIBURCU)),urcu-memb urcu-qsbr)
READLOOP_LIBS := $(if $(filter 1,$(LIBCK)),ck-epoch) $(if $(filter 1,$(LIBDPDK)),dpdk-qsbr)
READLOOP_BINS := $(addprefix $(BUILD)/bench/readloop-,$(READLOOP_OURS) $(READLOOP_URCU) \
	$(READLOOP_LIBS))
READLOOP_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -pthread -D_GNU_SOURCE $(SANFLAGS)
RL_DEF_rcu := -DRL_RCU
RL_DEF_sched := -DRL_SCHED
RL_DEF_sched-free := -DRL_SCHED_FREE
RL_DEF_srcu := -DRL_SRCU
RL_DEF_srcu-fast := -DRL_SRCU_FAST
RL_DEF_urcu-memb := -DRL_URCU_MEMB
RL_DEF_urcu-qsbr := -DRL_URCU_QSBR
RL_DEF_ck-epoch := -DRL_CK_EPOCH
RL_DEF_dpdk-qsbr := -DRL_DPDK_QSBR

all: $(READLOOP_BINS)

$(addprefix $(BUILD)/bench/readloop-,$(READLOOP_OURS)): $(BUILD)/bench/readloop-%: \
		torture/bench/readloop.c $(LIB_SO) $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(READLOOP_CFLAGS) $(RL_DEF_$*) -Ircu/include -o $@ $< \
		-L$(BUILD) -lrcu -Wl,-rpath,$(abspath $(BUILD))

$(addprefix $(BUILD)/bench/readloop-,$(READLOOP_URCU)): $(BUILD)/bench/readloop-%: \
		torture/bench/readloop.c $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(READLOOP_CFLAGS) $(RL_DEF_$*) -o $@ $< $(shell pkg-config --cflags --libs lib$*)

# Concurrency Kit's and DPDK's (torture.mk's LIBCK and LIBDPDK choice and
# flags: their headers as system headers).
RL_FLAGS_ck-epoch := $(LIBCK_CFLAGS) $(LIBCK_LIBS)
RL_FLAGS_dpdk-qsbr := $(LIBDPDK_CFLAGS) $(LIBDPDK_LIBS)
$(addprefix $(BUILD)/bench/readloop-,$(READLOOP_LIBS)): $(BUILD)/bench/readloop-%: \
		torture/bench/readloop.c $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(READLOOP_CFLAGS) $(RL_DEF_$*) -o $@ $< $(RL_FLAGS_$*)

# $(BUILD)/bench/lfht-FLAVOR: liburcu's rculfhash on one RCU (lookups and
# updates per second), one source built per RCU with the same plain flags:
# ours through <rcu/urcu_flavor.h> against librcu.so, liburcu's flavors
# against their shared libraries; all against liburcu-cds
# (bin/compare-liburcu.sh's lfht workload).  Only with liburcu-dev.
LFHT_OURS := rcu sched
LFHT_URCU := urcu-memb urcu-qsbr
LFHT_BINS := $(if $(filter 1,$(LIBURCU)),$(addprefix $(BUILD)/bench/lfht-,$(LFHT_OURS) $(LFHT_URCU)))
LFHT_CFLAGS := $(READLOOP_CFLAGS) \
	$(if $(filter 1,$(LIBURCU)),-DLF_LIBURCU_VERSION='"$(shell pkg-config --modversion liburcu-cds)"')
LF_DEF_rcu := -DLF_RCU
LF_DEF_sched := -DLF_SCHED
LF_DEF_urcu-memb := -DLF_URCU_MEMB
LF_DEF_urcu-qsbr := -DLF_URCU_QSBR

all: $(LFHT_BINS)

$(addprefix $(BUILD)/bench/lfht-,$(LFHT_OURS)): $(BUILD)/bench/lfht-%: \
		torture/bench/lfht.c $(LIB_SO) $(LIB_HDRS) $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(LFHT_CFLAGS) $(LF_DEF_$*) -Ircu/include -Itorture/include -o $@ $< \
		$(shell pkg-config --cflags --libs liburcu-cds) -L$(BUILD) -lrcu -Wl,-rpath,$(abspath $(BUILD))

$(addprefix $(BUILD)/bench/lfht-,$(LFHT_URCU)): $(BUILD)/bench/lfht-%: \
		torture/bench/lfht.c $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(LFHT_CFLAGS) $(LF_DEF_$*) -Itorture/include -o $@ $< \
		$(shell pkg-config --cflags --libs lib$* liburcu-cds)
