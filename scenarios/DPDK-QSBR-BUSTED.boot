rcutorture.torture_type=dpdk-qsbr-busted
