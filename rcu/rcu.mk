# rcu/: the library; with TINY=1 Tiny RCU instead (rcu/tiny/,
# librcutiny: docs/design/tiny.md), for programs built -DCONFIG_TINY_RCU.
ifeq ($(TINY),1)
LIB_SRCS  := $(sort $(wildcard rcu/tiny/*.c))
LIB_NAME  := librcutiny
LIB_MAP   := rcu/tiny/librcutiny.map
else
LIB_SRCS  := $(sort $(wildcard rcu/src/*.c))
LIB_NAME  := librcu
LIB_MAP   := rcu/librcu.map
endif
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LIB_A     := $(BUILD)/$(LIB_NAME).a
LIB_HDRS  := $(shell find rcu/include -name '*.h')
RCU_VERSION := 0.1.0

# The shared library: real name librcu.so.VERSION, SONAME librcu.so.0 (the
# ABI; bump it when an exported symbol changes incompatibly), and the
# librcu.so link for -lrcu.  Only the entry points marked LRCU_API in the
# public headers are exported: the library is built -fvisibility=hidden,
# and rcu/librcu.map names each export under the version node LRCU_0
# (tests/rcu/install.t checks that the three agree).
RCU_SOVERSION := 0
LIB_SONAME  := $(LIB_NAME).so.$(RCU_SOVERSION)
LIB_SO_REAL := $(BUILD)/$(LIB_NAME).so.$(RCU_VERSION)
LIB_SO      := $(BUILD)/$(LIB_NAME).so
EXTRA_CFLAGS_rcu/src/ += -fvisibility=hidden -fPIC
EXTRA_CFLAGS_rcu/tiny/ += -fvisibility=hidden -fPIC

lib: $(LIB_A) $(LIB_SO)

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJS) $(LIB_MAP)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=$(LIB_MAP) \
		$(LDFLAGS) -o $@ $(LIB_OBJS)

$(LIB_SO): $(LIB_SO_REAL)
	ln -sf $(notdir $(LIB_SO_REAL)) $(BUILD)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $@

# make install [PREFIX=/usr/local] [DESTDIR=STAGING] [LIBDIR=...] [INCLUDEDIR=...]
# rcu.pc is written at install time: it names the PREFIX installed to.
# Into a system prefix (one ld.so searches: /usr, /usr/local) and without
# DESTDIR, ldconfig then updates the loader's cache and links.
DESTDIR    ?=
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
LDCONFIG   ?= ldconfig
SYSTEM_PREFIXES := /usr /usr/local
RUN_LDCONFIG := $(if $(DESTDIR),,$(filter $(SYSTEM_PREFIXES),$(patsubst %/,%,$(PREFIX))))
INST_HDRS  := $(DESTDIR)$(INCLUDEDIR)/rcu
INST_LIB   := $(DESTDIR)$(LIBDIR)

# The headers go in without their deliberate-bug and test hooks (strip-inject.awk).
PUB_HDRS   := $(patsubst rcu/include/rcu/%,%,$(wildcard rcu/include/rcu/*.h rcu/include/rcu/static/*.h))

install: lib
	install -d $(INST_HDRS)/static $(INST_LIB)/pkgconfig
	for h in $(PUB_HDRS); do \
		awk -f rcu/strip-inject.awk rcu/include/rcu/$$h >$(INST_HDRS)/$$h.tmp && \
		chmod 644 $(INST_HDRS)/$$h.tmp && mv $(INST_HDRS)/$$h.tmp $(INST_HDRS)/$$h || exit 1; \
	done
	install -m 644 $(LIB_A) $(INST_LIB)/
	install -m 755 $(LIB_SO_REAL) $(INST_LIB)/
	ln -sf $(notdir $(LIB_SO_REAL)) $(INST_LIB)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(INST_LIB)/librcu.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(RCU_VERSION)|g' \
		rcu/rcu.pc.in > $(INST_LIB)/pkgconfig/rcu.pc
	$(if $(RUN_LDCONFIG),$(LDCONFIG))

# Removes exactly what install put there, and the rcu/ header folders
# once empty.
uninstall:
	rm -f $(addprefix $(INST_HDRS)/,$(PUB_HDRS))
	rmdir $(INST_HDRS)/static $(INST_HDRS) 2>/dev/null || true
	rm -f $(INST_LIB)/librcu.a $(INST_LIB)/librcu.so $(INST_LIB)/$(LIB_SONAME) \
		$(INST_LIB)/$(notdir $(LIB_SO_REAL))
	rm -f $(INST_LIB)/pkgconfig/rcu.pc
	$(if $(RUN_LDCONFIG),$(LDCONFIG))

.PHONY: uninstall
