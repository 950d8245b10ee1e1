#!/bin/sh
# tests/formal/spin.t: the Spin model of the reader-word protocol, three
# variants: the protocol passes, a piggybacking updater behind an
# unconfirmed grace-period start fails (use after free) on a
# non-multi-copy-atomic memory, and so does an rcu_sched thread that sets
# its join bit only after its first section.  `make verify` runs all the
# variants.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v spin >/dev/null 2>&1; then
	echo "1..0 # SKIP spin not installed (Debian package spin)"
	exit 0
fi
if [ -n "${SAN:-}" ]; then
	echo "1..0 # SKIP the model does not use the library: checked by the plain run"
	exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$TOP/rcu/formal/verify.sh" --out "$out" real-pb early-return-nonmca join-late >"$out/lines" 2>&1
status=$?
echo "1..4"
n=1
for v in real-pb early-return-nonmca join-late; do
	line=$(grep " $v " "$out/lines")
	case "$line" in
	ok*) echo "ok $n - $v: $line" ;;
	*) echo "not ok $n - $v: ${line:-no result line}"; sed 's/^/# /' "$out/lines" ;;
	esac
	n=$((n + 1))
done
if [ $status -eq 0 ]; then
	echo "ok 4 - verify.sh exits 0"
else
	echo "not ok 4 - verify.sh exits $status"
fi
