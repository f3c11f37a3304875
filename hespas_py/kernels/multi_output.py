"""Multi-output (sibling) fusion: kernels over one iteration space that read one large value
merge into one kernel, which reads the value once (XLA's GPU ``multi_output_fusion``).

A loop kernel whose result a reduction kernel reads merges into it too. Two kernels merge only
when no other kernel lies on a path between them (the merged kernel would wait for itself: XLA's
cycle check) and neither uses a reduction result of the other (`_reads_reduction_of`). Each
joins the first sibling group it can, largest shared values first.
"""

from __future__ import annotations

from hespas_py.dag import Dag
from hespas_py.kernels.kernel import Kind
from hespas_py.kernels.kernel_groups import Grouping
from hespas_py.kernels.scope import IN_PLACE, OpClass

#: Sibling kernels merge only around a shared value at least this large (XLA merges siblings to
#: save reads; for tiny values the extra kernel inputs are not worth it).
MIN_SHARED_BYTES = 1 << 16


def merge_siblings(kernels: Grouping) -> None:
    """Merge the sibling kernels of ``kernels`` (see the module docstring)."""
    shared = [k for k in kernels.users if kernels.nbytes(k) >= MIN_SHARED_BYTES]
    dag = None  # the kernel DAG, built when a first value has two candidate kernels
    for key in sorted(shared, key=lambda k: -kernels.nbytes(k)):
        candidates = {g for g in kernels.reader_groups(key)
                      if kernels.groups[g].kind in (Kind.LOOP, Kind.REDUCTION)}
        writer = kernels.writer_group(key)
        if writer is not None and kernels.groups[writer].kind is Kind.LOOP:
            candidates.add(writer)
        if len(candidates) < 2:
            continue
        if dag is None:
            dag = Dag(len(kernels.groups), kernels.kernel_edges())
        by_space: dict[int, list[int]] = {}
        for g in sorted(candidates):
            by_space.setdefault(_iteration_space(kernels, g), []).append(g)
        for groups in by_space.values():
            merged: list[int] = []
            for g in groups:
                base = next((b for b in merged if _can_merge(kernels, dag, b, g)), None)
                if base is None:
                    merged.append(g)
                else:
                    kernels.merge(base, g)
                    dag.merge(base, g)


def _iteration_space(kernels: Grouping, g: int) -> int:
    """Elements a kernel iterates over: a reduction's input, else its largest result."""
    best = 0
    for m in kernels.groups[g].members:
        node = kernels.nodes[m]
        if node.cls is OpClass.REDUCE:
            return kernels.elements(node.inputs[0])
        if node.op.short_name in IN_PLACE:  # iterates over its update
            best = max(best, kernels.elements(node.inputs[1]))
            continue
        best = max([best, *(kernels.elements(k) for k in node.outputs)])
    return best


def _can_merge(kernels: Grouping, dag: Dag, a: int, b: int) -> bool:
    """No path between a and b through a third kernel (merging would make a cycle), and
    neither uses a reduction result of the other (`_reads_reduction_of`)."""
    return not (dag.reaches_via_other(a, b) or dag.reaches_via_other(b, a)
                or _reads_reduction_of(kernels, dag, a, b)
                or _reads_reduction_of(kernels, dag, b, a))


def _reads_reduction_of(kernels: Grouping, dag: Dag, src: int, dst: int) -> bool:
    """Whether kernel ``dst`` reads a result of reduction kernel ``src``. XLA never fuses a
    reduce into a consumer (it is not loop-fusible; the reduction emitters write it as a
    fusion root), so a kernel cannot both compute a reduction and use its result. Not
    modelled: Triton normalization fusions (``SoftmaxRewriterTriton``), which may."""
    return kernels.groups[src].kind is Kind.REDUCTION and dst in dag.succ[src]

