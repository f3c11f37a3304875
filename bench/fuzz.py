"""Fuzz every input kind of the command line and classify what goes wrong.

Each case mutates one seed input (`KINDS`: MLIR text for ``analyze`` and ``gen`` and for the
published tool's commands, ``hespas_chakra_gen`` and ``hespas_mlir_analyzer``, node configs,
system folders, Chakra traces and comm groups for ``simulate`` and ``trace show``, sweep specs,
estimate caches), runs the command in a fresh process with a timeout and sorts the outcome:

- ``native crash``: killed by a signal, or exit code 134 / 139 (a shell's report of SIGABRT and
  SIGSEGV);
- ``traceback``: a Python traceback on stderr;
- ``hang``: still running at the timeout;
- ``written on failure``: a non-zero exit that left the output folder changed (it starts absent;
  a failed command must leave none);
- ``messy error``: exit code 2 without exactly one ``error:`` line, or an exit code other than
  0 and 2;
- ``ok`` (exit 0) and ``bad input`` (exit 2, one ``error:`` line): as they should be.

Every finding is kept under ``--findings`` (its input, command and output) to be rerun. The
mutations are seeded (``--seed``): a run can be repeated case for case.

    nice -n 10 python3 bench/fuzz.py --minutes 30 [--jobs 2] [--seed 1] [--findings DIR]
    python3 bench/fuzz.py --rerun DIR      # each kept finding again, with its outcome now
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
ENTRY = "import sys; from hespas_py.cli.main import main; sys.argv[0] = 'hespas'; main()"
#: The entry points named like the published tool's (their own read path: `hespas_py.cli.compat`).
COMPAT_ENTRIES = {name: f"import sys; from hespas_py.cli.compat import {function}; "
                        f"sys.argv[0] = '{name}'; {function}()"
                  for name, function in (("hespas_chakra_gen", "chakra_gen"),
                                         ("hespas_mlir_analyzer", "mlir_analyzer"))}
#: The config file ``hespas_chakra_gen`` cases read.
COMPAT_CONFIG = REPO / "configs" / "nodes" / "H100_80GB" / "roofline" / "config.json"
MLP = REPO / "workloads" / "mlp_dp_4dev.mlir"
MLIR_SEEDS = [MLP, *(REPO / "workloads" / f for f in ("mesh2x4_8dev.mlir", "moe_4dev.mlir",
                                                       "pipeline_4dev.mlir")),
              *sorted((REPO / "tests" / "data" / "mlir").glob("*.mlir"))]
NODE_SEEDS = sorted((REPO / "configs" / "nodes").glob("*/*/config.json"))
SYSTEM_SEEDS = [REPO / "configs" / "systems" / name / "astra-sim"
                for name in ("H100_80GB_4GPU", "A100_SXM_40GB_4GPU")]
SWEEP_SEED = {"workloads": ["mlp_dp_4dev"], "nodes": ["H100_80GB"], "systems": ["H100_80GB_4GPU"],
              "estimator": "roofline", "variants": {"bandwidth_scale": [1, 0.5]}}
#: Tokens spliced into MLIR text.
MLIR_TOKENS = ["{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "=", "%0", "%arg0", "^bb0",
               "tensor<4xf32>", "tensor<?xf32>", "tensor<0x4xbf16>", "i64", "f8E4M3FN",
               "stablehlo.add", "stablehlo.while", "stablehlo.all_reduce", "func.call @main",
               "sdy.manual_computation", "sdy.mesh @m = <[\"x\"=4]>", "\"stablehlo.case\"",
               "dense<0>", "dense<[[0, 1], [2, 3]]>", "replica_groups", "// -----", "#loc",
               "mhlo.num_partitions = 0 : i32", "module {", "\n", "\"", "\\", "\x00", "é"]
#: Values put in place of a JSON / YAML value.
VALUES: list[Any] = [0, -1, 1, 2, 0.5, -0.0, 1e-300, 1e300, float("nan"), float("inf"),
                     2 ** 31, 2 ** 62, 2 ** 64, "", "abc", "1", [], [0], [-1, 2], {}, {"a": 1},
                     None, True, False]


@dataclass
class Case:
    """One run: the files to write (relative path -> bytes), the command's arguments ({dir} is
    the case's folder), the output folder it must leave absent when it fails and the Python
    line that runs the command."""

    kind: str
    files: dict[str, bytes]
    args: list[str]
    output: str = "out"
    entry: str = ENTRY


def mutate_bytes(rng: random.Random, data: bytes, tokens: list[str] | None = None) -> bytes:
    """One to four random edits: delete, duplicate or swap ranges, flip bytes, truncate, splice
    a token (MLIR text) or a number of another size."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not data:
            data += rng.choice(MLIR_TOKENS).encode()
            continue
        i = rng.randrange(len(data))
        j = min(len(data), i + rng.choice((1, 2, 8, 64, 512)))
        choice = rng.randrange(7)
        if choice == 0:
            del data[i:j]
        elif choice == 1:
            data[i:i] = data[i:j]
        elif choice == 2:
            data[i] = rng.randrange(256)
        elif choice == 3:
            del data[rng.randrange(len(data)):]
        elif choice == 4 and tokens:
            data[i:i] = rng.choice(tokens).encode()
        elif choice == 5:
            match = [m for m in re.finditer(rb"\d+", bytes(data[i:i + 400]))]
            if match:
                m = rng.choice(match)
                data[i + m.start():i + m.end()] = str(rng.choice(
                    (0, 1, 2, 3, 7, 2 ** 31, 2 ** 62, 10 ** 30))).encode()
        else:
            k = rng.randrange(len(data))
            data[i:j], data[k:k + (j - i)] = data[k:k + (j - i)], data[i:j]
    return bytes(data)


