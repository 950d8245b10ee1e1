#!/usr/bin/env bats
# SAN: plain build only (tests scripts, not the sanitized C code)
# liburcu, Concurrency Kit and DPDK are optional: a build with LIBURCU=0
# LIBCK=0 LIBDPDK=0 (as if liburcu-dev, libck-dev and libdpdk-dev were
# missing; build/torture-nourcu, a plain build kept between runs) lists
# their types as not built, naming the package, and the scenarios that
# need one are SKIPPED while the rest of the set passes.  (The whole
# "make check LIBURCU=0" and "bin/torture.sh --duration 10s CFLIST" on
# such a build are run by hand: docs/torture.md.)

load ../lib/scripts

setup() {
	NOURCU=$TOP/build/torture-nourcu
	# Only LIBURCU=0 decides this build: no flags of an outer make.
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u DEBUG -u BUILD -u LIBURCU -u LIBCK \
		-u LIBDPDK make -C "$TOP" -j2 BUILD=build/torture-nourcu LIBURCU=0 LIBCK=0 LIBDPDK=0 \
		build/torture-nourcu/rcutorture
	[ "$status" -eq 0 ] || { echo "$output" | tail -n 20; false; }
	[[ $output == *"urcu-* torture types not built"* ]]
	[[ $output == *"ck torture types not built"* ]]
	[[ $output == *"dpdk torture types not built"* ]]
}

@test "LIBURCU=0 LIBCK=0 LIBDPDK=0: --list-types names their types as not built, with the package to install" {
	run "$NOURCU/rcutorture" --list-types
	[ "$status" -eq 0 ]
	local t
	for t in urcu-memb urcu-mb urcu-signal urcu-qsbr urcu-bp; do
		grep -qx "$t (not built: install liburcu-dev (and rebuild))" <<<"$output" || { echo "$t"; false; }
	done
	for t in ck-epoch ck-epoch-busted; do
		grep -qx "$t (not built: install libck-dev (and rebuild))" <<<"$output" || { echo "$t"; false; }
	done
	for t in dpdk-qsbr dpdk-qsbr-scan dpdk-qsbr-busted; do
		grep -qx "$t (not built: install libdpdk-dev (and rebuild))" <<<"$output" || { echo "$t"; false; }
	done
	grep -qx rcu <<<"$output"
	run "$NOURCU/rcutorture" rcutorture.torture_type=ck-epoch
	[ "$status" -eq 2 ]
	[ "$output" = "rcutorture: torture_type=ck-epoch is not built: install libck-dev (and rebuild)" ]
	run "$NOURCU/rcutorture" rcutorture.torture_type=urcu-mb
	[ "$status" -eq 2 ]
	[ "$output" = "rcutorture: torture_type=urcu-mb is not built: install liburcu-dev (and rebuild)" ]
}

@test "LIBURCU=0 LIBCK=0 LIBDPDK=0: scenarios needing them are SKIPPED naming the package; the set passes" {
	run env TORTURE_BIN="$NOURCU/rcutorture" "$TORTURE" --results "$BATS_TEST_TMPDIR/res" \
		--duration 3s --cpus 4 URCU-MB URCU-QSBR CK-EPOCH DPDK-QSBR-SCAN TREE09
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"URCU-MB ------- SKIPPED: torture_type=urcu-mb is not built: install liburcu-dev (and rebuild)"* ]]
	[[ $output == *"URCU-QSBR ------- SKIPPED: torture_type=urcu-qsbr is not built: install liburcu-dev"* ]]
	[[ $output == *"TREE09 ------- "*" SUCCESS"* ]]
	[[ $output == *"CK-EPOCH ------- SKIPPED: torture_type=ck-epoch is not built: install libck-dev"* ]]
	[[ $output == *"DPDK-QSBR-SCAN ------- SKIPPED: torture_type=dpdk-qsbr-scan is not built: install libdpdk-dev"* ]]
	[[ $output == *"All 1 runs succeeded. 4 skipped."* ]]
}
