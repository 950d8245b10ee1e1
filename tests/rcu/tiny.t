#!/bin/sh
# tests/rcu/tiny.t: Tiny RCU (make TINY=1, docs/design/tiny.md): builds
# librcutiny (in BUILD_DIR/tiny, with the run's sanitizer) and
# tests/rcu/tiny/api.c against it, then runs the API's tests in the group
# (SCHED_FIFO 1 on one CPU: needs CAP_SYS_NICE, else SKIPPED) and each
# refusal in a process of its own, reaped by this shell (outside the
# group: see reaped_ok() in api.c).  A start outside SCHED_FIFO is refused
# anywhere.  The plain build also checks that librcutiny.so exports
# exactly rcu/tiny/librcutiny.map.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"

case ${SAN:-} in
thread) sanflags=-fsanitize=thread ;;
address) sanflags="-fsanitize=address,undefined -fno-omit-frame-pointer" ;;
*) sanflags= ;;
esac
tiny=$BUILD_DIR/tiny
if ! env -u MAKEFLAGS -u MAKELEVEL make -C "$TOP" -s TINY=1 ${SAN:+SAN=$SAN} BUILD="$tiny" lib \
	>"$tmp/make.log" 2>&1; then
	echo "not ok 1 - make TINY=1 lib"
	sed 's/^/# /' "$tmp/make.log" | tail -n 20
	echo "1..1"
	exit 1
fi
# shellcheck disable=SC2086
${CC:-cc} -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -DCONFIG_TINY_RCU -D_GNU_SOURCE \
	-I"$TOP/rcu/include" -I"$TOP/torture/include" -I"$TOP/tests/lib" -pthread $sanflags \
	"$TOP/tests/rcu/tiny/api.c" "$tiny/librcutiny.a" -o "$tmp/api" >"$tmp/cc.log" 2>&1
ok $? "tests/rcu/tiny/api.c builds against librcutiny$(head -c 300 "$tmp/cc.log" | tr '\n' ' ')"

cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
# Anywhere: a start outside SCHED_FIFO is refused, saying why.
taskset -c "$cpu" "$tmp/api" other-start >"$tmp/out" 2>&1 && grep -q "Tiny RCU cannot start: the thread is not SCHED_FIFO" "$tmp/out"
ok $? "a start outside SCHED_FIFO is refused: $(head -c 120 "$tmp/out")"

if ! chrt -f 1 true 2>/dev/null; then
	skip "the API in the group: SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
	skip "the refusals in the group: SCHED_FIFO refused here (CAP_SYS_NICE: run as root)"
else
	timeout -k 5 120 chrt -f 1 taskset -c "$cpu" "$tmp/api" >"$tmp/api.tap" 2>"$tmp/api.err"
	rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^ok' "$tmp/api.tap")" = 14 ] && grep -q '^1\.\.14$' "$tmp/api.tap"
	ok $? "the API in the group on CPU $cpu: $(grep -c '^ok' "$tmp/api.tap") of 14 passed (status $rc)"
	grep '^not ok' "$tmp/api.tap" | sed 's/^/# /'
	sed 's/^/# stderr: /' "$tmp/api.err" | grep -v ODEBUG | head -n 5
	for m in "other-reader:breaks Tiny RCU's assumption" \
		"sync-in-section:called inside a read-side critical section" \
		"higher-prio-sync:runs at SCHED_FIFO priority 2, the group at 1"; do
		timeout -k 5 60 chrt -f 1 taskset -c "$cpu" "$tmp/api" "${m%%:*}" >"$tmp/out" 2>&1
		rc=$?
		[ $rc = 134 ] && grep -q "rcu: BUG: .*${m#*:}" "$tmp/out"
		ok $? "${m%%:*}: stops the program (status $rc), saying \"${m#*:}\""
	done
fi

if [ -z "${SAN:-}" ]; then
	nm -D --defined-only "$tiny/librcutiny.so" | awk '$3 ~ /^lrcu_/ { print $3 }' |
		sed 's/@.*//' | sort >"$tmp/nm"
	sed -n 's/^[[:space:]]*\(lrcu_[a-z0-9_]*\);$/\1/p' "$TOP/rcu/tiny/librcutiny.map" | sort >"$tmp/map"
	cmp -s "$tmp/nm" "$tmp/map"
	ok $? "librcutiny.so exports exactly rcu/tiny/librcutiny.map$(diff "$tmp/map" "$tmp/nm" | grep '^[<>]' | tr '\n' ' ')"
fi
done_testing
