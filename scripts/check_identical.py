"""Behaviour fingerprint of the whole tool: record it, or compare with a recorded one.

Runs ``hespas gen`` / ``hespas_chakra_gen`` on every shipped workload (``workloads/*.mlir*``)
with the node preset of its family and a few variations (the preset's default estimator with a
simulation on a matching system preset, ``--estimator roofline``, the published tool's config
files with ``individual_split`` and with ``linear_split --memory``), a few single cases (flash
attention, ``--merge``, a combine threshold, ``xla_cost``), one sweep, one call of
``hespas_py.estimate`` and ``hespas accuracy --group all --json``. Every output file is hashed
(``module_stats.json`` and the summaries without their wall-clock ``timings_s`` and output
paths); the accuracy and sweep documents are kept whole.

    python3 scripts/check_identical.py --out base.json            # record
    python3 scripts/check_identical.py --compare base.json        # record again and compare

Exit status 1 when a compared run differs (each difference is printed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORKLOADS = REPO / "workloads"
NODES = REPO / "configs" / "nodes"
#: Output-independent keys left out of summaries and module_stats.json.
VOLATILE = ("timings_s", "output_dir")
API_CALL = """
import json, sys
import hespas_py
report = hespas_py.estimate("workloads/mlp_fsdp_4dev.mlir", node="H100_80GB",
                            system="H100_80GB_4GPU")
doc = report.to_dict()
doc["summary"] = {k: v for k, v in doc["summary"].items() if k not in ("timings_s", "output_dir")}
print(json.dumps(doc, sort_keys=True))
"""
SWEEP_SPEC = """
workloads: [mlp_dp_4dev, resnet50_train_4dev]
nodes: [A100_SXM_40GB, H100_80GB]
systems: [A100_SXM_40GB_4GPU]
estimator: [roofline, fused_roofline]
variants:
  bandwidth_scale: [0.5, 1]
"""


def node_of(workload: str) -> tuple[str, str]:
    """(node preset, system preset family) of a shipped workload's family."""
    if workload.startswith("maxtext") and "tpu7x" in workload:
        return "TPU7x", "TPU7x"
    if workload.startswith("maxtext"):
        return "TPUv6e", "TPUv6e"
    if workload.startswith("pax"):
        return "A100_SXM_80GB", "A100_SXM_80GB"
    return "H100_80GB", "H100_80GB"


def hespas(*args: str) -> list[str]:
    return [sys.executable, "-c", "from hespas_py.cli.main import main; main()", *args]


def chakra_gen(*args: str) -> list[str]:
    return [sys.executable, "-c", "from hespas_py.cli.compat import chakra_gen; chakra_gen()",
            *args]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


def stable(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in VOLATILE}


def run(command: list[str]) -> str:
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "HESPAS_JOBS": "1"})
    if done.returncode:
        return f"FAILED ({done.returncode}): {done.stderr.strip()[-400:]}"
    return done.stdout


def outputs(folder: Path) -> dict[str, str]:
    """File name -> digest of everything ``folder`` holds (module_stats.json made stable)."""
    files = {}
    for path in sorted(folder.iterdir()):
        data = path.read_bytes()
        if path.name == "module_stats.json":
            data = json.dumps(stable(json.loads(data)), sort_keys=True).encode()
        files[path.name] = digest(data)
    return files


def gen_case(command: list[str], out: Path) -> dict:
    """One generation run: its output files' digests and its summary's."""
    text = run([*command, "--output", str(out), "--clean", "--json", "--log-level", "error"])
    if text.startswith("FAILED"):
        return {"error": text}
    summary = stable(json.loads(text))
    headline = {k: summary.get(k) for k in ("estimator", "hardware", "num_devices",
                                              "compute_estimate_s")}
    if "simulation" in summary:
        headline["step_time_s"] = summary["simulation"]["step_time_s"]
    record = {"summary": digest(json.dumps(summary, sort_keys=True).encode()),
              "headline": headline, "files": outputs(out)}
    return record


def systems() -> dict[tuple[str, int], str]:
    """(family, NPUs) -> the first system preset of that family with that many NPUs."""
    doc = json.loads(run(hespas("presets", "--json")))
    found: dict[tuple[str, int], str] = {}
    for system in doc["systems"]:
        family = next((f for f in ("A100_SXM_80GB", "H100_80GB", "TPUv6e", "TPU7x")
                       if system["name"].startswith(f + "_")), None)
        if family:
            found.setdefault((family, system["npus"]), system["name"])
    return found


