"""Regenerate the shipped workloads in ../workloads and the table in ../workloads/README.md.

    python scripts/export_workloads.py                 # every workload
    python scripts/export_workloads.py mlp_dp_4dev     # just these
    python scripts/export_workloads.py --params-only   # print parameter counts, export nothing

Each workload is exported in its own process (`hespas_py.export.export_in_subprocess`), since the
device count is fixed once per process. Small workloads are written as plain ``.mlir``, large
ones gzip-compressed as ``.mlir.gz`` (`hespas_py.export.workload_path` decompresses on use).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import gzip
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MODELS = REPO / "scripts" / "models"
WORKLOADS = REPO / "workloads"
README = WORKLOADS / "README.md"
PLAIN_LIMIT = 400_000  # bytes of text above which a workload is shipped compressed
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute")
TABLE_START, TABLE_END = "<!-- workloads table: start -->", "<!-- workloads table: end -->"

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(MODELS))


@dataclasses.dataclass(frozen=True)
class Workload:
    """One shipped workload.

    Attributes:
        name: file name without ``.mlir``/``.mlir.gz``.
        factory: ``FILE:FUNCTION`` under scripts/models.
        devices: devices the step runs on.
        parallelism: how the step is split, in words.
        params: trainable parameter count (from the model's own shapes).
        optimized: ship the module after XLA's CPU optimizations instead of after SPMD partitioning.
        compressed: ship it gzip-compressed whatever its size.
    """

    name: str
    factory: str
    devices: int
    parallelism: str
    params: int
    optimized: bool = False
    compressed: bool = False


def _fsdp_text(layout: Any, seq: int, remat: str) -> str:
    split = f"FSDP {layout.fsdp}" + (f" x DP {layout.data}" if layout.data > 1 else "") if layout.fsdp > 1 \
        else f"DP {layout.data}"
    return f"{split}, seq {seq}, {layout.batch_per_device} seq/dev, {remat} (shard_map)"


def scale_workloads() -> list[Workload]:
    """The programs of the published multi-node runs (`hespas accuracy --group scale`)."""
    import maxtext_llama
    import pax_gpt

    out = []
    for name, p in pax_gpt.PROGRAMS.items():
        c = pax_gpt.CONFIGS[p.size]
        remat = f"scan, {p.policy}" if p.policy else "unrolled, no remat"
        out.append(Workload(f"pax_{name}", f"pax_gpt.py:{name}", p.layout.devices,
                            _fsdp_text(p.layout, c.seq, remat), pax_gpt.param_count(c), compressed=True))
    for name, p in maxtext_llama.PROGRAMS.items():
        c = maxtext_llama.CONFIGS[p.model]
        out.append(Workload(f"maxtext_{name}", f"maxtext_llama.py:{name}", p.layout.devices,
                            _fsdp_text(p.layout, p.seq,
                                       "scan, saves " + ",".join((maxtext_llama.LAYER_INPUT, *p.saved))),
                            maxtext_llama.param_count(c), compressed=True))
    return out


def workloads() -> list[Workload]:
    import llama
    import llama_scan
    import mlp
    import parallel
    import resnet
    from common import count

    mlp_params = count(mlp.SHAPES)
    out = [
        Workload("mlp_dp_4dev", "mlp.py:dp_step", 4, "DP (jit)", mlp_params),
        Workload("mlp_fsdp_4dev", "mlp.py:fsdp_step", 4, "FSDP (shard_map)", mlp_params),
        Workload("mlp_tp_4dev", "mlp.py:tp_step", 4, "TP Megatron (jit)", mlp_params),
        Workload("pipeline_4dev", "parallel.py:pipeline_step", 4, "PP GPipe, 8 microbatches (shard_map)",
                 2 * parallel.STAGES * parallel.WIDTH * parallel.HIDDEN),
        Workload("moe_4dev", "parallel.py:moe_step", 4, "EP top-1 MoE (shard_map)",
                 parallel.WIDTH * parallel.EXPERTS + 2 * parallel.EXPERTS * parallel.WIDTH * parallel.HIDDEN),
        Workload("mesh2x4_8dev", "parallel.py:mesh2x4_step", 8, "DP 2 x TP 4 (jit)",
                 2 * parallel.WIDTH * parallel.HIDDEN),
    ]
    for depth in resnet.DEPTHS:
        out.append(Workload(f"resnet{depth}_train_4dev", f"resnet.py:resnet{depth}_step", 4,
                            "DP, 256 img/dev (shard_map)", resnet.param_count(depth)))
    for size, config in llama.CONFIGS.items():
        out.append(Workload(f"llama3_{size}_train_4dev", f"llama.py:llama3_{size}_step", 4,
                            "FSDP, seq 4096, 1 seq/dev (shard_map)", llama.param_count(config)))
    out.append(dataclasses.replace(out[-len(llama.CONFIGS)], name="llama3_100m_train_4dev_optimized",
                                   optimized=True))
    out.append(Workload("llama3_100m_scan_train_4dev", "llama_scan.py:llama3_100m_scan_step", 4,
                        "FSDP, layers scanned, seq 4096, 1 seq/dev (shard_map)",
                        llama_scan.param_count(llama.CONFIGS["100m"])))
    resnet50 = next(w for w in out if w.name == "resnet50_train_4dev")
    out.append(dataclasses.replace(resnet50, name="resnet50_train_4dev_optimized", optimized=True))
    return out + scale_workloads()


def op_counts(text: str) -> tuple[int, collections.Counter]:
    """Ops in all function bodies (terminators excluded) and collectives by kind."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    ops, collectives = 0, collections.Counter()
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)

        def visit(op: ir.Operation) -> ir.WalkResult:
            nonlocal ops
            name = op.name
            if name not in ("builtin.module", "func.func", "func.return", "stablehlo.return",
                            "mhlo.return", "sdy.mesh"):
                ops += 1
            kind = name.removeprefix("stablehlo.")
            if kind in COLLECTIVES:
                collectives[kind] += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return ops, collectives