def mutate_tree(rng: random.Random, doc: Any) -> Any:
    """A JSON/YAML document with one value replaced, one key dropped or an unknown key added."""
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                paths.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                paths.append((node, index))
                walk(node[index])

    walk(doc)
    if not paths:
        return rng.choice(VALUES)
    parent, key = rng.choice(paths)
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, dict):
        del parent[key]
    elif action == 1 and isinstance(parent, dict):
        parent[f"unknown_{rng.randrange(100)}"] = rng.choice(VALUES)
    else:
        parent[key] = rng.choice(VALUES)
    return doc


def dump_json(doc: Any) -> bytes:
    return json.dumps(doc, allow_nan=True).encode()


def mlir_case(rng: random.Random) -> Case:
    seed = rng.choice(MLIR_SEEDS)
    data = mutate_bytes(rng, seed.read_bytes(), MLIR_TOKENS)
    roll = rng.random()
    if roll < 0.2:
        return Case("mlir hespas_mlir_analyzer", {"m.mlir": data}, ["{dir}/m.mlir"],
                    entry=COMPAT_ENTRIES["hespas_mlir_analyzer"])
    split = rng.choice([["--split_fn", "linear_split"], ["--split_fn", "individual_split"],
                        ["--split_fn", "individual_split", "--merge"]])
    if roll < 0.4:
        return Case("mlir hespas_chakra_gen", {"m.mlir": data},
                    [str(COMPAT_CONFIG), "--mlir_file", "{dir}/m.mlir", *split, "--output",
                     "{dir}/out"], entry=COMPAT_ENTRIES["hespas_chakra_gen"])
    if roll < 0.7:
        extra = rng.choice([[], ["--expand"], ["--json"], ["--expand", "--json"]])
        return Case("mlir analyze", {"m.mlir": data}, ["analyze", "{dir}/m.mlir", *extra])
    return Case("mlir gen", {"m.mlir": data}, ["gen", "H100_80GB", "--mlir_file", "{dir}/m.mlir",
                                               *split, "-o", "{dir}/out"])


def node_case(rng: random.Random) -> Case:
    seed = rng.choice(NODE_SEEDS)
    if rng.random() < 0.8:
        data = dump_json(mutate_tree(rng, json.loads(seed.read_text())))
    else:
        data = mutate_bytes(rng, seed.read_bytes())
    return Case("node config", {"node.json": data},
                ["gen", "{dir}/node.json", "--mlir_file", str(MLP), "-o", "{dir}/out"])


