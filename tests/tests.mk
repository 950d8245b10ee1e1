# tests/: every test is a TAP producer run by prove.
#
#   tests/test_*.c     C tests, one program each, linked with librcu.a;
#                      built to $(BUILD)/tests/test_*
#   tests/*.t          executable shell tests that print TAP
#   tests/*.bats       bats tests (tests/run-bats runs them; it reports a
#                      TAP SKIP naming the Debian package if bats is missing)
#
# Tests find the build through $BUILD_DIR (absolute) and the tree through
# $TOP.  TEST_TIMEOUT bounds each test program (seconds).

TEST_SRCS  := $(sort $(wildcard tests/test_*.c))
TEST_BINS  := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
TEST_SH    := $(sort $(wildcard tests/*.t))
TEST_BATS  := $(sort $(wildcard tests/*.bats))
TEST_TIMEOUT ?= 600
PROVE      ?= prove
PROVE_FLAGS ?=

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

tests: lib $(TEST_BINS) $(CHECK_DEPS)

# prove (Debian package perl) runs the tests; without it tests/tap-run,
# a small sh+awk stand-in, does the same checks.
# TSan would sleep a second at each exit to let threads finish reports;
# the library's threads never finish, so do not wait for them.
export TSAN_OPTIONS ?= atexit_sleep_ms=0

# Each test's TAP output is kept in $(BUILD)/test-logs (tests/run-one).
check: tests
	@rm -rf $(BUILD)/test-logs
	@if command -v $(PROVE) >/dev/null; then \
	  TOP=$(CURDIR) BUILD_DIR=$(CURDIR)/$(BUILD) SAN=$(SAN) \
	  TEST_LOG_DIR=$(CURDIR)/$(BUILD)/test-logs \
	    $(PROVE) $(PROVE_FLAGS) --exec 'tests/run-one $(TEST_TIMEOUT)' \
	    $(TEST_BINS) $(TEST_SH) $(TEST_BATS); \
	else \
	  echo "prove not found (Debian package perl): using tests/tap-run"; \
	  TOP=$(CURDIR) BUILD_DIR=$(CURDIR)/$(BUILD) SAN=$(SAN) \
	    tests/tap-run $(TEST_TIMEOUT) $(TEST_BINS) $(TEST_SH) $(TEST_BATS); \
	fi

.PHONY: tests