def export(workload: Workload) -> tuple[Path, float]:
    """Export one workload into WORKLOADS; returns the file and the seconds it took."""
    from hespas_py.export import export_in_subprocess

    start = time.perf_counter()
    text = export_in_subprocess(str(MODELS / workload.factory), workload.devices, workload.optimized)
    seconds = time.perf_counter() - start
    for stale in WORKLOADS.glob(f"{workload.name}.mlir*"):
        stale.unlink()
    if len(text) <= PLAIN_LIMIT and not workload.compressed:
        path = WORKLOADS / f"{workload.name}.mlir"
        path.write_text(text)
    else:
        path = WORKLOADS / f"{workload.name}.mlir.gz"
        path.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
    return path, seconds


def table(all_workloads: list[Workload]) -> str:
    """The README table of every workload file present."""
    from hespas_py.export import workload_path

    rows = ["| workload | file | parameters | parallelism | devices | form | ops | "
            + " | ".join(COLLECTIVES) + " |",
            "|---|---|---:|---|---:|---|---:|" + "---:|" * len(COLLECTIVES)]
    for w in all_workloads:
        files = sorted(WORKLOADS.glob(f"{w.name}.mlir*"))
        if not files:
            continue
        ops, collectives = op_counts(workload_path(w.name).read_text())
        form = "XLA-optimized" if w.optimized else "post-SPMD"
        rows.append(f"| {w.name} | `{files[0].name}` | {w.params:,} | {w.parallelism} | {w.devices} | {form} | "
                    f"{ops} | " + " | ".join(str(collectives[c]) for c in COLLECTIVES) + " |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="workloads to export (default: all)")
    parser.add_argument("--params-only", action="store_true", help="print parameter counts, export nothing")
    args = parser.parse_args()
    all_workloads = workloads()
    known = {w.name: w for w in all_workloads}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown workloads {unknown}; known: {sorted(known)}")
    chosen = [known[n] for n in args.names] or all_workloads
    for w in chosen:
        if args.params_only:
            print(f"{w.name}: {w.params} parameters")
            continue
        path, seconds = export(w)
        print(f"{w.name}: {w.params} parameters, {path.relative_to(REPO)} "
              f"({path.stat().st_size:,} bytes) in {seconds:.1f} s", flush=True)
    if not args.params_only:
        text = README.read_text()
        head, _, rest = text.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        README.write_text(f"{head}{TABLE_START}\n{table(all_workloads)}\n{TABLE_END}{tail}")


if __name__ == "__main__":
    main()
