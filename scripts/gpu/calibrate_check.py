"""The GPU check of ``hespas calibrate`` (issue 28), as one command for a short device lease:

1. ``hespas calibrate --quick`` on the local GPU, timed from the shell's view (JAX start
   included; the goal is under 60 s), writing ``$OUT/preset``; with ``--full`` the full run too
   (goal: under 5 minutes), writing ``$OUT/preset_full``;
2. every measured program of this chip's reference data estimated with the shipped preset and
   with each calibrated one (``hespas_py.estimate(module, node=DIR)``: compute estimate of the
   single-device program, host dispatch included, as the programs were timed), printed against
   the measured median (goal: within 10% with the calibrated preset, no hand edits);
3. ``$OUT/check.json``: device, date, jax version, the calibration's wall time and every row.

    PYTHONUNBUFFERED=1 python3 scripts/gpu/calibrate_check.py [--full] [--reference DIR]
    (on a CPU, to try it: --base H200_141GB)

The reference data: ``DIR`` holds ``measured.csv`` (``case,measured_median_s,...``) and the
modules (``modules/CASE.stablehlo.mlir.gz`` as in ``../shared/reference/gpu-h200``, or
``CASE.mlir.gz`` as in ``workloads/gpu_h100``). By default the first of ``.ref/gpu-<chip>``,
``shared/reference/gpu-<chip>``, ``../shared/reference/gpu-<chip>`` and, on an H100,
``workloads/gpu_h100`` that exists (``../shared`` does not travel to a device machine: copy the
chip's folder to ``.ref/`` first, ignored by git, and name ``.ref`` in the run's carry).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: ``hespas`` from this checkout, whether or not it is installed.
HESPAS = [sys.executable, "-c", "from hespas_py.cli.main import main; main()"]


def calibrate(out: Path, quick: bool, base: str | None) -> dict:
    """Run ``hespas calibrate`` into ``out``; its wall time and output."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "PYTHONUNBUFFERED": "1"}
    args = [*HESPAS, "calibrate", "--out", str(out), "--force", *(["--quick"] if quick else []),
            *(["--base", base] if base else [])]
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    print(done.stdout, done.stderr, sep="\n", flush=True)
    return {"command": " ".join(args[3:]), "wall_s": wall, "exit_code": done.returncode}


def reference_dir(chip: str, given: str | None) -> Path:
    if given:
        return Path(given)
    candidates = [ROOT / ".ref" / f"gpu-{chip}", ROOT / "shared" / "reference" / f"gpu-{chip}",
                  ROOT.parent / "shared" / "reference" / f"gpu-{chip}"]
    if chip == "h100":
        candidates.append(ROOT / "workloads" / "gpu_h100")
    found = next((c for c in candidates if (c / "measured.csv").is_file()), None)
    if found is None:
        sys.exit(f"error: no reference data for gpu-{chip} (tried {', '.join(map(str, candidates))})")
    return found


def module_of(folder: Path, case: str) -> Path | None:
    for path in (folder / "modules" / f"{case}.stablehlo.mlir.gz", folder / f"{case}.mlir.gz"):
        if path.is_file():
            return path
    return None


def compare(folder: Path, nodes: dict[str, str]) -> list[dict]:
    """One row per measured case: the measured median and each node's estimate and error."""
    import hespas_py

    rows = []
    with open(folder / "measured.csv") as f:
        measured = {r["case"]: float(r["measured_median_s"]) for r in csv.DictReader(f)}
    for case, seconds in measured.items():
        module = module_of(folder, case)
        if module is None:
            continue
        row = {"case": case, "measured_s": seconds}
        for label, node in nodes.items():
            try:
                estimate = hespas_py.estimate(str(module), node=node).compute_s
                row[label] = {"estimated_s": estimate, "error": estimate / seconds - 1}
            except Exception as exc:  # noqa: BLE001  (a row that fails is reported, not fatal)
                row[label] = {"error_text": repr(exc)[:300]}
        rows.append(row)
        print(case, f"{seconds * 1e3:.2f} ms", "  ".join(
            f"{label} {row[label]['error']:+.1%}" if "error" in row[label] else f"{label} failed"
            for label in nodes), flush=True)
    return rows


def summary(rows: list[dict], label: str) -> str:
    errors = [r[label]["error"] for r in rows if "error" in r.get(label, {})]
    within = sum(abs(e) <= 0.10 for e in errors)
    return f"{label}: {within}/{len(errors)} programs within 10%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="also the full calibration")
    parser.add_argument("--reference", help="reference data folder (measured.csv, modules)")
    parser.add_argument("--base", help="node preset of the chip (default: by device kind; "
                        "give one to try the script on a CPU)")
    args = parser.parse_args()
    out = Path(os.environ.get("OUT", "calibrate_check_out"))
    out.mkdir(parents=True, exist_ok=True)
    runs = {"quick": calibrate(out / "preset", True, args.base)}
    if args.full:
        runs["full"] = calibrate(out / "preset_full", False, args.base)
    # The estimates need no accelerator: keep this process off the GPU (and its memory).
    os.environ["JAX_PLATFORMS"] = "cpu"
    from hespas_py.calibrate.run import device_preset

    done = [name for name in ("preset", "preset_full") if (out / name / "calibration.json").is_file()]
    if not done:
        sys.exit("error: no calibration finished")
    info = json.loads((out / done[0] / "calibration.json").read_text())["run"]
    shipped = args.base or device_preset(info["device_kind"])
    if shipped is None:
        sys.exit(f"error: no node preset is a {info['device_kind']!r}")
    nodes = {"shipped": shipped, **{("calibrated" if name == "preset" else "calibrated_full"):
                                    str(out / name) for name in done}}
    folder = reference_dir(shipped.split("_")[0].lower(), args.reference)
    rows = compare(folder, nodes)
    lines = [f"calibrate {name}: {run['wall_s']:.1f} s wall (exit {run['exit_code']})"
             for name, run in runs.items()] + [summary(rows, label) for label in nodes]
    print("\n".join(lines), flush=True)
    with open(out / "check.json", "w") as f:
        json.dump({**info, "reference": str(folder), "calibrations": runs, "nodes": nodes,
                   "rows": rows, "summary": lines}, f, indent=1)


if __name__ == "__main__":
    main()
