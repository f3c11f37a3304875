"""Prints the built-in simulator's speed on the two targets of issue 4 and on multi-group steps.

1. The shared ResNet-50 traces (1385 nodes x 4 NPUs; ASTRA-sim takes 0.17 s): trace loading plus
   simulation, replicated and full.
2. A generated 200k-node trace on 64 NPUs (target < 5 s), hard-linked for every NPU.
3. Shipped workloads whose collectives run on sub-groups (FSDP inside 8-GPU nodes, data parallel
   across them), generated with H100_80GB's fused_roofline: trace loading plus a replicated
   simulation, checked against the full one (on the 256-device GPT-175B only with ``--full``: it
   takes about 5 minutes on 2 cores).

Run: ``python3 bench/simulate.py [--repeat N] [--full]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX  # noqa: E402
from hespas_py.chakra.nodes import collective, comp  # noqa: E402
from hespas_py.chakra.schema import CollectiveCommType  # noqa: E402
from hespas_py.pipeline import generate  # noqa: E402
from hespas_py.run import build_config  # noqa: E402
from hespas_py.sim import load_network, load_system, load_system_dir, simulate  # noqa: E402
from hespas_py.sim.config import PRESETS_DIR  # noqa: E402
from hespas_py.sim.synthetic import write_identical_trace_set  # noqa: E402

RESNET = REPO.parent / "shared" / "refsim" / "cases" / "resnet50_train_individual_a100_4gpu"
GENERATED_NODES = 200_000
GENERATED_PRESET = "TPUv4_64"
#: (workload, machine preset, whether the full simulation is quick enough to check by default).
MULTI_GROUP = (("pax_gpt5b_synthetic_32dev", "H100_80GB_8GPU_4", True),
               ("pax_gpt175b_synthetic_256dev", "H100_80GB_8GPU_32", False))
MULTI_GROUP_NODE = REPO / "configs" / "nodes" / "H100_80GB" / "fused_roofline" / "config.json"


def median_of(repeat: int, run) -> tuple[float, object]:
    """Median and last result of ``repeat`` timed calls."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def bench_resnet(repeat: int) -> None:
    if not RESNET.is_dir():
        print(f"resnet50: skipped ({RESNET} not present)")
        return
    system, network = load_system(RESNET / "system.json"), load_network(RESNET / "network.yml")
    groups = RESNET / "comm_group.json"
    for replicate in (True, False):
        seconds, result = median_of(repeat, functools.partial(
            simulate, RESNET / "dev", system, network, comm_groups=groups, replicate=replicate))
        mode = "replicated" if result.replicated else "full"
        print(f"resnet50 1385 nodes x 4 NPUs ({mode}): {seconds:.3f} s "
              f"(ASTRA-sim 0.17 s), step {result.step_time_ns} ns")


def generated_trace(count: int, seed: int = 0) -> list:
    """A training-step-like DAG: layers of compute, each gradient all-reduced (4 sizes)."""
    rng = random.Random(seed)
    sizes = [1 << 20, 4 << 20, 16 << 20, 64 << 20]
    nodes = []
    for node_id in range(count):
        if node_id % 10 == 9:
            nodes.append(collective(node_id, CollectiveCommType.ALL_REDUCE, rng.choice(sizes),
                                    [node_id - 1]))
        else:
            deps = [node_id - 1] if node_id else []
            if node_id > 20 and rng.random() < 0.2:
                deps.append(node_id - rng.randint(2, 20))
            nodes.append(comp(node_id, rng.choice([0, 3, 12, 40]), deps))
    return nodes


def bench_generated(repeat: int) -> None:
    setup = load_system_dir(PRESETS_DIR / GENERATED_PRESET)
    with tempfile.TemporaryDirectory() as scratch:
        prefix = Path(scratch) / "gen"
        write_identical_trace_set(prefix, generated_trace(GENERATED_NODES),
                                  setup.network.num_npus)
        seconds, result = median_of(repeat, lambda: simulate(prefix, setup.system, setup.network))
    print(f"generated {GENERATED_NODES} nodes x {setup.network.num_npus} NPUs "
          f"({GENERATED_PRESET}, replicated={result.replicated}): {seconds:.2f} s (target < 5 s), "
          f"step {result.step_time_ns} ns")


def bench_multi_group(repeat: int, full: bool) -> None:
    for workload, preset, quick in MULTI_GROUP:
        setup = load_system_dir(PRESETS_DIR / preset)
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "traces"
            generate(build_config(MULTI_GROUP_NODE, output_dir=out,
                                           mlir_file=REPO / "workloads" / f"{workload}.mlir.gz"))
            run = functools.partial(simulate, out / TRACE_PREFIX, setup.system, setup.network,
                                    comm_groups=out / COMM_GROUP_FILE)
            seconds, fast = median_of(repeat, functools.partial(run, replicate=True))
            line = (f"{workload} on {preset} (replicated={fast.replicated}): {seconds:.2f} s, "
                    f"step {fast.step_time_ns} ns")
            if quick or full:
                full_seconds, slow = median_of(1, functools.partial(run, replicate=False))
                same = slow.devices == fast.devices
                line += f"; full simulation {full_seconds:.2f} s, identical: {same}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full", action="store_true",
                        help="also run the 256-device full simulation (about 5 minutes)")
    args = parser.parse_args()
    bench_resnet(args.repeat)
    bench_generated(args.repeat)
    bench_multi_group(args.repeat, args.full)


if __name__ == "__main__":
    main()
