"""XLA:CPU's fusion decisions that differ from XLA:GPU's, for the planner when `FusionPasses` asks
for them (the memory analysis of XLA:CPU programs, `hespas_py.memory.backend`)."""

from __future__ import annotations

from hespas_py.kernels.kernel_groups import Grouping

#: Elementwise ops XLA:CPU's instruction fusion counts expensive on real numbers
#: (``CpuInstructionFusion::IsExpensive``, xla/service/cpu/cpu_instruction_fusion.cc), for
#: `FusionPasses.expensive_reuse`; `_EXPENSIVE_IF_FLOAT` only on floats (integer division by a
#: constant is cheap there).
_EXPENSIVE = frozenset({
    "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "power",
    "atan2", "erf", "cbrt", "sqrt", "rsqrt", "acos", "acosh", "asin", "asinh", "atanh", "cosh",
    "sinh",
})
_EXPENSIVE_IF_FLOAT = frozenset({"divide", "remainder"})


def dot_convert(planner: Grouping, i: int) -> bool:
    """Whether node ``i`` converts to f32 the result of a 16-bit dot that nothing else
    reads."""
    op = planner.nodes[i].op
    if op.short_name != "convert" or op.result_types[0].dtype != "f32":
        return False
    producer = planner.producer.get(planner.nodes[i].inputs[0])
    return producer is not None and planner.nodes[producer].op.short_name in (
        "dot_general", "dot") and op.operand_types[0].dtype in ("bf16", "f16") \
        and planner.consumers(producer) == [i]


def reused_expensive(planner: Grouping, i: int) -> bool:
    """Whether node ``i`` is expensive and a kernel that reads it reads each of its elements
    many times (through a ``broadcast`` that grows it, in the reading kernel)."""
    op = planner.nodes[i].op
    if op.short_name not in _EXPENSIVE and not (
            op.short_name in _EXPENSIVE_IF_FLOAT
            and op.result_types[0].dtype.startswith(("f", "bf"))):
        return False
    seen: set[tuple[int, int]] = set()
    frontier = [(c, g) for c in planner.consumers(i) or () for g in planner.node_groups[c]]
    while frontier:
        c, g = frontier.pop()
        if (c, g) in seen:
            continue
        seen.add((c, g))
        reader = planner.nodes[c].op
        if reader.short_name in ("broadcast_in_dim", "broadcast") and \
                reader.result_types[0].num_elements > reader.operand_types[0].num_elements:
            return True
        frontier += [(u, g) for key in planner.nodes[c].outputs
                     for u in planner.users.get(key, ()) if g in planner.node_groups[u]]
    return False
