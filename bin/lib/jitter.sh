# shellcheck shell=bash
# bin/lib/jitter.sh - host-side jitter while a batch runs, as kvm.sh's
# --jitter (jitter.sh): each jitter process moves itself to a random CPU
# of the budget, sleeps a random time up to MAXSLEEP us, spins a random
# time up to MAXSPIN us, and again, until the batch ends.  It perturbs
# the torture threads' scheduling the way other load on a host would.
# Sourced; uses allowed_cpus (common.sh).

JITTER_PIDS=()

# jitter_spec TEXT: is TEXT a --jitter value, "N [MAXSLEEP [MAXSPIN]]"
# (N -1: one a CPU of the budget, 0: none)?
jitter_spec() {
	[[ $1 =~ ^-?[0-9]+([[:space:]]+[0-9]+){0,2}[[:space:]]*$ ]]
}

# jitter_one SEED MAXSLEEP MAXSPIN CPU...: one jitter process's loop.
jitter_one() {
	local sleepmax=$2 spinmax=$3 us end
	shift 3
	RANDOM=$1
	shift
	while :; do
		if [ $# -gt 0 ] && have taskset; then
			taskset -p -c "${*:$((RANDOM % $# + 1)):1}" $BASHPID >/dev/null 2>&1 || true
		fi
		us=$(((RANDOM * 32768 + RANDOM) % (sleepmax + 1)))
		sleep "$((us / 1000000)).$(printf '%06d' $((us % 1000000)))"
		us=$(((RANDOM * 32768 + RANDOM) % (spinmax + 1)))
		end=$((${EPOCHREALTIME/./} + us))
		while ((${EPOCHREALTIME/./} < end)); do :; done
	done
}

# jitter_start SPEC BUDGET: start the jitter processes of SPEC (see
# jitter_spec; empty or 0: none) over the BUDGET CPUs of this process.
# Fails if there are none.
jitter_start() {
	local n sleepmax spinmax i
	local -a cpus
	read -r n sleepmax spinmax <<<"${1:-0}"
	((n >= 0)) || n=$2
	((n > 0)) || return 1
	mapfile -t cpus < <(allowed_cpus | head -n "$2")
	for ((i = 0; i < n; i++)); do
		jitter_one $((i * 1000 + $$ % 1000)) "${sleepmax:-1000000}" "${spinmax:-1000}" "${cpus[@]}" &
		JITTER_PIDS+=($!)
	done
}

# jitter_stop: end the jitter processes this session started (by pid).
jitter_stop() {
	local pid
	for pid in ${JITTER_PIDS[@]+"${JITTER_PIDS[@]}"}; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	JITTER_PIDS=()
}
