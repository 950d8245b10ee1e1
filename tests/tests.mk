# tests/: every test is a TAP producer run by prove.  A test lives in the
# folder of the layer it tests and is named for what it tests; its
# extension says how it runs (tests/README.md):
#
#   tests/LAYER/NAME.c     a C program linked with librcu.a, built to
#                          $(BUILD)/tests/LAYER/NAME
#   tests/LAYER/NAME.t     an executable shell script
#   tests/LAYER/NAME.bats  a bats file (tests/lib/run-one runs it, or
#                          reports a TAP SKIP naming the Debian package)
#   tests/lib/             helpers and drivers only, no tests
#
# Tests find the build through $BUILD_DIR (absolute) and the tree through
# $TOP.  TEST_TIMEOUT bounds each test program (seconds).

TEST_LAYERS := rcu list torture scripts analysis formal docs
TEST_SRCS  := $(sort $(foreach l,$(TEST_LAYERS),$(wildcard tests/$(l)/*.c)))
TEST_BINS  := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
TEST_SH    := $(sort $(foreach l,$(TEST_LAYERS),$(wildcard tests/$(l)/*.t)))
TEST_BATS  := $(sort $(foreach l,$(TEST_LAYERS),$(wildcard tests/$(l)/*.bats)))
# prove runs PROVE_JOBS tests at a time (most of them wait on fixed-length
# runs more than they compute), the longest first (a minute or more each on
# a 2-core machine) so that the batch does not end with one running alone;
# then, one at a time, the tests that must have the machine to themselves:
# those whose threads run SCHED_FIFO (the boost test switches real-time
# throttling off: its hogs would starve a test beside it) and those that
# time what they check (stall warnings).
PROVE_JOBS ?= 2
TEST_FIRST := tests/scripts/nightly.bats tests/torture/types.t \
	tests/scripts/torture_real.bats tests/torture/srcu.t tests/scripts/mutation.bats \
	tests/torture/params.t tests/scripts/torture_cli.bats
TEST_ALONE := tests/torture/boost.t tests/torture/stall.t tests/torture/tiny.t tests/torture/perf_tiny.t \
	tests/rcu/tiny.t $(BUILD)/tests/rcu/boost $(BUILD)/tests/rcu/stall
TEST_ALL   := $(foreach t,$(TEST_FIRST),$(filter $(t),$(TEST_SH) $(TEST_BATS))) \
	$(filter-out $(TEST_FIRST) $(TEST_ALONE),$(TEST_BINS) $(TEST_SH) $(TEST_BATS))
TEST_SOLO  := $(filter $(TEST_ALONE),$(TEST_BINS) $(TEST_SH) $(TEST_BATS))
TEST_TIMEOUT ?= 600
PROVE      ?= prove
PROVE_FLAGS ?=

# C tests include their helpers by name ("tap.h", "rcu_test.h").
$(foreach l,$(TEST_LAYERS),$(eval EXTRA_CFLAGS_tests/$(l)/ += -Itests/lib))

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

# tests/rcu/urcu_flavor.c runs liburcu's rculfhash (liburcu-cds) on our
# RCU: it follows torture.mk's LIBURCU choice, a TAP SKIP without it.
$(BUILD)/obj/tests/rcu/urcu_flavor.o: $(TORTURE_URCU_FLAG)
$(BUILD)/obj/tests/rcu/urcu_flavor.o: EXTRA_CFLAGS_tests/rcu/ += -DTEST_LIBURCU=$(LIBURCU) \
	$(if $(filter 1,$(LIBURCU)),$(shell pkg-config --cflags liburcu-cds))
ifeq ($(LIBURCU),1)
$(BUILD)/tests/rcu/urcu_flavor: LDLIBS += $(shell pkg-config --libs liburcu-cds)
endif

# tests/torture/lib_types.c drives the adapters of the other projects'
# RCUs through the ops table: linked as the perf programs are (types.o,
# the ops objects and their libraries: torture/torture.mk).
$(BUILD)/tests/torture/lib_types: $(PERF_OPS_OBJS)
$(BUILD)/tests/torture/lib_types: LDLIBS += $(PERF_OPS_OBJS) $(LIB_A) $(TORTURE_LIBS)

tests: lib $(TEST_BINS) $(CHECK_DEPS)

# prove (Debian package perl) runs the tests; without it tests/lib/tap-run,
# a small sh+awk stand-in, does the same checks.
# TSan would sleep a second at each exit to let threads finish reports;
# the library's threads never finish, so do not wait for them.
export TSAN_OPTIONS ?= atexit_sleep_ms=0

# Each test's TAP output is kept in $(BUILD)/test-logs as LAYER-NAME.tap
# (tests/lib/run-one).
check: tests
	@rm -rf $(BUILD)/test-logs
	@export TOP=$(CURDIR) BUILD_DIR=$(CURDIR)/$(BUILD) SAN=$(SAN) \
	  TEST_LOG_DIR=$(CURDIR)/$(BUILD)/test-logs; \
	if command -v $(PROVE) >/dev/null; then \
	  $(PROVE) -j$(PROVE_JOBS) $(PROVE_FLAGS) --exec 'tests/lib/run-one $(TEST_TIMEOUT)' \
	    $(TEST_ALL); rc=$$?; \
	  if [ -n "$(strip $(TEST_SOLO))" ]; then \
	    echo "# then one at a time: $(patsubst $(BUILD)/%,%,$(TEST_SOLO))"; \
	    $(PROVE) $(PROVE_FLAGS) --exec 'tests/lib/run-one $(TEST_TIMEOUT)' \
	      $(TEST_SOLO) || rc=1; \
	  fi; \
	else \
	  echo "prove not found (Debian package perl): using tests/lib/tap-run"; \
	  tests/lib/tap-run $(TEST_TIMEOUT) $(TEST_ALL) $(TEST_SOLO); rc=$$?; \
	fi; \
	if [ $$rc = 0 ]; then echo "make check: Result: PASS"; \
	else echo "make check: Result: FAIL (the summaries above name the failed tests)"; fi; \
	exit $$rc

# check-repeat N=3: every test N times, the flaky ones named
# (tests/lib/check-repeat; TEST_LAYERS=rcu for one layer).
N ?= 3
check-repeat: tests
	@TOP=$(CURDIR) BUILD_DIR=$(CURDIR)/$(BUILD) SAN=$(SAN) \
	  REPEAT_LOG_DIR=$(CURDIR)/$(BUILD)/test-repeat \
	    tests/lib/check-repeat $(TEST_TIMEOUT) $(N) $(TEST_ALL) $(TEST_SOLO)

.PHONY: tests check-repeat
