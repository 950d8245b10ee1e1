# torture/bench/: read-side benchmarks, built by `make`, never run by `make check`
# (speed is measured, not tested).
#
#   $(BUILD)/bench/srcu_read    ns per read-side section: SRCU (static and
#                               dynamic domain, nmisafe), our rcu flavor and,
#                               with liburcu-dev, liburcu-memb; JSON lines
#   $(BUILD)/bench/idle_wakeups wakeups per second of the RCU's threads in an
#                               otherwise idle program that frees now and
#                               then: lazy, not lazy, offloaded, liburcu's
#                               call_rcu worker; JSON lines

BENCH_SRCU      := $(BUILD)/bench/srcu_read
BENCH_SRCU_OBJS := $(BUILD)/obj/torture/bench/srcu_read.o
BENCH_SRCU_LIBS :=
BENCH_IDLE      := $(BUILD)/bench/idle_wakeups
BENCH_IDLE_OBJS := $(BUILD)/obj/torture/bench/idle_wakeups.o

ifeq ($(shell pkg-config --exists liburcu-memb 2>/dev/null && echo yes),yes)
BENCH_SRCU_OBJS += $(BUILD)/obj/torture/bench/srcu_read_urcu.o
EXTRA_CFLAGS_torture/bench/ += -DBENCH_HAVE_LIBURCU $(shell pkg-config --cflags liburcu-memb)
BENCH_SRCU_LIBS += $(shell pkg-config --libs liburcu-memb)
BENCH_IDLE_OBJS += $(BUILD)/obj/torture/bench/idle_wakeups_urcu.o
endif

all: $(BENCH_SRCU) $(BENCH_IDLE)

$(BENCH_IDLE): $(BENCH_IDLE_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_IDLE_OBJS) $(LIB_A) $(BENCH_SRCU_LIBS) $(LDLIBS)

$(BENCH_SRCU): $(BENCH_SRCU_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_SRCU_OBJS) $(LIB_A) $(BENCH_SRCU_LIBS) $(LDLIBS)