def cases(scratch: Path) -> dict[str, tuple[list[str], Path]]:
    """Case name -> (command without output flags, output folder)."""
    jobs: dict[str, tuple[list[str], Path]] = {}
    for path in sorted(WORKLOADS.glob("*.mlir*")):
        name = path.name.split(".mlir")[0]
        node, _ = node_of(name)
        mlir = ["--mlir_file", str(path.relative_to(REPO))]
        variants = {
            "preset": hespas("gen", node, *mlir),
            "roofline": hespas("gen", node, "--estimator", "roofline", *mlir),
            "individual": chakra_gen(str(NODES / node / "roofline" / "config.json"),
                                     "--split_fn", "individual_split", *mlir),
            "memory": chakra_gen(str(NODES / node / "fused_roofline" / "config.json"),
                                 "--split_fn", "linear_split", "--block_lim", "100000",
                                 "--memory", *mlir),
        }
        for variant, command in variants.items():
            jobs[f"{name}/{variant}"] = (command, scratch / name / variant)
    single = {
        "flash": hespas("gen", "H100_80GB", "--param", "fused_attention=true", "--mlir_file",
                        "workloads/llama3_100m_train_4dev.mlir.gz"),
        "merge": hespas("gen", "A100_SXM_40GB", "--split_fn", "individual_split", "--merge",
                        "--mlir_file", "workloads/resnet50_train_4dev.mlir.gz"),
        "combine": hespas("gen", "A100_SXM_80GB", "--combine-threshold", "33554432",
                          "--mlir_file", "workloads/pax_gpt126m_64dev.mlir.gz"),
        "xla_cost": hespas("gen", "A100_SXM_40GB", "--estimator", "xla_cost", "--mlir_file",
                           "workloads/mlp_dp_4dev.mlir"),
        "no_rewrites": hespas("gen", "H100_80GB", "--no-collective-rewrites", "--mlir_file",
                              "workloads/mlp_fsdp_4dev.mlir"),
        "tf32": hespas("gen", "A100_SXM_40GB", "--estimator", "roofline", "--param",
                       "f32_matmul_as_tf32=true", "--mlir_file", "workloads/mlp_tp_4dev.mlir"),
    }
    for name, command in single.items():
        jobs[f"single/{name}"] = (command, scratch / "single" / name)
    return jobs


def with_system(command: list[str], name: str, found: dict, devices: int | None) -> list[str]:
    family = node_of(name.split("/")[0])[1]
    system = found.get((family, devices)) if devices else None
    return [*command, "--system-config", system] if system else command


def sweep(scratch: Path) -> dict:
    spec = scratch / "sweep.yaml"
    spec.write_text(SWEEP_SPEC)
    text = run(hespas("sweep", str(spec), "--out", str(scratch / "sweep"), "--json",
                      "--jobs", "1"))
    if text.startswith("FAILED"):
        return {"error": text}
    doc = json.loads(text)
    return {k: [stable(row) for row in v] if isinstance(v, list) else v for k, v in doc.items()}


def record(jobs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="check_identical_") as tmp:
        scratch = Path(tmp)
        found = systems()
        todo = cases(scratch)

        def one(item):
            name, (command, out) = item
            if name.endswith("/preset"):  # learn the device count, then simulate
                first = gen_case(command, out)
                devices = first.get("headline", {}).get("num_devices")
                command = with_system(command, name, found, devices)
                if "--system-config" not in command:
                    return name, first
            return name, gen_case(command, out)

        with ThreadPoolExecutor(jobs) as pool:
            results = dict(pool.map(one, todo.items()))
            accuracy = pool.submit(run, hespas("accuracy", "--group", "all", "--json"))
            api = pool.submit(run, [sys.executable, "-c", API_CALL])
            swept = sweep(scratch)
            accuracy_text, api_text = accuracy.result(), api.result()
    return {"cases": results, "sweep": swept,
            "api": api_text if api_text.startswith("FAILED") else json.loads(api_text),
            "accuracy": (accuracy_text if accuracy_text.startswith("FAILED")
                         else json.loads(accuracy_text))}


def differences(base: dict, now: dict) -> list[str]:
    found = []
    for name in sorted(set(base["cases"]) | set(now["cases"])):
        a, b = base["cases"].get(name), now["cases"].get(name)
        if a == b:
            continue
        if a is None or b is None or "error" in a or "error" in b:
            found.append(f"{name}: {a and a.get('error', 'ran')} -> {b and b.get('error', 'ran')}")
            continue
        files = sorted(k for k in set(a["files"]) | set(b["files"])
                       if a["files"].get(k) != b["files"].get(k))
        what = f"files {', '.join(files[:6])}{' ...' if len(files) > 6 else ''}" if files else ""
        if a["summary"] != b["summary"]:
            what += " summary"
        if a["headline"] != b["headline"]:
            what += f" {a['headline']} -> {b['headline']}"
        found.append(f"{name}: {what.strip()}")
    for key in ("sweep", "api", "accuracy"):
        if base[key] != now[key]:
            found.append(f"{key}: differs")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write this run's record here")
    parser.add_argument("--compare", type=Path, help="a recorded run to compare with")
    parser.add_argument("--jobs", type=int, default=2, help="runs at once")
    args = parser.parse_args()
    now = record(args.jobs)
    if args.out:
        args.out.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    failed = [n for n, c in now["cases"].items() if "error" in c]
    print(f"{len(now['cases'])} generation cases ({len(failed)} failed), sweep, api, accuracy")
    for name in failed:
        print(f"  failed: {name}: {now['cases'][name]['error']}")
    if args.compare:
        found = differences(json.loads(args.compare.read_text()), now)
        print("identical" if not found else f"{len(found)} differences:")
        for line in found:
            print("  " + line)
        raise SystemExit(1 if found else 0)


if __name__ == "__main__":
    main()
