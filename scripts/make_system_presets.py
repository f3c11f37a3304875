"""Write every machine preset under configs/systems/ from one table of sourced figures.

    python3 scripts/make_system_presets.py           # rewrite the presets and the README tables
    python3 scripts/make_system_presets.py --check   # exit 1 if a committed file differs

A preset is ``configs/systems/<NAME>/astra-sim/{network.yml,system.json,remote_memory.json}``.
Every link rate (scripts/system_links.py) carries the figure its source quotes, the source's name
and the share of it collectives reach; the script also writes the three tables between the
markers of configs/systems/README.md (link figures, achieved shares, and the presets with their
dimensions), whose prose explains the modelling rules coded here.
``local-mem-bw`` and ``peak-perf`` come from the node preset a machine is built of
(configs/nodes/<node>/roofline/config.json, sourced in configs/nodes/README.md).
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from hespas_py.hardware import load_hardware  # noqa: E402
from system_links import (  # noqa: E402
    ASTRA_GB,
    HDR_NIC,
    INFINITY_FABRIC,
    META_AGGREGATION,
    META_ROCE,
    NDR_NIC,
    NVLINK3_BOARD,
    NVLINK3_SWITCH,
    NVLINK4_BOARD,
    NVLINK4_SWITCH,
    NVLINK5_BOARD,
    NVLINK5_SWITCH,
    TPU7X_D2D,
    TPU7X_ICI,
    TPUV3_ICI,
    TPUV4_ICI,
    TPUV5P_ICI,
    TPUV6E_ICI,
    Link,
)

SYSTEMS = REPO / "configs" / "systems"
README = SYSTEMS / "README.md"
TABLE_START = "<!-- {} table: written by scripts/make_system_presets.py -->"
TABLE_END = "<!-- {} table: end -->"

# Per-hop latencies (ns), modelling assumptions: README "Latencies". A Switch dimension costs
# two hops per message (NIC to switch to NIC), a Ring or FullyConnected neighbour one.
BOX_NS = 1000.0     # inside a box: the Hespas presets' 1 us (2 hops = NCCL's 1.9 us NVLink step)
LEAF_NS = 2000.0    # one rail leaf switch (2 hops = NCCL's 4.0 us network ring step, LL128)
SPINE_NS = 3000.0   # across the spine: two switch levels more than a leaf
ICI_NS = 1000.0     # TPU ICI hop, as ASTRA-sim's own TPU network inputs

#: Node counts of the multi-node GPU presets.
NODE_COUNTS = (2, 4, 8, 16, 32, 64, 128)


@dataclass(frozen=True)
class Dim:
    """One ASTRA-sim network dimension (dimension 0 innermost).

    Attributes:
        topology: Ring, Switch or FullyConnected.
        npus: NPUs along it.
        bandwidth: GB/s (1e9 bytes) per link and direction that collectives reach.
        latency: ns per hop.
    """

    topology: str
    npus: int
    bandwidth: float
    latency: float


@dataclass(frozen=True)
class Preset:
    """One machine.

    Attributes:
        name: folder name under configs/systems.
        node: node preset whose HBM bandwidth and peak fill system.json.
        dims: network dimensions, innermost first.
        machine: what it stands for, for the README table.
    """

    name: str
    node: str
    dims: tuple[Dim, ...]
    machine: str


@dataclass(frozen=True)
class GpuNode:
    """An 8-GPU server model and how it scales out.

    Attributes:
        node: node preset of its GPU.
        board4: per GPU pair and direction on the 4-GPU NVLink board (FullyConnected 4).
        switch8: per GPU and direction through the NVSwitches of the 8-GPU node.
        nic: per GPU and direction into the rail-optimized scale-out fabric (None: no
            multi-node presets).
        leaf_nodes: nodes whose GPU k share one rail leaf switch (README "GPU clusters": 32 for
            DGX H100/H200/B200 SuperPODs, 16 for DGX A100's 20-node scalable units).
    """

    node: str
    board4: Link
    switch8: Link
    nic: Link | None = None
    leaf_nodes: int = 0


@dataclass(frozen=True)
class TpuSlices:
    """A TPU generation's ICI slices.

    Attributes:
        prefix: preset name prefix (``TPUv4``); the name ends in the number of NPUs.
        node: node preset (per JAX device).
        link: one ICI link, per direction.
        shapes: slice shapes in chips, in Google's ``--topology`` order.
        wraps: ``"cube"``: every axis wraps when the slice is whole 4x4x4 cubes (OCS-joined);
            ``"pod"``: only an axis spanning the full 16 of the 16x16 pod wraps.
        d2d: link between the two TensorCores of a chip when each is a JAX device (None: one
            device per chip).
    """

    prefix: str
    node: str
    link: Link
    shapes: tuple[tuple[int, ...], ...]
    wraps: str
    d2d: Link | None = None


GPU_NODES = (
    GpuNode("A100_SXM_40GB", NVLINK3_BOARD, NVLINK3_SWITCH),
    GpuNode("A100_SXM_80GB", NVLINK3_BOARD, NVLINK3_SWITCH, HDR_NIC, 16),
    GpuNode("H100_80GB", NVLINK4_BOARD, NVLINK4_SWITCH, NDR_NIC, 32),
    GpuNode("H200_141GB", NVLINK4_BOARD, NVLINK4_SWITCH, NDR_NIC, 32),
    GpuNode("B200_180GB", NVLINK5_BOARD, NVLINK5_SWITCH, NDR_NIC, 32),
)

# Meta's Llama 3 cluster (links: system_links.py).
META_RACK_SERVERS = 2  # servers (16 GPUs) under one ToR switch
META_POD_RACKS = 192  # racks per pod (3,072 GPUs)
AGGREGATION_NS = 4000.0  # across the aggregation layer: two switch levels more than a pod
#: GPU counts of the Llama 3 405B runs (report Table 4).
META_GPUS = (8192, 16384)

CUBE_SHAPES = ((2, 2, 1), (2, 2, 2), (2, 4, 4), (4, 4, 4), (4, 4, 8), (4, 8, 8), (8, 8, 8),
               (8, 8, 16))
TPU_SLICES = (
    TpuSlices("TPUv4", "TPUv4", TPUV4_ICI, CUBE_SHAPES[:2] + ((2, 2, 4),) + CUBE_SHAPES[2:],
              "cube"),
    TpuSlices("TPUv5p", "TPUv5p", TPUV5P_ICI, CUBE_SHAPES, "cube"),
    TpuSlices("TPUv6e", "TPUv6e", TPUV6E_ICI, ((2, 4), (4, 4), (4, 8), (8, 8), (8, 16), (16, 16)),
              "pod"),
    TpuSlices("TPU7x", "TPU7x", TPU7X_ICI, ((4, 4, 4),), "cube", TPU7X_D2D),
)


def gpu_presets(gpu: GpuNode) -> list[Preset]:
    """The 4-GPU board, the 8-GPU node and its rail-optimized clusters."""
    box = Dim("Switch", 8, gpu.switch8.rate, BOX_NS)
    presets = [Preset(f"{gpu.node}_4GPU", gpu.node, (Dim("FullyConnected", 4, gpu.board4.rate,
                                                         BOX_NS),), "4-GPU NVLink board"),
               Preset(f"{gpu.node}_8GPU", gpu.node, (box,), "8-GPU NVSwitch node")]
    if gpu.nic is None:
        return presets
    for nodes in NODE_COUNTS:
        if nodes <= gpu.leaf_nodes:
            fabric = (Dim("Switch", nodes, gpu.nic.rate, LEAF_NS),)
        else:
            fabric = (Dim("Switch", gpu.leaf_nodes, gpu.nic.rate, LEAF_NS),
                      Dim("Switch", nodes // gpu.leaf_nodes, gpu.nic.rate, SPINE_NS))
        presets.append(Preset(f"{gpu.node}_8GPU_{nodes}", gpu.node, (box, *fabric),
                              f"{nodes} nodes, rail-optimized fat tree"))
    return presets


def meta_presets() -> list[Preset]:
    """Meta's Llama 3 cluster at the GPU counts of its 405B runs: NVLink server, the two servers
    of a rack, racks of a pod, pods. A job's racks spread evenly over the fewest pods that hold
    them with a power-of-two share each (README "Meta's Llama 3 cluster")."""
    presets = []
    for gpus in META_GPUS:
        racks = gpus // (8 * META_RACK_SERVERS)
        pods = 1
        while racks // pods > META_POD_RACKS:
            pods *= 2
        dims = (Dim("Switch", 8, NVLINK4_SWITCH.rate, BOX_NS),
                Dim("Switch", META_RACK_SERVERS, META_ROCE.rate, LEAF_NS),
                Dim("Switch", racks // pods, META_ROCE.rate, SPINE_NS),
                Dim("Switch", pods, META_AGGREGATION.rate, AGGREGATION_NS))
        presets.append(Preset(f"H100_80GB_Meta_{gpus}", "H100_80GB", dims,
                              f"Meta's Llama 3 RoCE cluster, {racks // pods} racks in each of "
                              f"{pods} pods"))
    return presets


def axis_wraps(rule: str, shape: tuple[int, ...], axis: int) -> bool:
    """Whether ``shape``'s ``axis`` has wraparound links (README "TPU slices")."""
    if rule == "pod":
        return shape[axis] == 16
    return len(shape) == 3 and all(n % 4 == 0 for n in shape)


def tpu_presets(tpu: TpuSlices) -> list[Preset]:
    """One preset per slice shape. A torus axis runs XLA's bidirectional ring, which ASTRA-sim's
    one-direction ring gets as twice the link rate; two devices per chip share its links."""
    devices_per_chip = 1 if tpu.d2d is None else 2
    presets = []
    for shape in tpu.shapes:
        dims = [] if tpu.d2d is None else [Dim("FullyConnected", 2, tpu.d2d.rate, ICI_NS)]
        kinds = []
        for axis, chips in enumerate(shape):
            if chips == 1:
                continue
            torus = axis_wraps(tpu.wraps, shape, axis)
            kinds.append("torus" if torus else "mesh")
            dims.append(Dim("Ring", chips, tpu.link.rate * (2 if torus else 1) / devices_per_chip,
                            ICI_NS))
        machine = f"{'x'.join(map(str, shape))} slice ({', '.join(kinds)})"
        presets.append(Preset(f"{tpu.prefix}_{math.prod(shape) * devices_per_chip}", tpu.node,
                              tuple(dims), machine))
    return presets


def presets() -> list[Preset]:
    """Every preset, in README order."""
    out = [p for gpu in GPU_NODES for p in gpu_presets(gpu)]
    # Kept for comparison with earlier runs: 4 nodes as two leaf groups of two.
    out.append(Preset("H100_80GB_8GPU_2_2", "H100_80GB", (
        Dim("Switch", 8, NVLINK4_SWITCH.rate, BOX_NS), Dim("Switch", 2, NDR_NIC.rate, LEAF_NS),
        Dim("Switch", 2, NDR_NIC.rate, SPINE_NS)), "4 nodes as 2 leaf groups of 2"))
    out.append(Preset("MI300X_8", "MI300X", (Dim("FullyConnected", 8, INFINITY_FABRIC.rate,
                                                 BOX_NS),), "8-GPU Infinity Fabric platform"))
    out.append(Preset("TPUv3_8", "TPUv3", (Dim("Ring", 8, TPUV3_ICI.rate, ICI_NS),),
                      "v3-8, one NPU per TensorCore (ASTRA-sim's input)"))
    out.append(Preset("TPUv3_32", "TPUv3", (Dim("Ring", 4, TPUV3_ICI.rate, ICI_NS),
                                            Dim("Ring", 8, TPUV3_ICI.rate, ICI_NS)),
                      "v3-32 2-D torus (ASTRA-sim's input)"))
    return out + meta_presets() + [p for tpu in TPU_SLICES for p in tpu_presets(tpu)]


def _flow_list(values) -> str:
    return "[ " + ", ".join(str(v) for v in values) + " ]"


def astra_gbps(gbps: float) -> float:
    """``gbps`` (1e9 bytes per second) in network.yml's unit, 2**30 bytes per second."""
    return round(gbps * 1e9 / ASTRA_GB, 4)


def network_yml(preset: Preset) -> str:
    """network.yml text."""
    return "".join([
        f"# {preset.name}: see configs/systems/README.md for the source of every number.\n",
        f"topology: {_flow_list(d.topology for d in preset.dims)}\n",
        f"npus_count: {_flow_list(d.npus for d in preset.dims)}\n",
        f"bandwidth: {_flow_list(astra_gbps(d.bandwidth) for d in preset.dims)}\n",
        f"latency: {_flow_list(float(d.latency) for d in preset.dims)}\n"])


def system_json(preset: Preset) -> str:
    """system.json text: the system layer of every preset (README "System layer")."""
    hardware = load_hardware(preset.node)
    algorithms = ["direct" if d.topology == "FullyConnected" else "ring" for d in preset.dims]
    doc = {"scheduling-policy": "LIFO", "endpoint-delay": 1, "active-chunks-per-dimension": 1,
           "preferred-dataset-splits": 1, "collective-optimization": "localBWAware",
           "local-mem-bw": round(hardware.memory_bandwidth / 1e9, 6),
           "peak-perf": round(hardware.peak_flops / 1e12, 6), "roofline-enabled": 0}
    for collective in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all"):
        doc[f"{collective}-implementation"] = algorithms
    return json.dumps(doc, indent=2) + "\n"


REMOTE_MEMORY = json.dumps({"memory-type": "NO_MEMORY_EXPANSION"}, indent=2) + "\n"


def _dims_text(preset: Preset) -> str:
    return " x ".join(f"{d.topology} {d.npus} @ {d.bandwidth:g} GB/s, {d.latency:g} ns"
                      for d in preset.dims)


def link_table() -> str:
    """README table of every link figure, its source, and the presets' families using it."""
    uses: dict[Link, list[str]] = {}
    for gpu in GPU_NODES:
        uses.setdefault(gpu.board4, []).append(f"{gpu.node}_4GPU")
        uses.setdefault(gpu.switch8, []).append(f"{gpu.node}_8GPU*")
        if gpu.nic is not None:
            uses.setdefault(gpu.nic, []).append(f"{gpu.node}_8GPU_<n>")
    uses[INFINITY_FABRIC] = ["MI300X_8"]
    uses[META_ROCE] = ["H100_80GB_Meta_* rack and pod"]
    uses[META_AGGREGATION] = ["H100_80GB_Meta_* pods"]
    uses[TPUV3_ICI] = ["TPUv3_*"]
    for tpu in TPU_SLICES:
        uses.setdefault(tpu.link, []).append(f"{tpu.prefix}_* ICI")
        if tpu.d2d is not None:
            uses.setdefault(tpu.d2d, []).append(f"{tpu.prefix}_* die-to-die")
    rows = ["| line rate, GB/s per link and direction | collectives reach (GB/s) | quoted | "
            "source | used by |",
            "|---|---|---|---|---|"]
    rows += [f"| {link.gbps:g} | {link.rate:g} | {link.quoted} | {link.source} | "
             f"{'; '.join(users)} |" for link, users in uses.items()]
    return "\n".join(rows)


def achieved_table() -> str:
    """README table of the shares of the line rate that collectives reach, with their sources."""
    shares = {}
    for gpu in GPU_NODES:
        for link in (gpu.board4, gpu.switch8, gpu.nic):
            if link is not None:
                shares.setdefault(link.achieved, None)
    rows = ["| share of the line rate | quoted | source |", "|---|---|---|"]
    rows += [f"| {a.share:.4g} | {a.quoted} | {a.source} |" for a in shares]
    return "\n".join(rows)


def preset_table() -> str:
    """README table of every preset."""
    rows = ["| preset | NPUs | machine | dimensions (innermost first; GB/s reached, 1e9 bytes) "
            "| node preset |",
            "|---|---|---|---|---|"]
    for p in presets():
        npus = math.prod(d.npus for d in p.dims)
        rows.append(f"| {p.name} | {npus} | {p.machine} | {_dims_text(p)} | {p.node} |")
    return "\n".join(rows)


def readme_text(current: str) -> str:
    """``current`` README with both generated tables replaced."""
    for label, table in (("links", link_table()), ("achieved", achieved_table()),
                         ("presets", preset_table())):
        start, end = TABLE_START.format(label), TABLE_END.format(label)
        head, found, rest = current.partition(start)
        if not found or end not in rest:
            raise SystemExit(f"{README}: markers {start!r} ... {end!r} not found")
        tail = rest.partition(end)[2]
        current = f"{head}{start}\n{table}\n{end}{tail}"
    return current


def expected_files(root: Path = SYSTEMS) -> dict[Path, str]:
    """Every generated file under ``root`` and its text."""
    files = {}
    for preset in presets():
        folder = root / preset.name / "astra-sim"
        files[folder / "network.yml"] = network_yml(preset)
        files[folder / "system.json"] = system_json(preset)
        files[folder / "remote_memory.json"] = REMOTE_MEMORY
    files[root / "README.md"] = readme_text((root / "README.md").read_text())
    return files


def stale_folders(root: Path = SYSTEMS) -> list[Path]:
    """Preset folders under ``root`` that the table does not define."""
    names = {p.name for p in presets()}
    return sorted(p for p in root.iterdir() if p.is_dir() and p.name not in names)


def differences(root: Path = SYSTEMS) -> list[str]:
    """Files under ``root`` that differ from (or are missing against) what the table gives."""
    problems = [f"{p}: not in the table" for p in stale_folders(root)]
    for path, text in expected_files(root).items():
        if not path.is_file() or path.read_text() != text:
            problems.append(f"{path}: differs from the generated text")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    if args.check:
        problems = differences()
        print("\n".join(problems) or "configs/systems is up to date")
        return 1 if problems else 0
    for folder in stale_folders():
        shutil.rmtree(folder)
    for path, text in expected_files().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    print(f"wrote {len(presets())} presets under {SYSTEMS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