def _system_folder(rng: random.Random) -> dict[str, bytes]:
    import yaml

    seed = rng.choice(SYSTEM_SEEDS)
    files = {f"system/{p.name}": p.read_bytes() for p in seed.iterdir() if p.is_file()}
    target = rng.choice(sorted(files))
    if rng.random() < 0.8:
        if target.endswith(".yml"):
            doc = mutate_tree(rng, yaml.safe_load(files[target]))
            files[target] = yaml.safe_dump(doc).encode()
        else:
            files[target] = dump_json(mutate_tree(rng, json.loads(files[target])))
    else:
        files[target] = mutate_bytes(rng, files[target])
    return files


def system_case(rng: random.Random) -> Case:
    files = _system_folder(rng)
    if rng.random() < 0.6:
        return Case("system folder", files, ["gen", "H100_80GB", "--mlir_file", str(MLP),
                                             "--system-config", "{dir}/system", "-o",
                                             "{dir}/out"])
    return Case("system folder", files, ["simulate", "{traces}/dev", "--system", "{dir}/system",
                                         "--comm-groups", "{traces}/comm_group.json"], output="")


def trace_case(rng: random.Random, traces: Path) -> Case:
    files = {f"t/{p.name}": p.read_bytes() for p in traces.iterdir() if p.is_file()}
    target = rng.choice([name for name in files if name.endswith((".et", ".json"))])
    if target.endswith("comm_group.json") and rng.random() < 0.7:
        files[target] = dump_json(mutate_tree(rng, json.loads(files[target])))
    else:
        files[target] = mutate_bytes(rng, files[target])
    if rng.random() < 0.5:
        return Case("chakra trace", files, ["trace", "show", "{dir}/t", "--json"], output="")
    return Case("chakra trace", files, ["simulate", "{dir}/t/dev", "--system", "H100_80GB_4GPU",
                                        "--comm-groups", "{dir}/t/comm_group.json",
                                        *rng.choice([[], ["--full"]])], output="")


def sweep_case(rng: random.Random) -> Case:
    import yaml

    doc = mutate_tree(rng, json.loads(json.dumps(SWEEP_SEED)))
    data = yaml.safe_dump(doc).encode() if rng.random() < 0.8 else mutate_bytes(
        rng, yaml.safe_dump(SWEEP_SEED).encode())
    return Case("sweep spec", {"spec.yaml": data}, ["sweep", "{dir}/spec.yaml", "--out",
                                                    "{dir}/out", "--jobs", "1"])


def cache_case(rng: random.Random, cache: Path) -> Case:
    files = {f"cache/{p.relative_to(cache)}": p.read_bytes() for p in cache.rglob("*")
             if p.is_file()}
    for _ in range(rng.randint(1, 3)):
        target = rng.choice(sorted(files))
        try:
            files[target] = dump_json(mutate_tree(rng, json.loads(files[target])))
        except ValueError:
            files[target] = mutate_bytes(rng, files[target])
    return Case("estimate cache", files, ["gen", "H100_80GB", "--mlir_file", str(MLP),
                                          "--cache-dir", "{dir}/cache", "-o", "{dir}/out"])


def classify(rc: int | None, stderr: str, written: bool) -> str:
    if rc is None:
        return "hang"
    if rc < 0 or rc in (134, 139):
        return "native crash"
    if "Traceback (most recent call last)" in stderr:
        return "traceback"
    if rc != 0 and written:
        return "written on failure"
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    if rc == 0:
        return "ok"
    if rc == 2 and len(errors) == 1:
        return "bad input"
    return "messy error"


