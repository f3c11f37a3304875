"""Design-space sweeps: spec -> plan -> traces once per (workload, node, estimator, split) ->
simulations per system variant, on a local process pool or Ray, kept on disk by content."""
