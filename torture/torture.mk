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
override LIBCK := 0
override LIBDPDK := 0
else
TORTURE_SRCS    := $(wildcard torture/*.c) \
	$(filter-out torture/ops/ops_liburcu_%.c torture/ops/urcu_%.c torture/ops/ops_ck_%.c \
		torture/ops/ck_%.c torture/ops/ops_dpdk_%.c torture/ops/dpdk_%.c,$(wildcard torture/ops/*.c))
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

# The other userspace RCUs, each the same way: Concurrency Kit's ck_epoch
# (libck-dev: ck-epoch, ck-epoch-busted) and DPDK's rte_rcu_qsbr
# (libdpdk-dev with librte-rcu: dpdk-qsbr, dpdk-qsbr-busted).  LIBCK=0 or
# LIBDPDK=0 builds as if missing (the types are then listed as not built),
# =1 insists.  Their headers are system headers (-isystem): our warnings
# are not theirs.  DPDK: only librte_rcu is linked (its QSBR calls need no
# EAL; see ops_dpdk_qsbr.c).
LIBCK_FOUND     := $(shell pkg-config --exists ck 2>/dev/null && echo 1)
LIBCK           ?= $(if $(LIBCK_FOUND),1,0)
LIBCK_CFLAGS    := $(if $(LIBCK_FOUND),$(patsubst -I%,-isystem %,$(shell pkg-config --cflags ck)))
LIBCK_LIBS      := $(if $(LIBCK_FOUND),$(shell pkg-config --libs ck))
LIBDPDK_FOUND   := $(shell pkg-config --exists libdpdk 2>/dev/null && \
	test -e "$$(pkg-config --variable=includedir libdpdk)/rte_rcu_qsbr.h" && echo 1)
LIBDPDK         ?= $(if $(LIBDPDK_FOUND),1,0)
LIBDPDK_CFLAGS  := $(if $(LIBDPDK_FOUND),$(patsubst -I%,-isystem %,$(filter -I%dpdk -include rte_config.h,\
	$(shell pkg-config --cflags libdpdk))))
LIBDPDK_LIBS    := -lrte_rcu

# $(call torture_optional,VAR,PACKAGE,PREFIX): VAR=1 adds torture/ops/ops_PREFIX_*.c
# and PREFIX_built.c, compiled with $(VAR_CFLAGS), linked with $(VAR_LIBS);
# VAR=0 adds PREFIX_absent.c.
define torture_optional
ifeq ($$($(1)),1)
ifneq ($$($(1)_FOUND),1)
$$(error $(1)=1: pkg-config does not find it (install $(2)))
endif
TORTURE_SRCS += $$(wildcard torture/ops/ops_$(3)_*.c) torture/ops/$(3)_built.c
$$(patsubst %.c,$$(BUILD)/obj/%.o,$$(wildcard torture/ops/ops_$(3)_*.c)): \
	EXTRA_CFLAGS_torture/ops/ += $$($(1)_CFLAGS)
TORTURE_LIBS += $$($(1)_LIBS)
else ifeq ($$($(1)),0)
TORTURE_SRCS += torture/ops/$(3)_absent.c
$$(info torture: $$(if $$($(1)_FOUND),$(1)=0,$(2) not installed): $(3) torture types not built)
else
$$(error $(1) must be 0 or 1, not '$$($(1))')
endif
endef
$(eval $(call torture_optional,LIBCK,libck-dev,ck))
$(eval $(call torture_optional,LIBDPDK,libdpdk-dev,dpdk))

TORTURE_OBJS    := $(sort $(TORTURE_SRCS:%.c=$(BUILD)/obj/%.o))

# liburcu 0.13's urcu-bp reader sits 32 bytes off the 128-byte alignment
# its type declares (its registry arena hands it out so): its inline read
# side, compiled into this adapter, trips UBSan's alignment check in the
# ASan build.  A report about liburcu, not about us: that one check is off
# for that one object (docs/nightly.md, "The sanitizer passes").
EXTRA_CFLAGS_OBJ_ops_liburcu_bp := $(if $(filter address,$(SAN)),-fno-sanitize=alignment)
$(BUILD)/obj/torture/ops/ops_liburcu_bp.o: EXTRA_CFLAGS_torture/ops/ += $(EXTRA_CFLAGS_OBJ_ops_liburcu_bp)

torture: $(TORTURE_BIN) $(TORTURE_PLUGIN)
all: torture
CHECK_DEPS += $(TORTURE_BIN) $(TORTURE_PLUGIN)
# tests.mk is read before this file, so its "tests: ... $(CHECK_DEPS)"
# line saw CHECK_DEPS empty: name the prerequisites here too.
tests: $(TORTURE_BIN) $(TORTURE_PLUGIN)

# Relink when LIBURCU, LIBCK or LIBDPDK changes (the objects differ, but may all be older).
TORTURE_URCU_FLAG := $(BUILD)/torture/liburcu.flag
$(TORTURE_URCU_FLAG): torture-liburcu-flag
	@mkdir -p $(dir $@)
	@echo '$(LIBURCU)$(LIBCK)$(LIBDPDK)' | cmp -s - $@ 2>/dev/null || echo '$(LIBURCU)$(LIBCK)$(LIBDPDK)' >$@
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

