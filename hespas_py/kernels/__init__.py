"""Kernel planning: which kernels XLA's compiler would launch for a set of ops, and the
work and boundary traffic of each (rules and sources: docs/kernels.md).

Each name loads its module on first use (`__getattr__`): the roofline's per-op work model does
not import the planner (a tenth of a run's imports)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hespas_py.kernels.classes import CLASSES as CLASSES
    from hespas_py.kernels.classes import COPY as COPY
    from hespas_py.kernels.classes import ELEMENTWISE as ELEMENTWISE
    from hespas_py.kernels.classes import GATHER as GATHER
    from hespas_py.kernels.classes import GEMM as GEMM
    from hespas_py.kernels.classes import OTHER as OTHER
    from hespas_py.kernels.classes import REDUCE_WINDOW as REDUCE_WINDOW
    from hespas_py.kernels.classes import REDUCTION as REDUCTION
    from hespas_py.kernels.classes import SCATTER as SCATTER
    from hespas_py.kernels.classes import kernel_class as kernel_class
    from hespas_py.kernels.convolution import CONV_BACKWARD_FILTER as CONV_BACKWARD_FILTER
    from hespas_py.kernels.convolution import CONV_BACKWARD_INPUT as CONV_BACKWARD_INPUT
    from hespas_py.kernels.convolution import CONV_FORWARD as CONV_FORWARD
    from hespas_py.kernels.convolution import channel_efficiency as channel_efficiency
    from hespas_py.kernels.convolution import conv_channel_padding as conv_channel_padding
    from hespas_py.kernels.convolution import conv_kind as conv_kind
    from hespas_py.kernels.convolution import padded_f16_channels as padded_f16_channels
    from hespas_py.kernels.convolution import padded_input as padded_input
    from hespas_py.kernels.cost import block_outputs as block_outputs
    from hespas_py.kernels.cost import plan_kernels as plan_kernels
    from hespas_py.kernels.costs import op_work as op_work
    from hespas_py.kernels.kernel import FLASH_BACKWARD as FLASH_BACKWARD
    from hespas_py.kernels.kernel import FLASH_FORWARD as FLASH_FORWARD
    from hespas_py.kernels.kernel import Kernel as Kernel
    from hespas_py.kernels.kernel import Kind as Kind
    from hespas_py.kernels.layout_chains import chain_copies as chain_copies
    from hespas_py.kernels.linalg_costs import REDUCIBLE_F32 as REDUCIBLE_F32
    from hespas_py.kernels.op_cycles import PROFILES as PROFILES
    from hespas_py.kernels.op_cycles import cycles as cycles
    from hespas_py.kernels.op_cycles import vector_work as vector_work
    from hespas_py.kernels.planner import Planner as Planner
    from hespas_py.kernels.row_tiles import GIVEN_SUM as GIVEN_SUM
    from hespas_py.kernels.row_tiles import ROW_SUM as ROW_SUM
    from hespas_py.kernels.row_tiles import SOFTMAX as SOFTMAX
    from hespas_py.kernels.row_tiles import spanned_rows as spanned_rows
    from hespas_py.kernels.rules import FusionPasses as FusionPasses
    from hespas_py.kernels.rules import GpuRules as GpuRules
    from hespas_py.kernels.scope import IN_PLACE as IN_PLACE
    from hespas_py.kernels.scope import Node as Node
    from hespas_py.kernels.scope import OpClass as OpClass
    from hespas_py.kernels.scope import Scope as Scope
    from hespas_py.kernels.scope import constant_values as constant_values
    from hespas_py.kernels.scope import sunk_arguments as sunk_arguments
    from hespas_py.kernels.work import TENSOR as TENSOR
    from hespas_py.kernels.work import Work as Work

#: Each exported name -> the module of this package that defines it (the imports above are for
#: type checkers; tests/test_stage_imports.py keeps the two alike).
_WHERE: dict[str, str] = {
    "CLASSES": "classes", "COPY": "classes", "ELEMENTWISE": "classes", "GATHER": "classes",
    "GEMM": "classes", "OTHER": "classes", "REDUCE_WINDOW": "classes", "REDUCTION": "classes",
    "SCATTER": "classes", "kernel_class": "classes",
    "CONV_BACKWARD_FILTER": "convolution", "CONV_BACKWARD_INPUT": "convolution",
    "CONV_FORWARD": "convolution", "channel_efficiency": "convolution",
    "conv_channel_padding": "convolution", "conv_kind": "convolution",
    "padded_f16_channels": "convolution", "padded_input": "convolution",
    "block_outputs": "cost", "plan_kernels": "cost",
    "op_work": "costs",
    "FLASH_BACKWARD": "kernel", "FLASH_FORWARD": "kernel", "Kernel": "kernel", "Kind": "kernel",
    "chain_copies": "layout_chains",
    "REDUCIBLE_F32": "linalg_costs",
    "PROFILES": "op_cycles", "cycles": "op_cycles", "vector_work": "op_cycles",
    "Planner": "planner",
    "GIVEN_SUM": "row_tiles", "ROW_SUM": "row_tiles", "SOFTMAX": "row_tiles",
    "spanned_rows": "row_tiles",
    "FusionPasses": "rules", "GpuRules": "rules",
    "IN_PLACE": "scope", "Node": "scope", "OpClass": "scope", "Scope": "scope",
    "constant_values": "scope", "sunk_arguments": "scope",
    "TENSOR": "work", "Work": "work",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    """Exported ``name``, imported from its module on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
