# rcu/: the library.
LIB_SRCS  := $(sort $(wildcard rcu/src/*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
LIB_A     := $(BUILD)/librcu.a
LIB_SO    := $(BUILD)/librcu.so
LIB_HDRS  := $(shell find rcu/include -name '*.h')
RCU_VERSION := 0.1.0

lib: $(LIB_A) $(LIB_SO)

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# Only lrcu_* symbols are exported (see rcu/librcu.map): the library links
# into the same program as liburcu.
$(LIB_SO): $(LIB_OBJS) rcu/librcu.map
	$(CC) -shared -Wl,-soname,librcu.so -Wl,--version-script=rcu/librcu.map \
		$(LDFLAGS) -o $@ $(LIB_OBJS)

# rcu.pc is written at install time: it names the PREFIX installed to.
install: lib
	install -d $(PREFIX)/include/rcu/static $(PREFIX)/lib/pkgconfig
	install -m 644 rcu/include/rcu/*.h $(PREFIX)/include/rcu/
	install -m 644 rcu/include/rcu/static/*.h $(PREFIX)/include/rcu/static/
	install -m 644 $(LIB_A) $(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(RCU_VERSION)|g' \
		rcu/rcu.pc.in > $(PREFIX)/lib/pkgconfig/rcu.pc
