# torture/: the rcutorture program, its ops adapters and the example plugin.
#
#   $(BUILD)/rcutorture                       the torture program
#   $(BUILD)/torture/libtorture_example.so    example lib: plugin (examples/)
#   $(BUILD)/torture/libtorture_slots*.so     a plugin with its own reader
#                                             slots, correct and two mutants
#                                             (bin/mutation.sh --plugins)
#
# The liburcu types (urcu-memb, urcu-mb, urcu-signal, urcu-qsbr, urcu-bp) are
# built when pkg-config finds liburcu-dev's modules.  LIBURCU=0 builds as if
# it were missing (they are then listed as "not built"), LIBURCU=1 insists.

CPPFLAGS += -Itorture/include

TORTURE_BIN     := $(BUILD)/rcutorture
TORTURE_PLUGIN  := $(BUILD)/torture/libtorture_example.so \
		   $(BUILD)/torture/libtorture_slots.so \
		   $(BUILD)/torture/libtorture_slots_skip_highest.so \
		   $(BUILD)/torture/libtorture_slots_ride_gp.so
TORTURE_LIBS    := -ldl
ifeq ($(TINY),1)
# Tiny RCU (make TINY=1): its flavors (ops_rcu.c: rcu, rcu_bh, sched) and
# the kernel's busted type on it; nothing else runs on librcutiny, so the
# liburcu types are absent whether liburcu-dev is installed or not.
TORTURE_SRCS    := $(wildcard torture/*.c) torture/ops/ops_rcu.c torture/ops/ops_busted.c
override LIBURCU := 0
$(BUILD)/obj/torture/ops/urcu_absent.o: CPPFLAGS += \
	-DTORTURE_URCU_WHY='"not in this build: the Tiny RCU build has only Tiny RCU'"'"'s types"'
else
TORTURE_SRCS    := $(wildcard torture/*.c) \
	$(filter-out torture/ops/ops_liburcu_%.c torture/ops/urcu_%.c,$(wildcard torture/ops/*.c))
endif

LIBURCU_PKGS    := liburcu-memb liburcu-mb liburcu-signal liburcu-qsbr liburcu-bp
LIBURCU_FOUND   := $(shell pkg-config --exists $(LIBURCU_PKGS) 2>/dev/null && echo 1)
LIBURCU         ?= $(if $(LIBURCU_FOUND),1,0)
ifeq ($(LIBURCU),1)
ifneq ($(LIBURCU_FOUND),1)
$(error LIBURCU=1: pkg-config does not find liburcu (install liburcu-dev))
endif
TORTURE_SRCS    += $(wildcard torture/ops/ops_liburcu_*.c) torture/ops/urcu_built.c
EXTRA_CFLAGS_torture/ops/ += $(shell pkg-config --cflags $(LIBURCU_PKGS))
TORTURE_LIBS    += $(shell pkg-config --libs $(LIBURCU_PKGS))
else ifeq ($(LIBURCU),0)
TORTURE_SRCS    += torture/ops/urcu_absent.c
$(info torture: $(if $(TINY),Tiny RCU's build,$(if $(LIBURCU_FOUND),LIBURCU=0,liburcu-dev not installed)): urcu-* torture types not built)
else
$(error LIBURCU must be 0 or 1, not '$(LIBURCU)')
endif

TORTURE_OBJS    := $(sort $(TORTURE_SRCS:%.c=$(BUILD)/obj/%.o))

torture: $(TORTURE_BIN) $(TORTURE_PLUGIN)
all: torture
CHECK_DEPS += $(TORTURE_BIN) $(TORTURE_PLUGIN)
# tests.mk is read before this file, so its "tests: ... $(CHECK_DEPS)"
# line saw CHECK_DEPS empty: name the prerequisites here too.
tests: $(TORTURE_BIN) $(TORTURE_PLUGIN)

# Relink when LIBURCU changes (the objects differ, but may all be older).
TORTURE_URCU_FLAG := $(BUILD)/torture/liburcu.flag
$(TORTURE_URCU_FLAG): torture-liburcu-flag
	@mkdir -p $(dir $@)
	@echo '$(LIBURCU)' | cmp -s - $@ 2>/dev/null || echo '$(LIBURCU)' >$@
.PHONY: torture-liburcu-flag

$(TORTURE_BIN): $(TORTURE_OBJS) $(LIB_A) $(TORTURE_URCU_FLAG)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TORTURE_OBJS) $(LIB_A) $(TORTURE_LIBS) $(LDLIBS)

$(BUILD)/torture/libtorture_example.so: torture/examples/plugin_example.c torture/examples/plugin_cbq.h torture/include/torture/ops.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< $(LDFLAGS)

# The slot plugin, and its mutants with SLOTS_BUG_<NAME> from the file name.
$(BUILD)/torture/libtorture_slots.so: torture/examples/plugin_slots.c torture/examples/plugin_cbq.h torture/include/torture/ops.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< $(LDFLAGS)
$(BUILD)/torture/libtorture_slots_%.so: torture/examples/plugin_slots.c torture/examples/plugin_cbq.h torture/include/torture/ops.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -DSLOTS_BUG_$(shell echo '$*' | tr a-z A-Z) \
		-fPIC -shared -o $@ $< $(LDFLAGS)

.PHONY: torture

