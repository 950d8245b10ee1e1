# torture/perf/: the perf programs, the kernel's refscale and rcuscale, on
# the torture ops table (torture/types.c, torture/ops/*.c) without the
# torture core, so that every torture type (a lib: plugin too) can be
# measured.  Built by make, run briefly by make check (the figures are
# printed, never asserted).
#
#   $(BUILD)/refscale    read-side cost per type (refscale.*)
#   $(BUILD)/rcuscale    grace-period latency and throughput, callbacks,
#                        rcu_barrier(), idle threads (rcuscale.*)

PERF_BINS        := $(BUILD)/refscale $(BUILD)/rcuscale
PERF_COMMON_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,torture/perf/cli.c torture/perf/common.c \
	torture/perf/sweep.c torture/perf/up.c)
# torture.mk, read before this file, chose the ops objects and LIBURCU.
PERF_OPS_OBJS     := $(filter $(BUILD)/obj/torture/ops/% $(BUILD)/obj/torture/types.o \
	$(BUILD)/obj/torture/may_rt.o,$(TORTURE_OBJS))
PERF_URCU_VERSION := $(if $(filter 1,$(LIBURCU)),$(shell pkg-config --modversion liburcu-memb))
EXTRA_CFLAGS_torture/perf/ := $(if $(PERF_URCU_VERSION),-DPERF_LIBURCU_VERSION='"$(PERF_URCU_VERSION)"')
# ... so it is compiled again when that choice changes.
$(BUILD)/obj/torture/perf/common.o: $(TORTURE_URCU_FLAG)

all: $(PERF_BINS)
CHECK_DEPS += $(PERF_BINS)
tests: $(PERF_BINS)

$(PERF_BINS): $(BUILD)/%: $(BUILD)/obj/torture/perf/%.o $(PERF_COMMON_OBJS) $(PERF_OPS_OBJS) \
		$(LIB_A) $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(PERF_COMMON_OBJS) $(PERF_OPS_OBJS) $(LIB_A) $(TORTURE_LIBS) \
		$(LDLIBS) -lm
