# Top-level Makefile.  Each directory contributes a fragment (*/*.mk).
#
#   make                     build/librcu.a, build/librcu.so (+ torture tools)
#   make check               build and run every test with prove (TAP)
#   make check SAN=thread    the same under ThreadSanitizer (build/tsan/)
#   make check SAN=address   the same under AddressSanitizer+UBSan (build/asan/)
#   make DEBUG=1             debug build (build/debug/): debug_objects on,
#                            CONFIG_PROVE_RCU, CONFIG_PROVE_LOCKING (lockdep)
#   make install PREFIX=DIR  headers, libraries and rcu.pc under DIR (DESTDIR too)
#   make uninstall PREFIX=DIR  remove them
#   make CC=clang            any of the above with clang (build/clang*/)
#   make CC=aarch64-linux-gnu-gcc  an arm64 cross build (build/arm64/;
#                            tests/lib/qemu-tests runs its unit tests)
#   make INJECT=1            deliberate-bug build (BUILD/inject/): the
#                            library accepts rcutree.inject=NAME (bin/mutation.sh)
#   make TINY=1              Tiny RCU (BUILD/tiny/): librcutiny.a/.so, and
#                            rcutorture, refscale, rcuscale, examples on it
#                            (docs/design/tiny.md)
#   make WEAKMEM=1           weak-memory emulation build (build/weakmem/,
#                            with INJECT=1 build/weakmem/inject/):
#                            docs/design/weakmem.md
#   make BUILD=DIR ...       put this configuration's outputs in DIR instead

CC      ?= gcc
SAN     ?=
DEBUG   ?=
INJECT  ?=
TINY    ?=
WEAKMEM ?=
PREFIX  ?= /usr/local

# One build folder per configuration.
BUILD_SUFFIX :=
ifeq ($(findstring clang,$(CC)),clang)
BUILD_SUFFIX := $(BUILD_SUFFIX)-clang
endif
# A cross build for arm64 (Debian gcc-aarch64-linux-gnu): build/arm64;
# its unit tests run under qemu-user (tests/lib/qemu-tests).
ifeq ($(findstring aarch64,$(CC)),aarch64)
BUILD_SUFFIX := $(BUILD_SUFFIX)-arm64
endif
ifeq ($(SAN),thread)
DEFAULT_BUILD := build/tsan$(BUILD_SUFFIX)
SANFLAGS := -fsanitize=thread
else ifeq ($(SAN),address)
DEFAULT_BUILD := build/asan$(BUILD_SUFFIX)
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(SAN),)
SANFLAGS :=
ifeq ($(DEBUG),1)
DEFAULT_BUILD := build/debug$(BUILD_SUFFIX)
else ifeq ($(BUILD_SUFFIX),)
DEFAULT_BUILD := build
else
DEFAULT_BUILD := build/$(patsubst -%,%,$(BUILD_SUFFIX))
endif
else
$(error SAN must be thread or address, not '$(SAN)')
endif
ifeq ($(WEAKMEM),1)
ifneq ($(SAN),)
$(error WEAKMEM=1 does not combine with SAN=$(SAN))
endif
DEFAULT_BUILD := $(DEFAULT_BUILD)/weakmem
else ifneq ($(WEAKMEM),)
$(error WEAKMEM must be 1 or empty, not '$(WEAKMEM)')
endif
ifeq ($(INJECT),1)
DEFAULT_BUILD := $(DEFAULT_BUILD)/inject
else ifneq ($(INJECT),)
$(error INJECT must be 1 or empty, not '$(INJECT)')
endif
ifeq ($(TINY),1)
DEFAULT_BUILD := $(DEFAULT_BUILD)/tiny
else ifneq ($(TINY),)
$(error TINY must be 1 or empty, not '$(TINY)')
endif
BUILD ?= $(DEFAULT_BUILD)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     := -O2 -g
ifeq ($(DEBUG),1)
OPT     += -DLRCU_DEBUG -DCONFIG_PROVE_RCU -DCONFIG_PROVE_LOCKING
endif
ifeq ($(INJECT),1)
OPT     += -DLRCU_INJECT
endif
ifeq ($(TINY),1)
OPT     += -DCONFIG_TINY_RCU
endif
ifeq ($(WEAKMEM),1)
OPT     += -DLRCU_WEAKMEM
endif
CPPFLAGS := -Ircu/include -D_GNU_SOURCE
CFLAGS  := -std=gnu11 $(OPT) $(WARN) -pthread $(SANFLAGS)
LDFLAGS := -pthread $(SANFLAGS)
LDLIBS  :=

all: lib

# Every directory's fragment: rcu/rcu.mk first (the others use LIB_A in
# their prerequisites, which make expands as it reads them), a directory's
# own fragment before its subdirectories' (torture/perf and torture/bench
# use torture.mk's LIBURCU choice and objects), tests/tests.mk last (it
# uses the CHECK_DEPS the others add).
# A Tiny build (TINY=1) has no benchmarks of Tree internals and no tests
# of its own: tests/rcu/tiny.t and tests/torture/tiny.t build and run it.
FRAGMENTS := $(filter-out rcu/rcu.mk tests/tests.mk $(if $(TINY),torture/bench/bench.mk),\
	$(sort $(wildcard */*.mk)) $(sort $(wildcard */*/*.mk)))
include rcu/rcu.mk $(FRAGMENTS) tests/tests.mk

# Objects are rebuilt when the compiler or its flags change, not only when
# a source does: an existing build folder whose flags moved (a Makefile edit
# to OPT, CC=clang over a gcc build) would otherwise link stale objects.
# The stamp holds every EXTRA_CFLAGS_* variable too: a folder's
# (EXTRA_CFLAGS_DIR/) and one object's, which is set from a variable of
# that name (torture/torture.mk's EXTRA_CFLAGS_OBJ_ops_liburcu_bp).
FLAGS_STAMP := $(BUILD)/flags
FLAGS_ALL = $(CC) $(CPPFLAGS) $(CFLAGS) $(foreach v,$(sort $(filter EXTRA_CFLAGS_%,$(.VARIABLES))),$(v)=$($(v)))
$(FLAGS_STAMP): build-flags
	@mkdir -p $(dir $@)
	@echo '$(subst ','\'',$(FLAGS_ALL))' | cmp -s - $@ 2>/dev/null || \
		echo '$(subst ','\'',$(FLAGS_ALL))' >$@
.PHONY: build-flags

# Generic compile rule: sources anywhere in the tree -> $(BUILD)/obj/...
$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(dir $<)) -MMD -MP -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

clean:
	rm -rf build

# Keep objects that pattern rules build on the way (no rebuilds, no rm).
.SECONDARY:

.PHONY: all lib check clean install
