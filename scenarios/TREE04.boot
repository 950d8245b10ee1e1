rcutree.rcu_fanout_leaf=4
nohz_full=1-7
rcutorture.stutter=3
rcupdate.rcu_expedited=1
