"""Kernel planning: which kernels XLA's compiler would launch for a set of ops, and the
work and boundary traffic of each (rules and sources: docs/kernels.md)."""

from hespas_py.kernels.classes import (
    CLASSES,
    COPY,
    ELEMENTWISE,
    GATHER,
    GEMM,
    OTHER,
    REDUCE_WINDOW,
    REDUCTION,
    SCATTER,
    kernel_class,
)
from hespas_py.kernels.convolution import (
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
    channel_efficiency,
    conv_channel_padding,
    conv_kind,
    padded_f16_channels,
    padded_input,
)
from hespas_py.kernels.cost import block_outputs, plan_kernels
from hespas_py.kernels.costs import op_work
from hespas_py.kernels.kernel import FLASH_BACKWARD, FLASH_FORWARD, Kernel, Kind
from hespas_py.kernels.layout_chains import chain_copies
from hespas_py.kernels.linalg_costs import REDUCIBLE_F32
from hespas_py.kernels.op_cycles import PROFILES, cycles, vector_work
from hespas_py.kernels.planner import Planner
from hespas_py.kernels.row_tiles import GIVEN_SUM, ROW_SUM, SOFTMAX, spanned_rows
from hespas_py.kernels.rules import FusionPasses, GpuRules
from hespas_py.kernels.scope import (
    IN_PLACE,
    Node,
    OpClass,
    Scope,
    constant_values,
    sunk_arguments,
)
from hespas_py.kernels.work import TENSOR, Work

__all__ = ["CLASSES", "CONV_BACKWARD_FILTER", "CONV_BACKWARD_INPUT", "CONV_FORWARD", "COPY",
           "ELEMENTWISE", "FLASH_BACKWARD", "FLASH_FORWARD", "FusionPasses", "GATHER",
           "GEMM", "GIVEN_SUM", "GpuRules", "IN_PLACE", "Kernel", "Kind", "Node",
           "OTHER", "OpClass", "PROFILES", "Planner", "REDUCE_WINDOW", "REDUCIBLE_F32",
           "REDUCTION", "ROW_SUM", "SCATTER", "SOFTMAX", "Scope", "TENSOR", "Work",
           "block_outputs", "chain_copies", "channel_efficiency", "constant_values",
           "conv_channel_padding", "conv_kind", "cycles", "kernel_class", "op_work",
           "padded_f16_channels", "padded_input", "plan_kernels", "spanned_rows",
           "sunk_arguments", "vector_work"]
