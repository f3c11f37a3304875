"""Forked work (`hespas_py.forking`), and the reader's forked walk of long function bodies,
which must give the module a serial walk gives.

SSA ids differ between the two walks (a child numbers from ids set aside for it), so modules
are compared after renumbering every value in order of definition.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir import parsed_reader
from hespas_py.mlir.ops import Module, Op
from hespas_py.mlir.reader import load_module

DATA = Path(__file__).parent / "data" / "mlir"
# hespas_py forks only a single-threaded process: not an xdist worker (conftest.py).
pytestmark = pytest.mark.fresh_process
MODULES = ["collectives.mlir", "compute.mlir", "control_flow.mlir", "xla_fusion.mlir",
           "foreign.mlir", "late_calls.mlir"]


def canonical(module: Module) -> tuple[Any, ...]:
    """Everything a module holds, its SSA ids renumbered in order of definition."""
    number: dict[int, int] = {}

    def define(ids: tuple[int, ...]) -> tuple[int, ...]:
        for i in ids:
            assert i not in number, f"value {i} defined twice"
            number[i] = len(number)
        return tuple(number[i] for i in ids)

    def use(ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(number[i] for i in ids)

    def op(o: Op) -> tuple[Any, ...]:
        operands = use(o.operands)
        if o.name == "func.call":  # the callee's body, compared once as its function
            regions: tuple[Any, ...] = (o.attrs["callee"], len(o.regions))
        else:
            regions = tuple((define(r.args), r.arg_types, tuple(map(op, r.ops))) for r in o.regions)
        return (o.name, define(o.results), operands, o.result_types, o.operand_types,
                dict(o.attrs), regions, use(o.captures), o.index)

    functions = tuple((f.name, f.public, define(f.args), f.arg_types, tuple(map(op, f.ops)),
                       f.result_types) for f in module.functions.values())
    return (functions, module.entry, module.num_replicas, module.num_partitions,
            dict(module.mesh), module.warnings)


def _read(path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> Module:
    monkeypatch.setenv("HESPAS_JOBS", str(jobs))
    return load_module(path)


@pytest.fixture(params=[1, 3])
def small_shares(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork for bodies of two ops or more; children send chunks of 1 or 3 ops."""
    monkeypatch.setattr(parsed_reader, "_OPS_PER_JOB", 1)
    monkeypatch.setattr(parsed_reader, "_OPS_PER_CHUNK", request.param)


