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

from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX  # noqa: E402
from hespas_py.hardware import load_hardware  # noqa: E402
from hespas_py.export import workload_path  # noqa: E402
from hespas_py.pipeline import GenConfig, generate  # noqa: E402
from hespas_py.sim.config import load_system_dir  # noqa: E402
from hespas_py.sim.simulate import simulate  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NODES = ("A100_SXM_40GB", "H100_80GB", "H200_141GB", "B200_180GB")


def step(node: str, workload: Path, fused: bool) -> tuple[float, dict]:
    """(simulated step seconds, module_stats attention entry) of ``workload`` on 4x ``node``."""
    hardware = load_hardware(node, "fused_roofline")
    hardware = hardware.with_params({"fused_attention": fused})
    setup = load_system_dir(REPO / "configs" / "systems" / f"{node}_4GPU")
    with tempfile.TemporaryDirectory(prefix="hespas-attention-") as tmp:
        out = Path(tmp) / "traces"
        result = generate(GenConfig(mlir_file=workload, output_dir=out, hardware=hardware,
                                    method="fused_roofline", split_strategy="linear_split",
                                    block_lim=1 << 40))
        sim = simulate(out / TRACE_PREFIX, setup.system, setup.network,
                       comm_groups=out / COMM_GROUP_FILE)
    return sim.step_time_ns * 1e-9, result.stats["attention"]


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
