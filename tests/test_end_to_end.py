"""Every small shipped workload through the whole pipeline: gen (traces) then simulate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hespas_py.chakra.io import read_trace
from hespas_py.chakra.schema import NodeType
from hespas_py.cli.main import app

#: small shipped workload -> (system preset with that many NPUs, collective node types expected)
SMALL = {
    "mlp_dp_4dev": ("A100_SXM_40GB_4GPU", {NodeType.COMM_COLL_NODE}),
    "mlp_fsdp_4dev": ("A100_SXM_40GB_4GPU", {NodeType.COMM_COLL_NODE}),
    "mlp_tp_4dev": ("A100_SXM_40GB_4GPU", {NodeType.COMM_COLL_NODE}),
    "moe_4dev": ("H100_80GB_4GPU", {NodeType.COMM_COLL_NODE}),
    "pipeline_4dev": ("H100_80GB_4GPU", {NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE}),
    "mesh2x4_8dev": ("A100_SXM_40GB_8GPU", {NodeType.COMM_COLL_NODE}),
}


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("estimator", ["roofline", "fused_roofline"])
def test_shipped_workload_generates_and_simulates(name: str, estimator: str, repo_dir: Path,
                                                  tmp_path: Path) -> None:
    system, comm_types = SMALL[name]
    out = tmp_path / "traces"
    config = repo_dir / "configs" / "nodes" / "A100_SXM_40GB" / estimator / "config.json"
    gen = CliRunner().invoke(app, [
        "gen", str(config), "--mlir_file", str(repo_dir / "workloads" / f"{name}.mlir"),
        "--output", str(out), "--split_fn", "individual_split", "--merge", "--json"])
    assert gen.exit_code == 0, gen.output
    devices = len(list(out.glob("dev.*.et")))
    assert devices == int(name.rsplit("_", 1)[1].removesuffix("dev"))
    _, nodes = read_trace(out / "dev.0.et")
    types = {n.type for n in nodes}
    assert NodeType.COMP_NODE in types and comm_types <= types
    comp = [n for n in nodes if n.type == NodeType.COMP_NODE]
    stats = json.loads((out / "module_stats.json").read_text())
    assert stats  # written next to the traces

    sim = CliRunner().invoke(app, [
        "simulate", str(out / "dev"), "--system", system, "--json"])
    assert sim.exit_code == 0, sim.output
    report = json.loads(sim.stdout)["devices"]
    assert [d["id"] for d in report] == list(range(devices))
    compute_ns = sum(n.duration_micros for n in comp) * 1000
    for device in report:
        # The step takes at least its compute; communication adds to the wall time.
        assert device["wall_time_ns"] >= device["gpu_time_ns"] > 0
        assert device["comm_time_ns"] > 0
    assert report[0]["gpu_time_ns"] >= compute_ns
