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
