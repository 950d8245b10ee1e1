#!/bin/sh
# lock_rules.t: every write of a field declared __guarded_by(lock) in
# rcu/src/internal.h or srcu_internal.h goes through rcu/src/lockdep.h's
# macros, which check the lock in debug builds (tests/rcu/lock_rules.c
# shows that check at run time).  The compiler finds the writes: with
# LRCU_LOCK_RULES_CHECK a guarded field is const and the macros write
# nothing, so rcu/src compiles (syntax only) if and only if no write
# bypasses them.  First shown planted violations, which must not compile.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
CC=${CC:-cc}
. "$TOP/tests/lib/tap.sh"

flags="-std=gnu11 -fsyntax-only -Wall -Wextra -Werror -Wshadow -D_GNU_SOURCE -I$TOP/rcu/include -I$TOP/rcu/src -DLRCU_LOCK_RULES_CHECK"

# check FILE: compile FILE in the checking mode; its diagnostics in $tmp/log.
check() {
	# shellcheck disable=SC2086
	$CC $flags "$1" >"$tmp/log" 2>&1
}

# planted NAME BODY FIELD: a function doing BODY must not compile, and the
# error must name FIELD.
planted() {
	cat >"$tmp/$1.c" <<C
#include "srcu_internal.h"
void planted(struct lrcu_node *rnp, struct lrcu_data *rdp, struct lrcu_srcu_sup *sup);
void planted(struct lrcu_node *rnp, struct lrcu_data *rdp, struct lrcu_srcu_sup *sup)
{
	(void)rnp; (void)rdp; (void)sup;
	$2;
}
C
	if check "$tmp/$1.c"; then
		ok 1 "a planted $1 does not compile"
	else
		grep -q "$3" "$tmp/log"
		ok $? "a planted $1 does not compile (the error names $3)"
	fi
}

planted "plain write of rcu_node->qsmask" "rnp->qsmask = 0" qsmask
planted "WRITE_ONCE() of rcu_data->cb_owner" "WRITE_ONCE(rdp->cb_owner, 1)" cb_owner
planted "increment of rcu_data->n_cbs_queued" "rdp->n_cbs_queued++" n_cbs_queued
planted "rcu_seq_start() of srcu sup->gp_seq" "rcu_seq_start(&sup->gp_seq)" rcu_seq_start
planted "atomic_inc() of rcu_node->n_qs_reports" "atomic_inc(&rnp->n_qs_reports)" n_qs_reports

cat >"$tmp/good.c" <<'C'
#include "srcu_internal.h"
void good(struct lrcu_node *rnp, struct lrcu_data *rdp, struct lrcu_srcu_sup *sup);
void good(struct lrcu_node *rnp, struct lrcu_data *rdp, struct lrcu_srcu_sup *sup)
{
	WRITE_ONCE_LOCKED(&rnp->lock, rnp->qsmask, 0);
	WRITE_LOCKED(&rdp->cblock, rdp->n_cbs_queued, rdp->n_cbs_queued + 1);
	rcu_seq_start(LOCKED_PTR(&sup->lock, &sup->gp_seq));
	WRITE_UNLOCKED(rnp->gp_seq, 0);
}
C
check "$tmp/good.c"
rc=$?
ok $rc "the same writes through lockdep.h's macros compile"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"

bad=0
for f in "$TOP"/rcu/src/*.c; do
	if ! check "$f"; then
		bad=1
		sed 's/^/# /' "$tmp/log" | head -20
	fi
done
ok $bad "rcu/src: no write of a guarded field bypasses lockdep.h's macros"

done_testing
