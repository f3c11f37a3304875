"""The content-addressed estimate cache: keys, hits, corrupt entries, concurrent writers."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators import Estimate, Estimator, get_estimator
from hespas_py.estimators.cache import CachedEstimator, _checksum, canonical_block_text
from hespas_py.hardware import Hardware
from hespas_py.mlir.ops import Op
from hespas_py.split.blocks import Block, BlockGraph
from test_estimate_costs import T, make_op, scalar_region

HW = Hardware(name="hw", peak_flops=1e13, memory_bandwidth=1e12, vector_flops=1e13,
              per_dtype_flops={"f32": 1e13})


def chain(first_id: int, size: int = 16, block_id: int = 0) -> Block:
    """add -> reduce over fixed SSA ids starting at ``first_id``."""
    x, y = first_id, first_id + 1
    add = Op("stablehlo.add", (first_id + 2,), (x, y), (T([size]),), (T([size]), T([size])))
    red = Op("stablehlo.reduce", (first_id + 4,), (first_id + 2, first_id + 3), (T([]),),
             (T([size]), T([])), {"dimensions": (0,)}, (scalar_region("stablehlo.add"),))
    return Block(id=block_id, ops=(add, red), deps=(), collective=False,
                 inputs=(T([size]), T([size])), outputs=(T([]),))


class Counting(Estimator):
    """Roofline that counts its calls."""

    name = "counting"

    def __init__(self, hardware: Hardware) -> None:
        super().__init__(hardware)
        self.inner = get_estimator("roofline", hardware)
        self.calls = 0

    def estimate(self, block: Block) -> Estimate:
        self.calls += 1
        return self.inner.estimate(block)

    def fingerprint(self) -> str:
        return self.inner.fingerprint()

    def prepare(self, graph: BlockGraph) -> None:
        self.prepared = graph


def test_identical_blocks_hash_equal_wherever_they_sit() -> None:
    a, b = chain(10), chain(5000)
    assert canonical_block_text(a) == canonical_block_text(b)
    cached = CachedEstimator(get_estimator("roofline", HW), "/nonexistent")
    assert cached.key(a) == cached.key(b)
    assert cached.key(chain(10, size=32)) != cached.key(a)


def test_attributes_and_hardware_are_part_of_the_key() -> None:
    base = chain(10)
    changed_op = Op(**{**{f: getattr(base.ops[1], f) for f in Op.__slots__},
                       "attrs": {"dimensions": (1,)}})
    changed = Block(id=0, ops=(base.ops[0], changed_op), deps=(), collective=False,
                    inputs=base.inputs, outputs=base.outputs)
    cached = CachedEstimator(get_estimator("roofline", HW), "/nonexistent")
    assert cached.key(changed) != cached.key(base)
    other_hw = dataclasses.replace(HW, memory_bandwidth=2e12)
    assert CachedEstimator(get_estimator("roofline", other_hw), "/x").key(base) != \
        cached.key(base)


def test_a_new_method_version_is_a_new_key(monkeypatch) -> None:
    """An estimator whose method changed (``method_version``) never gets an older answer."""
    estimator = get_estimator("roofline", HW)
    before = CachedEstimator(estimator, "/nonexistent").key(chain(10))
    monkeypatch.setattr(type(estimator), "method_version", estimator.method_version + 1)
    assert CachedEstimator(estimator, "/nonexistent").key(chain(10)) != before


def test_miss_then_hit_from_disk_and_memory(tmp_path: Path) -> None:
    inner = Counting(HW)
    first = CachedEstimator(inner, tmp_path)
    expected = inner.inner.estimate(chain(10))
    assert first.estimate(chain(10)) == expected
    assert first.estimate(chain(99)) == expected  # same content: served from memory
    assert inner.calls == 1
    assert (first.stats.lookups, first.stats.hits) == (2, 1)
    assert first.stats.block_reuse_rate == 0.5
    assert first.stats.op_reuse_factor == 2.0
    first.close()

    second_inner = Counting(HW)
    second = CachedEstimator(second_inner, tmp_path)
    assert second.estimate(chain(7)) == expected  # a fresh process-like instance: from disk
    assert second_inner.calls == 0
    assert second.stats.as_dict()["hits"] == 1


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],                      # truncated
    lambda text: text.replace('"time_s": ', '"time_s": 1'),   # corrupted number: checksum fails
    lambda text: "\x00garbage",                               # not JSON
])
def test_damaged_entry_is_detected_and_recomputed(tmp_path: Path, damage) -> None:
    with CachedEstimator(get_estimator("roofline", HW), tmp_path) as cached:
        cached.estimate(chain(10))
    [entry] = list(tmp_path.rglob("*.json"))
    entry.write_text(damage(entry.read_text()))
    inner = Counting(HW)
    cached = CachedEstimator(inner, tmp_path)
    result = cached.estimate(chain(10))
    cached.close()
    assert result == inner.inner.estimate(chain(10))
    assert inner.calls == 1
    assert (cached.stats.corrupt, cached.stats.hits) == (1, 0)
    json.loads(entry.read_text())  # rewritten whole
    assert CachedEstimator(Counting(HW), tmp_path).estimate(chain(10)) == result


@pytest.mark.parametrize("field, value", [
    ("time_s", 1e308), ("time_s", None), ("time_s", "fast"), ("time_s", -1.0),
    ("flops", float("nan")), ("bytes", 2.0 ** 70), ("peak_flops", True),
])
def test_well_formed_entry_with_impossible_values_is_recomputed(tmp_path: Path, field,
                                                                value) -> None:
    """An entry whose checksum matches but whose figures cannot be (issue 19 reproducer)."""
    with CachedEstimator(get_estimator("roofline", HW), tmp_path) as cached:
        right = cached.estimate(chain(10))
    [entry] = list(tmp_path.rglob("*.json"))
    stored = json.loads(entry.read_text())
    stored["estimate"][field] = value
    stored["sha256"] = _checksum(json.dumps(stored["estimate"], sort_keys=True))
    entry.write_text(json.dumps(stored))
    inner = Counting(HW)
    with CachedEstimator(inner, tmp_path) as cached:
        assert cached.estimate(chain(10)) == right
    assert inner.calls == 1 and cached.stats.corrupt == 1


def test_failed_write_is_reported_on_close(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cached = CachedEstimator(get_estimator("roofline", HW), blocker)
    cached.estimate(chain(10))
    with pytest.raises(HespasError, match="cannot write a cache entry"):
        cached.close()


def _worker(cache_dir: str, sizes: list[int], out: multiprocessing.Queue) -> None:
    with CachedEstimator(get_estimator("roofline", HW), cache_dir) as cached:
        times = [cached.estimate(chain(10, size)).time_s for size in sizes]
    out.put(times)


def test_two_processes_sharing_one_dir_stay_consistent(tmp_path: Path) -> None:
    sizes = [2 ** k for k in range(1, 40)] * 3
    # Spawned, not forked: this process may run threads (an xdist worker's I/O, JAX's pools).
    spawn = multiprocessing.get_context("spawn")
    queue = spawn.Queue()
    procs = [spawn.Process(target=_worker, args=(str(tmp_path), sizes, queue)) for _ in range(2)]
    for p in procs:
        p.start()
    results = [queue.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    roofline = get_estimator("roofline", HW)
    expected = [roofline.estimate(chain(10, size)).time_s for size in sizes]
    assert results[0] == results[1] == expected
    entries = list(tmp_path.rglob("*.json"))
    assert len(entries) == 39
    assert not list(tmp_path.rglob("*.tmp"))
    reread = CachedEstimator(Counting(HW), tmp_path)
    assert [reread.estimate(chain(1, size)).time_s for size in sizes] == expected
    assert reread.inner.calls == 0 and reread.stats.corrupt == 0


def test_fallback_and_notes_survive_the_round_trip(tmp_path: Path) -> None:
    blk = Block(id=0, ops=(make_op("foo.bar", [T([3])], [T([3])]),
                           make_op("stablehlo.while", [T([3])], [T([3])])),
                deps=(), collective=False)
    with CachedEstimator(get_estimator("roofline", HW), tmp_path) as cached:
        stored = cached.estimate(blk)
    loaded = CachedEstimator(Counting(HW), tmp_path).estimate(blk)
    assert loaded == stored
    assert loaded.fallback_ops == ("foo.bar",) and loaded.notes


def test_prepare_reaches_the_inner_estimator(tmp_path: Path) -> None:
    inner = Counting(HW)
    graph = BlockGraph(blocks=(chain(3),), num_devices=1, source="step.mlir")
    CachedEstimator(inner, tmp_path).prepare(graph)
    assert inner.prepared is graph


def test_context_dependent_estimators_key_on_the_block_place(tmp_path: Path) -> None:
    a, b = chain(10, block_id=1), chain(5000, block_id=2)
    fused = CachedEstimator(get_estimator("fused_roofline", HW), tmp_path)
    assert fused.key(a) != fused.key(b)
    plain = CachedEstimator(get_estimator("roofline", HW), tmp_path)
    assert plain.key(a) == plain.key(b)
