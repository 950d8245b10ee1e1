# rcu/formal/: the Spin model of the reader-word protocol.
#
#   make verify     check every variant of rcu/formal/reader_word.pml with
#                   Spin (rcu/formal/verify.sh): one line per variant,
#                   expected and got; nonzero exit on any surprise; a SKIP
#                   line (exit 0) when spin is not installed.
#                   VERIFY_FLAGS passes options (-j N, --deep, names).

VERIFY_FLAGS ?=

verify:
	rcu/formal/verify.sh --out $(BUILD)/formal $(VERIFY_FLAGS)

.PHONY: verify
