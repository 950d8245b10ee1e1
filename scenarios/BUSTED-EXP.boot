rcutorture.torture_type=busted_exp
rcutorture.gp_exp=1
rcutorture.gp_cond_exp=1
rcutorture.gp_poll_exp=1
