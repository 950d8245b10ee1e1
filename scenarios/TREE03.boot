rcutorture.onoff_interval=200
rcutree.gp_preinit_delay=12
rcutree.gp_init_delay=3
rcutree.gp_cleanup_delay=3
threadirqs
rcutree.kthread_prio=2
rcutorture.preempt_duration=10
