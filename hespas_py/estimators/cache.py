"""A content-addressed, on-disk cache that any estimator can sit behind.

Key = sha256 of the block's canonical text (`canonical_block_text`: op names, types, carried
attributes, regions and block boundary types, with SSA ids renumbered in order of first
appearance, so identical blocks anywhere in any module hash equal) and of the inner estimator's
``fingerprint()`` (its name, its ``method_version`` and every hardware number). For an
estimator whose answer depends on the rest of the step (`Estimator.context_dependent`, e.g.
``fused_roofline``), the fingerprint names the step's content and the key adds the block's id,
so such entries serve only that step.

One JSON file per key, ``<cache_dir>/<key[:2]>/<key>.json``, holding the `Estimate` and a sha256
of its canonical JSON. Files are written to a temporary name unique to the writing process in the
same directory and moved into place with ``os.replace``, so processes sharing a directory never
see a partial entry; an entry that does not parse or whose checksum does not match (corrupt,
truncated), or whose figures are impossible (`hespas_py.checks`: a time of 1e308 s, null, a
string), is recomputed and rewritten. Identical blocks within one run are also served from
memory. Writes run on a background thread (file creation is slow on many filesystems); `close`
(or leaving the ``with`` block) waits for them and reports a failed write.

`CachedEstimator` is not in the registry (it wraps an estimator instance rather than being built
from hardware alone): construct it as ``CachedEstimator(get_estimator(name, hw), cache_dir)``.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from functools import cache
from itertools import count
from pathlib import Path
from typing import Any

from hespas_py.checks import NON_NEGATIVE, TRACE_INT_MAX, Number
from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate, Estimator, OpCost
from hespas_py.mlir.ops import Op, Region, TensorType
from hespas_py.split.blocks import Block, BlockGraph

#: Bumped when the entry layout changes; part of every key.
FORMAT_VERSION = 1


@dataclass(frozen=True)
class CacheStats:
    """How much a `CachedEstimator` reused.

    Attributes:
        lookups: blocks asked for.
        hits: lookups answered from memory or disk.
        corrupt: disk entries found unreadable (corrupt or truncated) and recomputed.
        ops_hit: ops in blocks answered by hits.
        ops_computed: ops in blocks the inner estimator costed.
    """

    lookups: int = 0
    hits: int = 0
    corrupt: int = 0
    ops_hit: int = 0
    ops_computed: int = 0

    @property
    def block_reuse_rate(self) -> float:
        """hits / lookups (0 when nothing was looked up)."""
        return self.hits / self.lookups if self.lookups else 0.0

    @property
    def op_reuse_factor(self) -> float:
        """Ops costed / ops the inner estimator actually costed (at least 1): 1.0 = no reuse."""
        return (self.ops_hit + self.ops_computed) / max(self.ops_computed, 1)

    def as_dict(self) -> dict[str, float]:
        """Counts and both ratios, for stats files."""
        return {**asdict(self), "block_reuse_rate": self.block_reuse_rate,
                "op_reuse_factor": self.op_reuse_factor}


@cache
def _type_text(t: TensorType) -> str:
    if t.elements:
        return f"{t.dtype}<{','.join(_type_text(e) for e in t.elements)}>"
    return f"{'x'.join(map(str, t.shape))}:{t.dtype}"


class _Renumber:
    """SSA ids in order of first appearance: 0, 1, 2, ..."""

    def __init__(self) -> None:
        self.ids: dict[int, int] = {}

    def __call__(self, values: tuple[int, ...]) -> str:
        ids = self.ids
        return ",".join(str(ids.setdefault(v, len(ids))) for v in values)


def _op_text(op: Op, renumber: _Renumber, out: list[str]) -> None:
    attrs = repr(sorted(op.attrs.items())) if op.attrs else ""
    out.append(f"{renumber(op.results)}={op.name}({renumber(op.operands)})"
               f"[{renumber(op.captures)}]{attrs}:"
               f"{';'.join(map(_type_text, op.operand_types))}->"
               f"{';'.join(map(_type_text, op.result_types))}")
    for region in op.regions:
        _region_text(region, renumber, out)


def _region_text(region: Region, renumber: _Renumber, out: list[str]) -> None:
    out.append(f"{{({renumber(region.args)}):{';'.join(map(_type_text, region.arg_types))}")
    for op in region.ops:
        _op_text(op, renumber, out)
    out.append("}")


def canonical_block_text(block: Block) -> str:
    """The block's content with SSA ids renumbered, independent of where it sits in a module."""
    renumber = _Renumber()
    out = [f"in:{';'.join(map(_type_text, block.inputs))}",
           f"out:{';'.join(map(_type_text, block.outputs))}"]
    for op in block.ops:
        _op_text(op, renumber, out)
    return "\n".join(out)


def _estimate_to_json(estimate: Estimate) -> dict[str, Any]:
    return {"time_s": estimate.time_s, "flops": estimate.flops, "bytes": estimate.bytes,
            "peak_flops": estimate.peak_flops,
            "per_op": [[c.name, c.dtype, c.flops, c.bytes, c.time_s, c.fallback, list(c.notes)]
                       for c in estimate.per_op]}


