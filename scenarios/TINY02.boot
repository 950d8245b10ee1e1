rcupdate.rcu_self_test=1
rcupdate.rcu_self_test_bh=1
