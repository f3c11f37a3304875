"""Export a step on more devices than XLA:CPU partitions: partition it on a smaller mesh whose
per-device program is the same, then widen its collectives' groups and pairs to the full mesh.

Why and how: docs/export.md.
"""

from __future__ import annotations

import inspect
import itertools
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from hespas_py.errors import HespasError

#: Devices XLA:CPU numbers in one process (``kMaxCpuDevicesPerProcess``, module docstring).
CPU_DEVICE_LIMIT = 1 << 11
#: Largest size a mesh-invariant axis is partitioned with.
SMALL_AXIS = 3
Axes = Sequence[tuple[str, int]]


class NotWidenable(ValueError):
    """A collective whose groups or pairs do not carry over to the full mesh."""


def _coords(ids: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return np.stack(np.unravel_index(ids, shape), axis=-1)


def _priority(coords: np.ndarray, varying: list[int]) -> tuple[int, ...]:
    """The order of ``varying`` axes (most significant first) in which the members are listed."""
    for order in itertools.permutations(varying):
        keys = [tuple(row) for row in coords[:, list(order)]]
        if all(a < b for a, b in itertools.pairwise(keys)):
            return order
    raise NotWidenable("a group whose members are not listed axis by axis")


def widen_groups(groups: np.ndarray, small: tuple[int, ...], full: tuple[int, ...]) -> np.ndarray:
    """Replica groups (device ids of a mesh of shape ``small``) of the same collective on a mesh
    of shape ``full`` (module docstring)."""
    shrunk = [a for a in range(len(small)) if small[a] != full[a]]
    patterns: dict[tuple, set[tuple[int, ...]]] = {}
    for group in groups:
        coords = _coords(np.asarray(group), small)
        values = [tuple(np.unique(coords[:, a]).tolist()) for a in range(len(small))]
        if math.prod(map(len, values)) != len(group):
            raise NotWidenable("a group that is not a product of ranges of mesh axes")
        for a in shrunk:
            if len(values[a]) not in (1, small[a]):
                raise NotWidenable("a group covering part of a mesh-invariant axis")
        varying = [a for a in range(len(small)) if len(values[a]) > 1]
        key = (tuple("span" if a in shrunk and len(values[a]) > 1 else "one" if a in shrunk
                     else values[a] for a in range(len(small))), _priority(coords, varying))
        patterns.setdefault(key, set()).add(tuple(values[a][0] for a in shrunk
                                                  if len(values[a]) == 1))
    widened = []
    for (per_axis, order), seen in patterns.items():
        fixed = [a for a in range(len(small)) if per_axis[a] == "one"]
        if seen != set(itertools.product(*(range(small[a]) for a in fixed))):
            raise NotWidenable("groups that differ along a mesh-invariant axis")
        for combo in itertools.product(*(range(full[a]) for a in fixed)):
            ranges = [range(full[a]) if per_axis[a] == "span" else per_axis[a]
                      for a in range(len(small))]
            for a, value in zip(fixed, combo, strict=True):
                ranges[a] = (value,)
            base = [r[0] for r in ranges]
            members = []
            for point in itertools.product(*(ranges[a] for a in order)):
                member = list(base)
                for a, v in zip(order, point, strict=True):
                    member[a] = v
                members.append(member)
            widened.append(np.ravel_multi_index(np.array(members).T, full))
    return np.array(sorted(widened, key=lambda g: int(g[0])), dtype=np.int64)


def _signed_step(steps: np.ndarray, size: int) -> int:
    """The one signed step (mod ``size``) every pair takes along an axis."""
    distinct = np.unique(steps % size)
    if len(distinct) != 1:
        raise NotWidenable("a permute whose pairs step differently along a mesh-invariant axis")
    step = int(distinct[0])
    if 2 * step == size and step:
        raise NotWidenable("a permute half way round a mesh-invariant axis (direction unknown)")
    return step if 2 * step < size else step - size


def widen_pairs(pairs: np.ndarray, small: tuple[int, ...], full: tuple[int, ...]) -> np.ndarray:
    """``collective_permute`` (source, target) partition pairs of a mesh of shape ``small`` on a
    mesh of shape ``full`` (module docstring)."""
    shrunk = [a for a in range(len(small)) if small[a] != full[a]]
    kept = [a for a in range(len(small)) if a not in shrunk]
    src, dst = _coords(pairs[:, 0], small), _coords(pairs[:, 1], small)
    steps = {a: _signed_step(dst[:, a] - src[:, a], small[a]) for a in shrunk}
    targets: dict[tuple[int, ...], tuple[int, ...]] = {}
    seen: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for s, d in zip(src, dst, strict=True):
        key = tuple(s[kept])
        if targets.setdefault(key, tuple(d[kept])) != tuple(d[kept]):
            raise NotWidenable("a permute whose pairs differ along a mesh-invariant axis")
        seen.setdefault(key, set()).add(tuple(s[shrunk]))
    every = set(itertools.product(*(range(small[a]) for a in shrunk)))
    if any(values != every for values in seen.values()):
        raise NotWidenable("a permute leaving out part of a mesh-invariant axis")
    widened = []
    for key, target in targets.items():
        for combo in itertools.product(*(range(full[a]) for a in shrunk)):
            a_src, a_dst = [0] * len(small), [0] * len(small)
            for a, k, t in zip(kept, key, target, strict=True):
                a_src[a], a_dst[a] = k, t
            for a, v in zip(shrunk, combo, strict=True):
                a_src[a], a_dst[a] = v, (v + steps[a]) % full[a]
            widened.append((np.ravel_multi_index(a_src, full), np.ravel_multi_index(a_dst, full)))
    return np.array(sorted(widened), dtype=np.int64)


def widen(text: str, small: Axes, full: Mapping[str, int]) -> str:
    """The StableHLO ``text`` of a per-device program partitioned on mesh ``small`` (axes and
    sizes, major first), with its collectives widened to the sizes ``full`` gives (the other
    axes keep theirs) and ``mhlo.num_partitions`` set to the full count."""
    from hespas_py.mlir.bindings import ir, make_context

    small_shape = tuple(size for _, size in small)
    full_shape = tuple(full.get(name, size) for name, size in small)
    done: dict[tuple[str, str], Any] = {}
    with make_context():
        module = ir.Module.parse(text)
        i64 = ir.IntegerType.get_signless(64)

        def visit(op: ir.Operation) -> ir.WalkResult:
            if "channel_handle" in op.attributes:
                for name, rule in (("replica_groups", widen_groups),
                                   ("source_target_pairs", widen_pairs)):
                    if name not in op.attributes:
                        continue
                    key = (name, str(op.attributes[name]))
                    if key not in done:
                        ids = np.array(ir.DenseIntElementsAttr(op.attributes[name]), np.int64)
                        try:
                            done[key] = ir.DenseElementsAttr.get(  # type: ignore[call-overload]
                                rule(ids, small_shape, full_shape), type=i64)
                        except NotWidenable as exc:
                            raise HespasError(f"{op.name}: cannot widen its {name} from the "
                                              f"mesh {dict(small)} to {full}: {exc}") from None
                    op.attributes[name] = done[key]
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(
            ir.IntegerType.get_signless(32), math.prod(full_shape))
        _drop_entry_shardings(module)
        asm = module.operation.get_asm(enable_debug_info=False)
        return _widen_meshes(asm, full)  # type: ignore[arg-type]  # a str without binary=True


def _widen_meshes(text: str, full: Mapping[str, int]) -> str:
    """``text`` with the axes of its ``sdy.mesh`` symbols (which XLA keeps after partitioning
    from jaxlib 0.11 on) at their full sizes."""
    def mesh(line: re.Match) -> str:
        if "device_ids" in line[0]:
            raise HespasError(f"cannot widen a mesh of explicit device ids: {line[0].strip()}")
        return re.sub(r'"(\w+)"=(\d+)', lambda axis: f'"{axis[1]}"={full.get(axis[1], axis[2])}',
                      line[0])
    return re.sub(r"^\s*sdy\.mesh @.*$", mesh, text, flags=re.MULTILINE)


def _drop_entry_shardings(module) -> None:
    """Remove the ``mhlo.sharding`` of the entry function's arguments and results: the global
    layouts of the step's inputs and outputs, over the small mesh's devices. The per-device
    program never reads them (its shapes are per device)."""
    from hespas_py.mlir.bindings import ir

    for op in module.body.operations:
        for key in ("arg_attrs", "res_attrs"):
            if key not in op.attributes:
                continue
            # (a DictAttr iterates over its named attributes; its stub does not say so)
            kept = [ir.DictAttr.get({a.name: a.attr
                                     for a in ir.DictAttr(attrs)  # type: ignore[attr-defined]
                                     if a.name != "mhlo.sharding"})
                    for attrs in ir.ArrayAttr(op.attributes[key])]
            op.attributes[key] = ir.ArrayAttr.get(kept)


def small_mesh_sizes(factory: Any, spec: str, kwargs: Mapping[str, Any], num_devices: int,
                     max_devices: int) -> tuple[dict[str, int], dict[str, int], int]:
    """(full sizes, small sizes) of the factory's mesh-invariant axes, and the device count of
    the small mesh; `HespasError` when the factory declares none or the small mesh is still too
    large."""
    axes = getattr(factory, "mesh_invariant_axes", None)
    if not axes:
        raise HespasError(f"{spec}: XLA:CPU partitions at most {max_devices:,} devices, and the "
                          "factory declares no mesh_invariant_axes to export "
                          f"{num_devices:,} from fewer (hespas_py/export/widen.py)")
    defaults = inspect.signature(factory).parameters
    full = {a: int(kwargs[a] if a in kwargs else defaults[a].default) for a in axes}
    small = {a: min(n, SMALL_AXIS) for a, n in full.items()}
    rest, left = divmod(num_devices, math.prod(full.values()))
    devices = rest * math.prod(small.values())
    if left or devices > max_devices:
        sizes = ", ".join(f"{a}={n}" for a, n in full.items())
        raise HespasError(f"{spec}: {num_devices:,} devices with {sizes} do not shrink to at most "
                          f"{max_devices:,} along {', '.join(axes)}")
    return full, small, devices
