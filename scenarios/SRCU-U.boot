rcutorture.torture_type=srcud
rcupdate.rcu_self_test=1
