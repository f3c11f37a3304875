"""Vector work of a kernel weighted by each elementwise op's measured cost: XLA's op profiles.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hespas_py.kernels.costs import ELEMENTWISE_OPS, op_work
from hespas_py.kernels.work import TENSOR
from hespas_py.mlir.ops import Op

#: Cycles per element of an elementwise op absent from a profile (``kDefaultFlopsPerElement``).
DEFAULT_CYCLES = 3


def _table(rows: Mapping[str, tuple[int, ...]], ops: tuple[str, ...]) -> dict[tuple[str, str], int]:
    """{(op short name, MLIR dtype): cycles} from one row of cycles per dtype, in ``ops`` order."""
    return {(op, dtype): cycles for dtype, row in rows.items() for op, cycles in zip(ops, row, strict=False)}


_FLOAT_OPS = ("cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one",
              "rsqrt", "sine", "sqrt", "tanh", "add", "atan2", "divide", "multiply", "power",
              "subtract")
_INT_OPS = ("divide", "multiply", "power")

#: Clock cycles per element by (op, element type), per profile key of hlo_op_profiles_data.h.
PROFILES: Mapping[str, Mapping[tuple[str, str], int]] = {
    "sm_90": {
        **_table({
            "f16": (201, 997, 102, 217, 182, 245, 95, 993, 95, 502, 7, 451, 43, 7, 526, 7),
            "f32": (178, 978, 79, 190, 166, 229, 75, 958, 75, 467, 7, 431, 19, 3, 510, 7),
            "f64": (586, 558, 376, 712, 815, 1259, 277, 554, 332, 431, 15, 930, 526, 15, 2205,
                    15),
        }, _FLOAT_OPS),
        **_table({
            "complex<f32>": (2415, 641, 2055, 756, 633, 3148, 2324, 4344, 2379, 7, 6462, 498, 79,
                             5532, 7),
            "complex<f64>": (1750, 1342, 1275, 2455, 2403, 5500, 1999, 6636, 4613, 15, 13131,
                             2280, 39, 8363, 15),
        }, _FLOAT_OPS[1:]),  # no cbrt on complex types
        **_table({
            "i8": (356, 7, 122), "i16": (364, 7, 122), "i32": (297, 3, 71), "i64": (685, 11, 253),
            "ui8": (300, 7, 122), "ui16": (304, 7, 126), "ui32": (122, 3, 71),
            "ui64": (629, 11, 253),
        }, _INT_OPS),
    },
}


def cycles(name: str, dtype: str, profile: Mapping[tuple[str, str], int]) -> int:
    """Cycles per element ``profile`` charges an elementwise op ``name`` on ``dtype``."""
    return profile.get((name, dtype), DEFAULT_CYCLES)


def _cycles(op: Op, profile: Mapping[tuple[str, str], int]) -> int:
    return cycles(op.short_name, op.result_types[0].dtype if op.result_types else "", profile)


def vector_work(ops: Iterable[Op], profile: Mapping[tuple[str, str], int]) -> float:
    """The vector-unit work of a kernel's ``ops`` in ``profile``'s cycle-weighted FLOPs."""
    total = 0.0
    for op in ops:
        name = op.short_name
        if name in ELEMENTWISE_OPS and op.result_types:
            total += _cycles(op, profile) * op.result_types[0].num_elements
        elif name == "reduce" and op.regions and op.operand_types:
            reducer = sum(_cycles(inner, profile) for inner in op.regions[0].ops
                          if inner.short_name in ELEMENTWISE_OPS)
            reduced = sum(t.num_elements for t in op.operand_types[:len(op.operand_types) // 2])
            total += reducer * reduced
        else:
            work = op_work(op)
            total += work.total_flops - sum(f for unit, _, f in work.flops if unit == TENSOR)
    return total
