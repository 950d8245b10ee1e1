#!/usr/bin/env bash
# nightly-job.sh - one scenario of bin/nightly.sh, run by GNU parallel on
# a host (locally or over ssh) from the host's copy of the source:
#
#   bash BASE/src-ID/tree/bin/lib/nightly-job.sh BASE ID RUNID INSTANCE SCENARIO PASS SET TRY \
#        DURATION JOBS TORTURE_BIN PERF_BIN BIN_DIR [TORTURE_OPTION...]
#
# BASE: the host's nightly folder (relative to the working directory:
# the remote home, or the controller's build/nightly); ID: the source's
# id (BASE/src-ID/tree holds it, unpacked by nightly.sh); RUNID: the
# nightly run; JOBS: runs at a time per host, "LOGIN=N,..." (this host
# is $PARALLEL_SSHLOGIN, ":" here; not listed: one per 4 processors);
# PASS and SET: the pass and the program set it runs: rcutorture
# (bin/torture.sh with the TORTURE_OPTIONs), refscale, rcuscale, kvfree
# (bin/torture.sh --torture refscale|rcuscale), each as its own pass, or
# under the kasan or kcsan pass (--kasan, --kcsan: the sanitizer build;
# a perf program there does one round of each measurement, its figures
# are not measurements); TORTURE_BIN, PERF_BIN: "" or a program to run
# instead of building; BIN_DIR: "" or a make build folder whose programs
# run instead of building (DIR/rcutorture, DIR/refscale, DIR/rcuscale;
# DIR/asan/ and DIR/tsan/ under kasan and kcsan) (tests).
#
# The job claims a free slot (BASE/slot-K.lock, held while it runs), so
# that the runs on a host use their own copy of the tree
# (BASE/src-ID/slot-K: builds never race, and are reused by the slot's
# next runs) and their own share of the processors (taskset), then runs
# bin/torture.sh for the one scenario.  Its results go to
# BASE/out/RUNID/INSTANCE.tTRY/ (the scenario's files, torture.log,
# build-*.log, host, pass, job.status = torture.sh's exit status), which
# parallel returns to the controller.  Exit status 0 when torture.sh ran
# (whatever the verdict); anything else means the job was lost.
set -euo pipefail
PROG=nightly-job.sh

(($# >= 13)) || { echo "$PROG: usage: BASE ID RUNID INSTANCE SCENARIO PASS SET TRY DURATION JOBS TORTURE_BIN PERF_BIN BIN_DIR [OPTION...]" >&2; exit 2; }
base=$1 id=$2 runid=$3 inst=$4 scen=$5 pass=$6 set=$7 try=$8 duration=$9 jobs=${10} tbin=${11} pbin=${12} bindir=${13}
shift 13
san="" sub=""
case $pass/$set in
rcutorture/rcutorture | refscale/refscale | rcuscale/rcuscale | kvfree/kvfree) ;;
kasan/rcutorture | kasan/refscale | kasan/rcuscale | kasan/kvfree) san=kasan sub=asan/ ;;
kcsan/rcutorture | kcsan/refscale | kcsan/rcuscale | kcsan/kvfree) san=kcsan sub=tsan/ ;;
*) echo "$PROG: pass $pass with set $set: no such pass" >&2; exit 2 ;;
esac
if [ "$set" = rcutorture ]; then
	set -- ${san:+"--$san"} "$@"
	tbin=${tbin:-${bindir:+$bindir/${sub}rcutorture}}
else
	suite=rcuscale
	[ "$set" != refscale ] || suite=refscale
	# Under a sanitizer the reports are the result, not the figures: one
	# round of each measurement is enough.
	set -- --torture "$suite" ${san:+"--$san" --bootargs "$suite.nruns=1"}
	pbin=${pbin:-${bindir:+$bindir/$sub$suite}}
fi

tree=$base/src-$id/tree
[ -d "$tree" ] || { echo "$PROG: $tree: missing (the host was not prepared)" >&2; exit 3; }
# shellcheck source=common.sh
. "$tree/bin/lib/common.sh"
# shellcheck source=run.sh
. "$tree/bin/lib/run.sh"

host=${PARALLEL_SSHLOGIN:-:}
[ "$host" != : ] || host=local
out=$base/out/$runid/$inst.t$try
rm -rf "$out"
mkdir -p "$out"

# A slot: the first lock nobody holds (kept open until the job ends).
k=0
while :; do
	k=$((k + 1))
	exec {lockfd}>"$base/slot-$k.lock"
	flock -n "$lockfd" && break
	exec {lockfd}>&-
done
echo "$host slot $k $(date '+%Y.%m.%d-%H.%M.%S')" >"$out/started"

# This slot's share of the processors.
mapfile -t cpus < <(allowed_cpus)
n=$(tr ',' '\n' <<<"$jobs" | awk -F= -v h="${PARALLEL_SSHLOGIN:-:}" '$1 == h && $2 ~ /^[0-9]+$/ { print $2; exit }')
jobs=${n:-$((${#cpus[@]} / 4))}
((jobs > 0)) || jobs=1
share=$((${#cpus[@]} / jobs))
((share > 0)) || share=1
first=$(((k - 1) % jobs * share))
pin=()
if have taskset; then
	pin=(taskset -c "$(sched_cpus "$first" "$share" "${cpus[@]}")")
fi

# The slot's own tree (copied once per source; builds stay between runs).
slot=$base/src-$id/slot-$k
if [ ! -d "$slot" ]; then
	rm -rf "$slot.tmp"
	cp -a "$tree" "$slot.tmp"
	mv "$slot.tmp" "$slot"
fi

st=0
(
	cd "$slot"
	export TORTURE_NO_REPORT=1
	[ -z "$tbin" ] || export TORTURE_BIN=$tbin
	[ -z "$pbin" ] || export PERF_BIN=$pbin
	exec ${pin[@]+"${pin[@]}"} bin/torture.sh --results "$PWD/../runs-$runid-$inst" --duration "$duration" "$@" "$scen"
) >"$out/torture.out" 2>&1 || st=$?

# The results, flattened into OUT: SCENARIO's files, the session's log and
# build logs beside them.
res=$base/src-$id/runs-$runid-$inst
date_dir=$(find "$res" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort | tail -n1)
if [ -n "$date_dir" ] && [ -d "$date_dir/$scen" ]; then
	mv "$date_dir/$scen"/* "$out/"
	for f in "$date_dir"/build-*.log; do [ ! -f "$f" ] || mv "$f" "$out/"; done
	[ ! -f "$date_dir/log" ] || cat "$date_dir/log" >"$out/torture.log"
fi
rm -rf "$res"
[ -f "$out/torture.log" ] || mv "$out/torture.out" "$out/torture.log"
rm -f "$out/torture.out"
if ((st > 1)); then
	echo "!!! torture.sh exited $st (see torture.log)" >>"$out/Warnings"
fi
echo "$host" >"$out/host"
echo "$pass" >"$out/pass"
echo "$st" >"$out/job.status"
echo "$inst on $host: $(grep -m1 -E "^$scen( -------|: )" "$out/torture.log" 2>/dev/null || echo "torture.sh exited $st")"
