"""Which devices a collective involves, by StableHLO's process-group semantics, and how many
devices a module runs on.

Why and how: docs/traces.md.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.mlir.meshes import MAX_DEVICES
from hespas_py.mlir.ops import Module, Op

log = logging.getLogger(__name__)

_REPLICA_FIRST = frozenset({"all_reduce", "all_gather", "reduce_scatter"})
_PERMUTE = "collective_permute"


def _has_channel(op: Op) -> bool:
    return int(op.attrs.get("channel_handle") or 0) > 0


def _channel_groups(op: Op) -> bool:
    """Whether ``op`` is a group collective whose channel makes its ``replica_groups`` span every
    partition (a channel, no ``use_global_device_ids``)."""
    return (op.short_name in _REPLICA_FIRST and _has_channel(op)
            and not op.attrs.get("use_global_device_ids"))


def id_space(op: Op, channel_ids_are_devices: bool = False) -> str:
    """What the ids of a collective's ``replica_groups`` or ``source_target_pairs`` number:
    ``replica``, ``partition`` or ``device`` (module docstring); ``channel_ids_are_devices``:
    the ``replica_groups`` of a channel are device ids (`DeviceLayout.channel_ids_are_devices`)."""
    if op.short_name in _REPLICA_FIRST:
        if _has_channel(op) and (channel_ids_are_devices or op.attrs.get("use_global_device_ids")):
            return "device"
        return "replica"
    return "partition" if _has_channel(op) else "replica"


def grouping(op: Op) -> tuple:
    """What `DeviceLayout.groups` and `DeviceLayout.pairs` of ``op`` depend on: collectives with
    equal groupings have equal groups (or pairs) in any layout."""
    return (op.short_name, id_space(op), _has_channel(op), op.attrs.get("replica_groups"),
            op.attrs.get("source_target_pairs"))


def _listed(op: Op) -> tuple[tuple[int, ...], ...]:
    """The op's non-empty groups, or its (source, target) pairs for a ``collective_permute``."""
    key = "source_target_pairs" if op.short_name == _PERMUTE else "replica_groups"
    return tuple(tuple(g) for g in op.attrs.get(key, ()) if len(g))


@dataclass(frozen=True)
class _Need:
    """The largest id the collectives name in one id space.

    Attributes:
        count: that id + 1 (the fewest replicas, partitions or devices it takes).
        op: an op that names it.
    """

    count: int
    op: Op

    def evidence(self, space: str) -> str:
        what = "source_target_pairs" if self.op.short_name == _PERMUTE else "replica_groups"
        return f"the {what} of {self.op.name} ({space} {self.count - 1})"


def _distinct(collectives: Iterable[Op]) -> list[Op]:
    """The collectives, each distinct op (name and attributes) once."""
    seen: set[tuple[str, int]] = set()
    distinct = []
    for op in collectives:
        key = (op.name, id(op.attrs))
        if key not in seen:
            seen.add(key)
            distinct.append(op)
    return distinct


def _needs(collectives: Iterable[Op], channel_ids_are_devices: bool = False) -> dict[str, _Need]:
    """Per id space, the largest id the (distinct) collectives name."""
    needs: dict[str, _Need] = {}
    for op in collectives:
        top = max((i for ids in _listed(op) for i in ids), default=-1)
        space = id_space(op, channel_ids_are_devices)
        if top >= 0 and (space not in needs or top + 1 > needs[space].count):
            needs[space] = _Need(top + 1, op)
    return needs