#: What a stored count (FLOPs, bytes) and time may be: what a trace can carry.
_COUNT = Number(0, TRACE_INT_MAX)
_TIME = Number(0, TRACE_INT_MAX * 1e-6)


def _valid(value: Any, rule: Number) -> Any:
    """``value`` if it keeps ``rule``; `ValueError` (an entry to recompute) otherwise."""
    if rule.problem(value):
        raise ValueError(value)
    return value


def _estimate_from_json(data: dict[str, Any]) -> Estimate:
    """The stored estimate; `ValueError`/`TypeError` when any figure is impossible (not a
    number, not finite, negative, beyond a trace's range) though its checksum matches."""
    rows = tuple(OpCost(str(name), str(dtype), _valid(flops, _COUNT), _valid(nbytes, _COUNT),
                        _valid(time_s, _TIME), bool(fallback), tuple(map(str, notes)))
                 for name, dtype, flops, nbytes, time_s, fallback, notes in data["per_op"])
    return Estimate(time_s=_valid(data["time_s"], _TIME), flops=_valid(data["flops"], _COUNT),
                    bytes=_valid(data["bytes"], _COUNT), per_op=rows,
                    peak_flops=_valid(data["peak_flops"], NON_NEGATIVE))


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


class CachedEstimator(Estimator):
    """Answers from the cache when it can, asks ``inner`` otherwise and stores the answer."""

    name = "cache"

    def __init__(self, inner: Estimator, cache_dir: Path | str) -> None:
        super().__init__(inner.hardware)
        self.inner = inner
        self.cache_dir = Path(cache_dir)
        self._salt = self._key_salt()
        self._memory: dict[str, Estimate] = {}
        self._counts = {"lookups": 0, "hits": 0, "corrupt": 0, "ops_hit": 0, "ops_computed": 0}
        self._writer: ThreadPoolExecutor | None = None
        self._pending: list[Future[None]] = []
        self._made_dirs: set[Path] = set()
        self._tmp_ids = count()

    @property
    def stats(self) -> CacheStats:
        """Reuse counts so far."""
        return CacheStats(**self._counts)

    def fingerprint(self) -> str:
        return self.inner.fingerprint()

    @property
    def measured_on(self) -> str | None:
        return self.inner.measured_on

    def dispatch(self, buffers: int) -> OpCost | None:
        return self.inner.dispatch(buffers)

    def prepare(self, graph: BlockGraph) -> None:
        self.inner.prepare(graph)
        self._salt = self._key_salt()  # the inner fingerprint may now name the step

    def _key_salt(self) -> str:
        """What every key starts with: the entry format and the inner estimator's fingerprint."""
        return f"v{FORMAT_VERSION}\n{self.inner.fingerprint()}\n"

    def key(self, block: Block) -> str:
        """The block's cache key (hex sha256): its canonical text, plus its id in the step when
        the inner estimator's answer depends on the rest of the step."""
        place = f"block {block.id}\n" if self.inner.context_dependent else ""
        return _checksum(self._salt + place + canonical_block_text(block))

    def path(self, key: str) -> Path:
        """Where the entry for ``key`` lives."""
        return self.cache_dir / key[:2] / f"{key}.json"

    def estimate(self, block: Block) -> Estimate:
        counts = self._counts
        counts["lookups"] += 1
        key = self.key(block)
        found = self._memory.get(key)
        if found is None:
            found = self._read(key)
        if found is None:
            found = self.inner.estimate(block)
            self._write(key, found)
            counts["ops_computed"] += len(block.ops)
        else:
            counts["hits"] += 1
            counts["ops_hit"] += len(block.ops)
        self._memory[key] = found
        return found

    def _read(self, key: str) -> Estimate | None:
        """The stored entry, or None when absent or unreadable (counted as corrupt)."""
        try:
            text = self.path(key).read_text()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError):
            text = ""
        try:
            entry = json.loads(text)
            body = json.dumps(entry["estimate"], sort_keys=True)
            if entry["key"] == key and entry["sha256"] == _checksum(body):
                return _estimate_from_json(entry["estimate"])
        except (ValueError, KeyError, TypeError):
            pass
        self._counts["corrupt"] += 1
        return None

    def _write(self, key: str, estimate: Estimate) -> None:
        """Queue the entry for writing on the background thread."""
        data = _estimate_to_json(estimate)
        body = json.dumps(data, sort_keys=True)
        entry = json.dumps({"key": key, "sha256": _checksum(body), "estimate": data},
                           sort_keys=True)
        if self._writer is None:
            self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hespas-cache")
        self._pending.append(self._writer.submit(self._store, self.path(key), entry))

    def _store(self, target: Path, entry: str) -> None:
        if target.parent not in self._made_dirs:
            target.parent.mkdir(parents=True, exist_ok=True)
            self._made_dirs.add(target.parent)
        tmp = target.with_name(f".{target.stem[:16]}.{os.getpid()}.{next(self._tmp_ids)}.tmp")
        try:
            tmp.write_text(entry)
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def close(self) -> None:
        """Wait for queued writes; a failed one raises `HespasError` naming the cache dir."""
        pending, self._pending = self._pending, []
        for future in pending:
            error = future.exception()
            if error is not None:
                raise HespasError(f"{self.cache_dir}: cannot write a cache entry ({error})")

    def __enter__(self) -> CachedEstimator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
