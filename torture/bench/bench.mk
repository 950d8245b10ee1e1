# torture/bench/: read-side benchmarks, built by `make`, never run by `make check`
# (speed is measured, not tested).
#
#   $(BUILD)/bench/srcu_read    ns per read-side section: SRCU (static and
#                               dynamic domain, nmisafe), our rcu flavor and,
#                               with liburcu-dev, liburcu-memb; JSON lines

BENCH_SRCU      := $(BUILD)/bench/srcu_read
BENCH_SRCU_OBJS := $(BUILD)/obj/torture/bench/srcu_read.o
BENCH_SRCU_LIBS :=

ifeq ($(shell pkg-config --exists liburcu-memb 2>/dev/null && echo yes),yes)
BENCH_SRCU_OBJS += $(BUILD)/obj/torture/bench/srcu_read_urcu.o
EXTRA_CFLAGS_torture/bench/ += -DBENCH_HAVE_LIBURCU $(shell pkg-config --cflags liburcu-memb)
BENCH_SRCU_LIBS += $(shell pkg-config --libs liburcu-memb)
endif

all: $(BENCH_SRCU)

$(BENCH_SRCU): $(BENCH_SRCU_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(BENCH_SRCU_OBJS) $(LIB_A) $(BENCH_SRCU_LIBS) $(LDLIBS)
