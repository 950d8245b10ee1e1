# torture/: the rcutorture program, its ops adapters and the example plugin.
#
#   $(BUILD)/rcutorture                       the torture program
#   $(BUILD)/torture/libtorture_example.so    example lib: plugin (examples/)
#
# The liburcu types (urcu-memb, urcu-mb, urcu-signal, urcu-qsbr, urcu-bp) are
# built when pkg-config finds liburcu-dev's modules.

CPPFLAGS += -Itorture/include

TORTURE_BIN     := $(BUILD)/rcutorture
TORTURE_PLUGIN  := $(BUILD)/torture/libtorture_example.so
TORTURE_SRCS    := $(wildcard torture/*.c) $(filter-out torture/ops/ops_liburcu_%.c,$(wildcard torture/ops/*.c))
TORTURE_LIBS    := -ldl

LIBURCU_PKGS    := liburcu-memb liburcu-mb liburcu-signal liburcu-qsbr liburcu-bp
ifeq ($(shell pkg-config --exists $(LIBURCU_PKGS) 2>/dev/null && echo yes),yes)
TORTURE_SRCS    += $(wildcard torture/ops/ops_liburcu_*.c)
TORTURE_URCU_CFLAGS := -DTORTURE_HAVE_LIBURCU $(shell pkg-config --cflags $(LIBURCU_PKGS))
EXTRA_CFLAGS_torture/ += $(TORTURE_URCU_CFLAGS)
EXTRA_CFLAGS_torture/ops/ += $(TORTURE_URCU_CFLAGS)
TORTURE_LIBS    += $(shell pkg-config --libs $(LIBURCU_PKGS))
else
$(info torture: liburcu-dev not installed: urcu-* torture types not built)
endif

TORTURE_OBJS    := $(sort $(TORTURE_SRCS:%.c=$(BUILD)/obj/%.o))

torture: $(TORTURE_BIN) $(TORTURE_PLUGIN)
all: torture
CHECK_DEPS += $(TORTURE_BIN) $(TORTURE_PLUGIN)
# tests.mk is read before this file, so its "tests: ... $(CHECK_DEPS)"
# line saw CHECK_DEPS empty: name the prerequisites here too.
tests: $(TORTURE_BIN) $(TORTURE_PLUGIN)

$(TORTURE_BIN): $(TORTURE_OBJS) $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(TORTURE_OBJS) $(LIB_A) $(TORTURE_LIBS) $(LDLIBS)

$(TORTURE_PLUGIN): torture/examples/plugin_example.c torture/include/torture/ops.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -shared -o $@ $< $(LDFLAGS)

.PHONY: torture

