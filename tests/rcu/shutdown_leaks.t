#!/bin/sh
# tests/rcu/shutdown_leaks.t: after rcu_shutdown() nothing the library allocated is
# left: valgrind (plain build) and LeakSanitizer (SAN=address) report a
# clean exit for a program that used every flavor, SRCU, callbacks and
# debug objects, and report leaks for the same program without the
# shutdown (so the check can fail).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$TOP/tests/lib/tap.sh"
prog=$BUILD_DIR/tests/rcu/shutdown
# CPU 0 (the program's main thread) offloaded: rcuo threads are stopped too.
export RCU_BOOTARGS='debug_objects=1 rcu_nocbs=0'

case "$SAN" in
"")
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "1..0 # SKIP valgrind not installed (Debian package valgrind)"
		exit 0
	fi
	vg="valgrind --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all --error-exitcode=9"
	$vg "$prog" use >"$tmp/use.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && grep -q "All heap blocks were freed" "$tmp/use.out"
	ok $? "valgrind: after rcu_shutdown() all heap blocks were freed (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/use.out"
	$vg "$prog" no-shutdown >"$tmp/no.out" 2>&1
	rc=$?
	[ $rc -eq 9 ] && grep -q "possibly lost" "$tmp/no.out"
	ok $? "valgrind: without rcu_shutdown() it reports the library's threads and memory (exit $rc)" ;;
address)
	export LSAN_OPTIONS="use_globals=0:use_tls=0:suppressions=$TOP/tests/fixtures/lsan-outside.supp"
	"$prog" use >"$tmp/use.out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ! grep -q "LeakSanitizer" "$tmp/use.out"
	ok $? "LeakSanitizer (even memory only globals point to): nothing left after rcu_shutdown() (exit $rc)"
	[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/use.out"
	"$prog" no-shutdown >"$tmp/no.out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && grep -q "rcu/src/" "$tmp/no.out"
	ok $? "LeakSanitizer: without rcu_shutdown() it reports the library's memory (exit $rc)" ;;
*)
	echo "1..0 # SKIP no leak checker under SAN=$SAN"
	exit 0 ;;
esac
done_testing