@pytest.mark.parametrize("name", MODULES)
@pytest.mark.parametrize("jobs", [2, 3])
def test_forked_read_equals_serial_read(name: str, jobs: int, small_shares: None,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    serial = _read(DATA / name, monkeypatch, 1)
    forked = _read(DATA / name, monkeypatch, jobs)
    assert canonical(forked) == canonical(serial)


def test_shares_overrunning_their_ids_are_renumbered(small_shares: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsed_reader, "_IDS_PER_OP", 0)  # every child's ids collide with earlier ones
    for name in MODULES:
        serial = _read(DATA / name, monkeypatch, 1)
        assert canonical(_read(DATA / name, monkeypatch, 3)) == canonical(serial), name


def test_trip_counts_need_values_of_earlier_shares(small_shares: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    forked = _read(DATA / "control_flow.mlir", monkeypatch, 3)
    counts = [op.attrs.get("trip_count") for op in forked.ops if op.name == "stablehlo.while"]
    serial = _read(DATA / "control_flow.mlir", monkeypatch, 1)
    assert counts == [op.attrs.get("trip_count") for op in serial.ops
                      if op.name == "stablehlo.while"]
    assert any(count is not None for count in counts)


def test_undecodable_chunk_leaves_the_rest_of_the_share_to_the_parent(
        small_shares: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from hespas_py.mlir.shares import ShareDecoder

    real = ShareDecoder.add
    chunks = []

    def second_fails(self: ShareDecoder, data: bytes) -> bool:
        chunks.append(data)
        return len(chunks) % 2 == 1 and real(self, data)

    for name in MODULES:
        serial = _read(DATA / name, monkeypatch, 1)
        monkeypatch.setattr(ShareDecoder, "add", second_fails)
        assert canonical(_read(DATA / name, monkeypatch, 3)) == canonical(serial), name
        monkeypatch.setattr(ShareDecoder, "add", real)


def test_late_callees_are_read_once_and_shared(small_shares: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    module = _read(DATA / "late_calls.mlir", monkeypatch, 3)
    calls = [op for op in module.ops if op.name == "func.call"]
    late = module.functions["late"]
    assert [op.regions[0].ops for op in calls] == [late.ops, late.ops]
    assert calls[0].regions[0] is calls[1].regions[0]
    loop = next(op for op in module.ops if op.name == "stablehlo.while")
    assert loop.attrs["trip_count"] == 3


def test_only_a_tracked_caller_stops_a_childs_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Callers are built after the last chunk, except a fusion (loop analysis tracks fusions):
    reading its callee numbers values the next chunk needs, so the parent reads the rest."""
    monkeypatch.setattr(parsed_reader, "_OPS_PER_JOB", 1)
    monkeypatch.setattr(parsed_reader, "_OPS_PER_CHUNK", 1)
    stopped = []
    monkeypatch.setattr(parsed_reader.log, "debug", lambda *args: stopped.append(args[-1]))
    forked = _read(DATA / "late_calls.mlir", monkeypatch, 3)  # the loop calling @later is in
    fusion = next(op.index for op in forked.ops if op.name == "mhlo.fusion")  # the 2nd share
    assert stopped == [fusion + 1]
    assert canonical(forked) == canonical(_read(DATA / "late_calls.mlir", monkeypatch, 1))


def test_failed_child_share_is_read_by_the_parent(small_shares: None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> bytes:
        raise RuntimeError("child failed")

    serial = _read(DATA / "control_flow.mlir", monkeypatch, 1)
    monkeypatch.setattr(parsed_reader._FunctionReader, "_encoded_share", fail)
    assert canonical(_read(DATA / "control_flow.mlir", monkeypatch, 3)) == canonical(serial)


def test_long_body_forks_at_the_default_share_size(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ops = 2 * parsed_reader._OPS_PER_JOB + 10
    body = "\n".join(f"    %v{i} = stablehlo.add %v{i - 1}, %v{i - 1} : tensor<4xf32>"
                     for i in range(1, ops))
    path = tmp_path / "long.mlir"
    path.write_text("func.func @main(%v0: tensor<4xf32>) -> tensor<4xf32> {\n"
                    f"{body}\n    return %v{ops - 1} : tensor<4xf32>\n}}\n")
    forks = []
    real = parsed_reader.Forked
    monkeypatch.setattr(parsed_reader, "Forked", lambda work: forks.append(work) or real(work))
    forked = _read(path, monkeypatch, 2)
    assert len(forks) == 1
    assert len(forked.ops) == ops
    assert canonical(forked) == canonical(_read(path, monkeypatch, 1))


def test_forked_work_returns_its_chunks_or_tells_it_failed() -> None:
    from hespas_py.forking import Forked

    big = b"share" * 100_000  # more than a pipe holds: the child must not wait for the reader
    assert Forked(lambda: [big, b"", b"end"]).result() == big + b"end"

    def fails_midway():
        yield b"first"
        raise RuntimeError("child failed")

    child = Forked(fails_midway)
    assert list(child.chunks()) == [b"first"] and child.failed
    assert Forked(fails_midway).result() is None


def test_closing_the_chunks_early_stops_the_child() -> None:
    import itertools

    from hespas_py.forking import Forked

    child = Forked(lambda: itertools.repeat(b"x"))  # would never end
    chunks = child.chunks()
    assert next(chunks) == b"x"
    chunks.close()
    assert child.failed


def test_jobs_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from hespas_py.forking import Forked, max_jobs

    monkeypatch.setenv("HESPAS_JOBS", "3")
    assert max_jobs() == 3
    monkeypatch.setenv("HESPAS_JOBS", "0")
    assert max_jobs() == 1
    monkeypatch.setenv("HESPAS_JOBS", "two")
    with pytest.raises(HespasError, match="HESPAS_JOBS='two': expected a whole number"):
        max_jobs()
    monkeypatch.delenv("HESPAS_JOBS")
    assert max_jobs() == len(os.sched_getaffinity(0))
    # A second thread (JAX's pools, a progress display) makes a fork unsafe, whatever
    # HESPAS_JOBS says; Forked itself then runs no child and reports it failed.
    stop = threading.Event()
    waiter = threading.Thread(target=stop.wait)
    waiter.start()
    try:
        monkeypatch.setenv("HESPAS_JOBS", "3")
        assert max_jobs() == 1
        child = Forked(lambda: [b"never"])
        assert child.result() is None and child.failed
    finally:
        stop.set()
        waiter.join()
    deadline = time.monotonic() + 10  # the OS thread may outlive join() by a moment
    while max_jobs() == 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert max_jobs() == 3


def test_shares_cover_the_range_in_order() -> None:
    from hespas_py.forking import shares

    assert shares(10, 1) == [(0, 10)]
    assert shares(10, 3) == [(0, 3), (3, 7), (7, 10)]
    assert shares(23, 2, first_weight=1.3) == [(0, 13), (13, 23)]


def test_background_work_gives_the_same_result_forked_or_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from hespas_py import forking

    def work() -> dict:
        return {"runtime_s": 0.1 + 0.2, "per_op": {"add": {"count": 3}}, "notes": ["n"]}

    monkeypatch.setenv("HESPAS_JOBS", "2")
    forked = forking.background(work)
    assert forked is not work and forked() == work()
    assert forking.background(work, worth_it=False) is work
    monkeypatch.setenv("HESPAS_JOBS", "1")
    assert forking.background(work) is work
    monkeypatch.setenv("HESPAS_JOBS", "2")
    assert forking.background(lambda: object())() is not None  # unmarshallable: computed here


def test_background_child_is_killed_when_its_result_is_not_wanted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An error before the getter is called drops it: its child must not run on."""
    import gc
    import time

    from hespas_py import forking

    monkeypatch.setenv("HESPAS_JOBS", "2")
    getter = forking.background(lambda: time.sleep(60))
    pid = getter._child._pid
    del getter
    gc.collect()
    with pytest.raises(ChildProcessError):  # killed and reaped already
        os.waitpid(pid, os.WNOHANG)
    assert forking.background(lambda: time.sleep(0.1) or 7)() == 7


def test_loops_keep_their_own_trip_counts_across_chunks(tmp_path: Path, small_shares: None,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each counted loop has an attribute dict of its own: a child must not mix them up."""
    loops = "\n".join(f"""
    %b{k} = stablehlo.constant dense<{k + 2}> : tensor<i32>
    %w{k}:2 = stablehlo.while(%i = %zero, %x = %v{k}) : tensor<i32>, tensor<4xf32>
    cond {{
      %p = stablehlo.compare LT, %i, %b{k}, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    }} do {{
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %x : tensor<i32>, tensor<4xf32>
    }}
    %v{k + 1} = stablehlo.add %w{k}#1, %v{k} : tensor<4xf32>""" for k in range(40))
    path = tmp_path / "loops.mlir"
    path.write_text("func.func @main(%v0: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "    %zero = stablehlo.constant dense<0> : tensor<i32>"
                    f"{loops}\n    return %v40 : tensor<4xf32>\n}}\n")
    forked = _read(path, monkeypatch, 2)
    counts = [op.attrs["trip_count"] for op in forked.ops if op.name == "stablehlo.while"]
    assert counts == [k + 2 for k in range(40)]
    assert canonical(forked) == canonical(_read(path, monkeypatch, 1))


def test_outline_reads_never_fork(small_shares: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsed_reader, "Forked", None)  # any fork would fail
    monkeypatch.setenv("HESPAS_JOBS", "3")
    module = load_module(DATA / "late_calls.mlir", outline=True)
    assert module.outline and all(op.results == () for op in module.ops)


def test_no_process_to_be_had_means_the_parent_reads_alone(small_shares: None,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:

    from hespas_py.forking import Forked

    def no_fork() -> int:
        raise BlockingIOError("fork: resource temporarily unavailable")

    serial = _read(DATA / "control_flow.mlir", monkeypatch, 1)
    monkeypatch.setattr(os, "fork", no_fork)
    child = Forked(lambda: [b"never"])
    assert child.result() is None and child.failed
    assert canonical(_read(DATA / "control_flow.mlir", monkeypatch, 3)) == canonical(serial)