def _at_least_one(path: str, name: str, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise HespasError(f"{path}: {name} = {value}: a device count must be at least 1")
    return value


@dataclass(frozen=True)
class DeviceLayout:
    """How devices are numbered.

    Attributes:
        num_replicas: replicas (``mhlo.num_replicas``, inferred, or the ``--num_npus`` override).
        num_partitions: partitions per replica (``mhlo.num_partitions``, or inferred).
        source: the module, for messages.
        widened: the module runs on one device and was given ``num_replicas`` by
            ``--num_npus``: every group collective spans every device.
        inferred: what the counts the module does not state were inferred from (e.g. "the
            replica_groups of stablehlo.all_reduce (device 7)"); empty when it states both (or
            the layout was built directly).
        channel_ids_are_devices: the ``replica_groups`` of a collective with a channel are
            device ids, as if it had ``use_global_device_ids`` (`for_module`: a module of
            another frontend).
    """

    num_replicas: int
    num_partitions: int
    source: str = ""
    widened: bool = False
    inferred: str = ""
    channel_ids_are_devices: bool = False

    @property
    def num_devices(self) -> int:
        """replicas x partitions."""
        return self.num_replicas * self.num_partitions

    @classmethod
    def for_module(cls, module: Module, num_npus: int | None = None,
                   collectives: Iterable[Op] = ()) -> DeviceLayout:
        """The layout of ``module``, whose group collectives and permutes are ``collectives``
        (module docstring); ``num_npus`` widens a module that runs on one device.

        `HespasError` for a count below 1, a stated count too small for an id the collectives
        name, ``num_npus`` that does not match a module of several devices, and a layout of more
        than `MAX_DEVICES` devices.
        """
        path = module.path
        stated_replicas = _at_least_one(path, "mhlo.num_replicas", module.num_replicas)
        stated_partitions = _at_least_one(path, "mhlo.num_partitions", module.num_partitions)
        mesh_size = math.prod(module.mesh.values())  # at most MAX_DEVICES (the reader checks)
        collectives = _distinct(collectives)
        as_devices = (stated_replicas is None and stated_partitions is None
                      and _channel_ids_fit(path, collectives, mesh_size))
        needs = _needs(collectives, as_devices)
        layout = cls._inferred(path, stated_replicas, stated_partitions, needs, mesh_size)
        if as_devices:
            layout = dataclasses.replace(layout, channel_ids_are_devices=True)
        layout._check_needs(needs, stated_replicas, stated_partitions)
        if num_npus is not None and num_npus != layout.num_devices:
            if num_npus < 1:
                raise HespasError(f"--num_npus must be at least 1, not {num_npus}")
            if layout.num_devices != 1:
                raise HespasError(
                    f"{path}: the module runs on {layout.num_devices} devices "
                    f"({layout.num_replicas} replicas x {layout.num_partitions} partitions"
                    f"{', inferred from ' + layout.inferred if layout.inferred else ''}); "
                    f"--num_npus {num_npus} does not match")
            layout = cls(num_npus, 1, path, widened=True)
        if layout.num_devices > MAX_DEVICES:
            raise HespasError(f"{path}: the module runs on {layout.num_devices:,} devices; the "
                              f"trace writer supports at most {MAX_DEVICES:,}")
        if layout.inferred:
            (log.warning if layout.num_devices > 1 else log.info)(
                "%s: %d devices (%d replicas x %d partitions) inferred from %s", path,
                layout.num_devices, layout.num_replicas, layout.num_partitions, layout.inferred)
        return layout

    @classmethod
    def _inferred(cls, path: str, replicas: int | None, partitions: int | None,
                  needs: dict[str, _Need], mesh_size: int) -> DeviceLayout:
        """The stated counts, and for those not stated the smallest ones consistent with
        ``needs`` and the mesh size (1 for none)."""
        if replicas is not None and partitions is not None:
            return cls(replicas, partitions, path)
        evidence: list[str] = []

        def at_least(count: int, space: str, per: int = 1) -> int:
            """``count``, raised to take the ids ``needs`` has in ``space`` (``per`` ids each)."""
            need = needs.get(space)
            if need is None:
                return count
            evidence.append(need.evidence(space))
            return max(count, -(-need.count // per))

        if replicas is None:
            replicas = at_least(1, "replica")
            if partitions is not None:
                replicas = at_least(replicas, "device", partitions)
        if partitions is None:
            partitions = at_least(at_least(1, "partition"), "device", replicas)
            if mesh_size > 1:
                partitions = max(partitions, mesh_size)
                evidence.append(f"the sdy.mesh ({mesh_size} devices)")
        basis = ", ".join(evidence) if evidence else "no collective naming a second device"
        return cls(replicas, partitions, path, inferred=basis)

    def _check_needs(self, needs: dict[str, _Need], stated_replicas: int | None,
                     stated_partitions: int | None) -> None:
        """`HespasError` when a stated count is too small for an id the collectives name."""
        bounds = {"replica": self.num_replicas, "partition": self.num_partitions,
                  "device": self.num_devices}
        for space, need in needs.items():
            if need.count > bounds[space]:
                self._out_of_range(need.op, space, need.count - 1,
                                   _statement(space, stated_replicas, stated_partitions))

    def _out_of_range(self, op: Op, space: str, i: int, statement: str) -> None:
        raise HespasError(f"{self.source or '<module>'}: {op.name} names {space} {i} but the "
                          f"module has {statement}")

    def as_json(self) -> dict[str, Any]:
        """The layout for ``module_stats.json``: counts, where they came from, and whether channel
        groups were read as device ids."""
        origin = "--num_npus" if self.widened else "inferred" if self.inferred else "stated"
        return {"num_devices": self.num_devices, "num_replicas": self.num_replicas,
                "num_partitions": self.num_partitions, "origin": origin,
                **({"inferred_from": self.inferred} if self.inferred else {}),
                **({"channel_groups_as_device_ids": True} if self.channel_ids_are_devices
                   else {})}

    def space(self, op: Op) -> str:
        """What the ids of ``op``'s groups or pairs number in this layout (`id_space`)."""
        return id_space(op, self.channel_ids_are_devices)

    def device(self, replica: int, partition: int) -> int:
        """Global id of (replica, partition)."""
        return replica * self.num_partitions + partition

    def _check(self, op: Op, ids: tuple[int, ...], bound: int, space: str) -> None:
        for i in ids:
            if not 0 <= i < bound:
                self._out_of_range(op, space, i, f"{bound} {space}s")

    def groups(self, op: Op) -> tuple[tuple[int, ...], ...]:
        """The device groups of a group collective (every device in at most one group)."""
        if self.widened:
            return (tuple(range(self.num_devices)),)
        listed = _listed(op)
        space = self.space(op)
        if space == "device":
            groups = listed or (tuple(range(self.num_devices)),)
            for g in groups:
                self._check(op, g, self.num_devices, space)
            return groups
        by_partition = space == "partition"
        inner = self.num_partitions if by_partition else self.num_replicas
        listed = listed or (tuple(range(inner)),)
        for g in listed:
            self._check(op, g, inner, space)
        if op.short_name in _REPLICA_FIRST and _has_channel(op):
            return tuple(tuple(self.device(r, p) for r in g for p in range(self.num_partitions))
                         for g in listed)
        if by_partition:
            return tuple(tuple(self.device(r, p) for p in g)
                         for r in range(self.num_replicas) for g in listed)
        return tuple(tuple(self.device(r, p) for r in g)
                     for p in range(self.num_partitions) for g in listed)

    def pairs(self, op: Op) -> tuple[tuple[int, int], ...]:
        """(source, target) device pairs of a ``collective_permute``."""
        if self.widened:
            return ()
        listed = _listed(op)
        if self.space(op) == "partition":
            for pair in listed:
                self._check(op, pair, self.num_partitions, "partition")
            return tuple((self.device(r, s), self.device(r, t))
                         for r in range(self.num_replicas) for s, t in listed)
        for pair in listed:
            self._check(op, pair, self.num_replicas, "replica")
        return tuple((self.device(s, p), self.device(t, p))
                     for p in range(self.num_partitions) for s, t in listed)


def _channel_ids_fit(path: str, collectives: list[Op], mesh_size: int) -> bool:
    """Whether a module stating no device counts reads the ``replica_groups`` of its channel
    collectives as device ids: it has an ``sdy.mesh`` of several devices and every such group
    fits inside it. torch-xla and tt-xla write device ids there and drop
    ``use_global_device_ids`` on the way to StableHLO; read by the letter (replicas, times every
    partition of the mesh) they would multiply the device count. Warned about when so."""
    channel = [op for op in collectives if _channel_groups(op) and _listed(op)]
    if mesh_size <= 1 or not channel:
        return False
    top = max(i for op in channel for ids in _listed(op) for i in ids)
    if top >= mesh_size:
        return False
    log.warning("%s: the module states no replica or partition count; the replica_groups of its "
                "collectives with a channel (ids up to %d) fit in its sdy.mesh of %d devices and "
                "are read as device ids (as torch-xla writes them, use_global_device_ids dropped)",
                path, top, mesh_size)
    return True


def _statement(space: str, replicas: int | None, partitions: int | None) -> str:
    """What the module states about the count of ``space`` (for messages)."""
    if space == "replica":
        return f"mhlo.num_replicas = {replicas}"
    if space == "partition":
        return f"mhlo.num_partitions = {partitions}"
    return (f"{(replicas or 1) * (partitions or 1)} devices (mhlo.num_replicas = {replicas} x "
            f"mhlo.num_partitions = {partitions})")
