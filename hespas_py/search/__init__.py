"""Search over parallelism layouts: every assignment of N devices to a factory's named axes (and
its ``--set`` lists), each layout exported (`hespas_py.export.batch`, cached by content), its
traces made and simulated by the sweep engine (`hespas_py.sweep`), rows ranked by step time,
layouts that do not fit in memory last."""
