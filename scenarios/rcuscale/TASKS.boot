rcuscale.scale_type=tasks,tasks-rude rcuscale.nwriters=1 rcuscale.nreaders=0,2 rcuscale.gps=20 rcuscale.nruns=1
