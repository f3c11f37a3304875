"""The host's cost of calling the step once: dispatch of the per-device program, per buffer.

A caller that waits for each step (``jax.block_until_ready(step(*args))``, as the measured GPU
rows do, or a loop that reads the loss every step) sees, besides the device's kernels, the
runtime's work on the host to start the program and hand back its results: a fixed part and a
part per argument and result buffer (JAX's argument checks, PjRt's buffer definition events and
output allocation). A loop that dispatches ahead hides it behind the previous step unless the host
is the slower of the two; the presets that set the params below state the measured harness.

Params (``Hardware.params``, both 0 by default, i.e. no cost; read by the rooflines):
    ``dispatch_overhead_s``: seconds per call; ``dispatch_per_buffer_s``: seconds per argument
    and per result buffer of the entry function; ``dispatch_source``: where they come from.

The cost is one `OpCost` row (`DISPATCH`) added to the estimate of the step's first compute
block, so every stage after the estimate (traces, simulation, reports) carries it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from hespas_py.estimators.base import Estimate, OpCost
from hespas_py.hardware import Params
from hespas_py.mlir.ops import Module
from hespas_py.split.blocks import BlockGraph

#: `OpCost.name` of the dispatch row.
DISPATCH = "host_dispatch"


def entry_buffers(module: Module) -> int:
    """Argument plus result buffers of the module's entry function."""
    entry = module.functions[module.entry]
    return len(entry.args) + len(entry.result_types)


def dispatch_cost(params: Params, buffers: int) -> OpCost | None:
    """The dispatch row of a step with ``buffers`` entry buffers; None when the params set none."""
    time_s = params.dispatch_overhead_s + params.dispatch_per_buffer_s * buffers
    if time_s <= 0:
        return None
    return OpCost(DISPATCH, "", 0.0, 0.0, time_s, notes=(f"{buffers} entry buffers",))


def with_dispatch(graph: BlockGraph, estimates: Sequence[Estimate | None],
                  cost: OpCost | None) -> list[Estimate | None]:
    """``estimates`` with ``cost`` added to the first compute block's (unchanged if None or if
    the step has no compute block)."""
    estimates = list(estimates)
    first = next((b.id for b in graph.blocks if not b.collective), None)
    if cost is None or first is None:
        return estimates
    estimate = estimates[first]
    assert estimate is not None, "a compute block has an estimate"
    estimates[first] = dataclasses.replace(estimate, time_s=estimate.time_s + cost.time_s,
                                           per_op=(cost, *estimate.per_op))
    return estimates
