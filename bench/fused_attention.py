"""Fused (flash) attention on and off: the simulated LLaMA-3 100M step on each GPU of the measured
table (``fused_roofline``; the measured runs materialised the scores, so ``off`` is the setting
their accuracy rows use), with what ``module_stats.json`` says of the attention kernels.

    python3 bench/fused_attention.py [--workload llama3_100m_train_4dev]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hespas_py.export import workload_path  # noqa: E402
from hespas_py.run import Split, build_config, generate_and_simulate  # noqa: E402
from hespas_py.sim.config import Machine  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NODES = ("A100_SXM_40GB", "H100_80GB", "H200_141GB", "B200_180GB")


def step(node: str, workload: Path, fused: bool) -> tuple[float, dict]:
    """(simulated step seconds, module_stats attention entry) of ``workload`` on 4x ``node``."""
    machine = Machine.load(REPO / "configs" / "systems" / f"{node}_4GPU")
    with tempfile.TemporaryDirectory(prefix="hespas-attention-") as tmp:
        config = build_config(node, mlir_file=workload, output_dir=Path(tmp) / "traces",
                              estimator="fused_roofline", params={"fused_attention": fused},
                              split=Split(split_strategy="linear_split", block_lim=1 << 40))
        run = generate_and_simulate(config, machine)
    return run.simulation.step_time_ns * 1e-9, run.result.stats["attention"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", default="llama3_100m_train_4dev")
    args = parser.parse_args()
    workload = workload_path(args.workload)
    print(f"{args.workload}: simulated step (s), fused_roofline")
    print(f"{'node':<15} {'off':>8} {'on':>8} {'on/off':>7}  flash kernels and their time")
    for node in NODES:
        off, _ = step(node, workload, False)
        on, attention = step(node, workload, True)
        fwd, bwd = attention["forward"], attention["backward"]
        print(f"{node:<15} {off:8.4f} {on:8.4f} {on / off:7.3f}  {fwd['count']} x fwd "
              f"{fwd['time_s'] * 1e3:.2f} ms, {bwd['count']} x bwd {bwd['time_s'] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
