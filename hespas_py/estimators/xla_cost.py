"""The ``xla_cost`` estimator: XLA's own HLO cost analysis of each block, timed with the preset.

Each block is cut out of its module as a standalone module (`mlir.extract`), converted to an HLO
module by jaxlib (``mlir_module_to_xla_computation``) and analysed by XLA's ``HloCostAnalysis``
(``hlo_module_cost_analysis``) on the local client. XLA reports the FLOPs and the bytes accessed
of the unfused module; the time is ``max(compute, bytes / memory_bandwidth)`` where the FLOPs are
split between the tensor unit (at the per-dtype peak) and the vector unit in the proportions
`costs.op_work` gives the block's ops (XLA reports one total).

`XlaBlockEstimator` is the shared base of the estimators that hand blocks to XLA: `prepare` must
see the block graph first (blocks are cut from its source module). A block XLA cannot take (no source attached, an op XLA:CPU does not know, ...) is costed by the roofline estimator
instead, and its rows carry a note saying why.
"""

from __future__ import annotations

import functools
from abc import abstractmethod
from typing import Any

from hespas_py.errors import HespasError, first_line
from hespas_py.estimators.base import Estimate, OpCost, register
from hespas_py.estimators.roofline import Roofline
from hespas_py.jaxcompat import hlo_cost_analysis, local_client, mlir_to_xla_computation
from hespas_py.kernels import op_work
from hespas_py.mlir.bindings import ir
from hespas_py.mlir.extract import BlockExtractor
from hespas_py.split.blocks import Block, BlockGraph


@functools.lru_cache(maxsize=4)
def _extractor(path: str) -> BlockExtractor:
    return BlockExtractor(path)


def xla_computation(module_text: str) -> Any:
    """A StableHLO module's text as an ``XlaComputation`` (raises `HespasError` if XLA refuses)."""
    try:
        return mlir_to_xla_computation(module_text)
    except Exception as exc:  # XLA raises its own status types
        raise HespasError(f"XLA cannot convert the block: {first_line(exc)}") from None


class XlaBlockEstimator(Roofline):
    """Base of the estimators that cut each block out and give it to XLA."""

    def __init__(self, hardware) -> None:
        super().__init__(hardware)
        self.source: str | None = None

    def prepare(self, graph: BlockGraph) -> None:
        self.source = graph.source or None

    def block_module(self, block: Block) -> ir.Module:
        """The block as a standalone StableHLO module (live; its text is ``str()`` of it)."""
        if self.source is None:
            raise HespasError(f"{self.name}: no module file attached to cut blocks from")
        return _extractor(self.source).extract_module(block.ops)

    @abstractmethod
    def estimate_with_xla(self, block: Block) -> Estimate:
        """Cost ``block`` through XLA (may raise `HespasError`)."""

    def estimate(self, block: Block) -> Estimate:
        try:
            return self.estimate_with_xla(block)
        except HespasError as exc:
            fallback = super().estimate(block)
            note = f"{self.name} fell back to roofline: {exc}"
            rows = tuple(OpCost(r.name, r.dtype, r.flops, r.bytes, r.time_s, r.fallback,
                                (*r.notes, note)) for r in fallback.per_op)
            return Estimate(fallback.time_s, fallback.flops, fallback.bytes, rows,
                            fallback.peak_flops)


@register
class XlaCost(XlaBlockEstimator):
    """XLA's HloCostAnalysis FLOPs and bytes, timed with the hardware's rates."""

    name = "xla_cost"

    def analysis(self, block: Block) -> dict[str, float]:
        """XLA's cost analysis of the block: ``flops``, ``bytes accessed``, ``transcendentals``."""
        computation = xla_computation(str(self.block_module(block)))
        try:
            return hlo_cost_analysis(local_client(), computation)
        except Exception as exc:
            raise HespasError(f"XLA cost analysis failed: {first_line(exc)}") from None

    def estimate_with_xla(self, block: Block) -> Estimate:
        result = self.analysis(block)
        flops = float(result.get("flops", 0.0))
        nbytes = float(result.get("bytes accessed", 0.0))
        shares: dict[tuple[str, str], float] = {}
        for op in block.ops:
            for unit, dtype, share in op_work(op).flops:
                shares[(unit, dtype)] = shares.get((unit, dtype), 0.0) + share
        counted = sum(shares.values())
        compute_s = 0.0 if counted else flops / self._vector_rate
        notes: dict[str, None] = {}
        dtype, top = "", 0.0
        for (unit, share_dtype), share in shares.items():
            rate, shown, note = self.rate(unit, share_dtype)
            compute_s += flops * share / counted / rate
            if note:
                notes[note] = None
            if share > top:
                dtype, top = shown, share
        time_s = max(compute_s, nbytes / self.hardware.memory_bandwidth)
        row = OpCost(block.label, dtype, flops, nbytes, time_s, False, tuple(notes))
        peak = flops / compute_s if compute_s > 0 else self._vector_rate
        return Estimate(time_s, flops, nbytes, (row,), peak_flops=peak)
