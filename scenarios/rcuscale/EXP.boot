rcuscale.scale_type=srcu,srcud rcuscale.gp_exp=1 rcuscale.nwriters=1,2 rcuscale.nreaders=0,1 rcuscale.gps=200