def run_case(case: Case, traces: Path, timeout: float) -> tuple[str, str, float]:
    """(outcome, stderr tail, seconds) of one case, in a scratch folder removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="hespas-fuzz-") as folder:
        for name, data in case.files.items():
            path = Path(folder) / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        args = [a.replace("{dir}", folder).replace("{traces}", str(traces)) for a in case.args]
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", case.entry, *args], cwd=folder,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            _, stderr = proc.communicate(timeout=timeout)
            rc: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            _, stderr = proc.communicate()
            rc = None
        seconds = time.perf_counter() - start
        text = stderr.decode(errors="replace")
        written = bool(case.output) and (Path(folder) / case.output).exists()
        return classify(rc, text, written), text[-2000:], seconds


def seeds(scratch: Path) -> tuple[Path, Path]:
    """A 4-NPU trace set of the MLP step and an estimate cache of it, made once."""
    traces, cache = scratch / "traces", scratch / "cache"
    subprocess.run([sys.executable, "-c", ENTRY, "gen", "H100_80GB", "--mlir_file", str(MLP),
                    "-o", str(traces), "--cache-dir", str(cache), "--log-level", "error"],
                   check=True, stdout=subprocess.DEVNULL)
    return traces, cache


def rerun(findings: Path, timeout: float) -> None:
    """Run every finding kept under ``findings`` again and print its outcome now."""
    for kept in sorted(p for p in findings.iterdir() if (p / "command.json").is_file()):
        command = json.loads((kept / "command.json").read_text())
        files = {str(p.relative_to(kept)): p.read_bytes() for p in kept.rglob("*")
                 if p.is_file() and p.name not in ("command.json", "stderr.txt")}
        case = Case("rerun", files, command["args"], command.get("output", "out"),
                    command.get("entry", ENTRY))
        outcome, stderr, _ = run_case(case, Path(command["traces"]), timeout)
        last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
        print(f"{kept.name}: {outcome}: {last[:160]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--cases", type=int, default=0, help="stop after this many (0: no limit)")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120, help="seconds before a hang")
    parser.add_argument("--findings", type=Path, default=Path("fuzz-findings"))
    parser.add_argument("--kinds", default="", help="comma-separated subset of the kinds")
    parser.add_argument("--rerun", type=Path, help="rerun the findings kept in this folder")
    options = parser.parse_args()
    if options.rerun:
        rerun(options.rerun, options.timeout)
        return
    rng = random.Random(options.seed)
    scratch = options.findings / "seeds"  # kept: a finding of a trace run reads them again
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    traces, cache = seeds(scratch.resolve())
    kinds: dict[str, Callable[[random.Random], Case]] = {
        "mlir": mlir_case, "node": node_case, "system": system_case,
        "trace": lambda r: trace_case(r, traces), "sweep": sweep_case,
        "cache": lambda r: cache_case(r, cache)}
    weights = {"mlir": 5, "node": 2, "system": 2, "trace": 2, "sweep": 1, "cache": 1}
    if options.kinds:
        kinds = {k: v for k, v in kinds.items() if k in options.kinds.split(",")}
    names = list(kinds)
    counts: collections.Counter = collections.Counter()
    by_kind: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    begun = time.monotonic()
    deadline = begun + options.minutes * 60
    started = 0
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        running: dict[concurrent.futures.Future, tuple[int, Case]] = {}
        while running or (time.monotonic() < deadline
                          and (not options.cases or started < options.cases)):
            while (len(running) < options.jobs and time.monotonic() < deadline
                   and (not options.cases or started < options.cases)):
                kind = rng.choices(names, [weights[n] for n in names])[0]
                case = kinds[kind](rng)
                running[pool.submit(run_case, case, traces, options.timeout)] = (started, case)
                started += 1
            done, _ = concurrent.futures.wait(running, return_when="FIRST_COMPLETED")
            for future in done:
                number, case = running.pop(future)
                outcome, stderr, seconds = future.result()
                counts[outcome] += 1
                by_kind[case.kind][outcome] += 1
                if outcome not in ("ok", "bad input"):
                    keep = options.findings / f"{number:06d}_{outcome.replace(' ', '_')}"
                    keep.mkdir(parents=True, exist_ok=True)
                    for name, data in case.files.items():
                        (keep / name).parent.mkdir(parents=True, exist_ok=True)
                        (keep / name).write_bytes(data)
                    (keep / "command.json").write_text(json.dumps(
                        {"args": case.args, "output": case.output, "traces": str(traces),
                         "entry": case.entry, "seconds": seconds}))
                    (keep / "stderr.txt").write_text(stderr)
                    print(f"{outcome}: {case.kind}: {' '.join(case.args)} -> {keep}", flush=True)
    print(f"{sum(counts.values())} cases in {(time.monotonic() - begun) / 60:.1f} min "
          f"(seed {options.seed}, {options.jobs} at a time):")
    for outcome, n in counts.most_common():
        print(f"  {outcome:<20} {n}")
    for kind, outcomes in sorted(by_kind.items()):
        print(f"  {kind:<16} " + ", ".join(f"{o} {n}" for o, n in outcomes.most_common()))


if __name__ == "__main__":
    main()
