# rcu/examples/: small programs that show the library's API in use.
#
#   $(BUILD)/examples/hashtable   an RCU-protected hash table (rculist.h)
#
# tests/list/example.c builds the example's code into a test and runs
# the binary too when it has been built, so that it cannot rot.

EXAMPLE_SRCS := $(sort $(wildcard rcu/examples/*.c))
EXAMPLE_BINS := $(EXAMPLE_SRCS:rcu/examples/%.c=$(BUILD)/examples/%)

examples: $(EXAMPLE_BINS)
all: examples
CHECK_DEPS += $(EXAMPLE_BINS)

$(BUILD)/examples/%: $(BUILD)/obj/rcu/examples/%.o $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB_A) $(LDLIBS)

.PHONY: examples
