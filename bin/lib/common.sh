# shellcheck shell=bash
# bin/lib/common.sh - small helpers shared by torture.sh and recheck.sh.
# Sourced, never run.  The caller has set -euo pipefail and PROG.

# The repository's top folder (bin/lib/../..).
TORTURE_TOP=${TORTURE_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}

# die STATUS MESSAGE...: one line on stderr, then exit STATUS.
die() {
	local rc=$1
	shift
	printf '%s: %s\n' "${PROG:-torture}" "$*" >&2
	exit "$rc"
}

# have COMMAND: is COMMAND on PATH?
have() {
	command -v "$1" >/dev/null 2>&1
}

# tree_locked COMMAND...: COMMAND (a make of the tree) holding the tree's
# build lock (build/.lock): two scripts (two tests of one `make check', two
# users' runs) building one folder at once would write the same objects
# under each other.  Without flock (util-linux), COMMAND alone.
tree_locked() {
	if have flock && mkdir -p "$TORTURE_TOP/build" 2>/dev/null; then
		flock "$TORTURE_TOP/build/.lock" "$@"
	else
		"$@"
	fi
}

# tree_make ARG...: make -C the tree, holding its build lock.
tree_make() {
	tree_locked make -C "$TORTURE_TOP" "$@"
}

# have_jq: jq is optional (Debian package jq); say so once when missing.
have_jq() {
	have jq && return 0
	if [ -z "${JQ_WARNED:-}" ]; then
		JQ_WARNED=1
		printf '%s: jq not found (Debian package jq): JSON files are not read, figures come from console.log\n' \
			"${PROG:-torture}" >&2
	fi
	return 1
}

# positive TEXT: is TEXT a whole number from 1 to 999999?
positive() {
	[[ $1 =~ ^[0-9]{1,6}$ ]] && ((10#$1 > 0))
}

# parse_duration TEXT: print TEXT in seconds.  A bare number is minutes,
# else a number with one suffix s, m, h or d.  Fails on anything else or 0.
parse_duration() {
	local n unit
	[[ $1 =~ ^([0-9]{1,7})([smhd]?)$ ]] || return 1
	n=$((10#${BASH_REMATCH[1]}))
	unit=${BASH_REMATCH[2]:-m}
	case $unit in
	m) n=$((n * 60)) ;;
	h) n=$((n * 3600)) ;;
	d) n=$((n * 86400)) ;;
	esac
	((n > 0)) || return 1
	echo "$n"
}

# expand_cpulist LIST: "0-3,6" -> one CPU id a line.
expand_cpulist() {
	local part lo hi
	local IFS=,
	for part in $1; do
		if [[ $part =~ ^([0-9]+)-([0-9]+)$ ]]; then
			lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]}
			seq "$lo" "$hi"
		elif [[ $part =~ ^[0-9]+$ ]]; then
			echo "$part"
		fi
	done
}

# allowed_cpus: the CPU ids this process may run on, one a line.
allowed_cpus() {
	local list=
	list=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status 2>/dev/null) || true
	if [ -n "$list" ]; then
		expand_cpulist "$list"
	else
		seq 0 $(($(nproc) - 1))
	fi
}

# instance_scenario DIRNAME: "TREE01.3" -> "TREE01" (repeat suffix dropped).
instance_scenario() {
	local b=${1##*/}
	if [[ $b =~ ^(.*)\.[0-9]+$ ]]; then
		echo "${BASH_REMATCH[1]}"
	else
		echo "$b"
	fi
}
