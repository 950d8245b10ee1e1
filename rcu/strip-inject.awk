# rcu/strip-inject.awk - a public header as `make install` installs it:
# without its deliberate-bug hooks (the #ifdef LRCU_INJECT blocks, which
# only `make INJECT=1` builds compile) and its test hooks (the #ifdef
# LRCU_TEST_HOOKS blocks, for rcutorture) and its weak-memory emulation
# (#ifdef LRCU_WEAKMEM, make WEAKMEM=1).  The lines of such a block, up to
# its matching #endif, are dropped; an #else part is kept.  Conditionals
# nested inside are followed, so the right #endif ends the block.
#   awk -f rcu/strip-inject.awk HEADER > INSTALLED
/^[ \t]*#[ \t]*if/ {
	depth++
	if (!skip && $0 ~ /^[ \t]*#[ \t]*ifdef[ \t]+LRCU_(INJECT|TEST_HOOKS|WEAKMEM)[ \t]*$/) {
		skip = depth	# drop the block
		next
	}
}
/^[ \t]*#[ \t]*else/ && skip == depth {
	skip = -depth		# keep the #else part, drop its #endif
	next
}
/^[ \t]*#[ \t]*endif/ {
	if (skip == depth || skip == -depth) {
		skip = 0
		depth--
		next
	}
	depth--
}
skip <= 0 { print }
