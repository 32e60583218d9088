rb_target='/dev/loopA'
rb_duration='0.2s per point'
