"""Which devices a collective involves, by StableHLO's process-group semantics.

Devices are numbered ``replica * num_partitions + partition``. Per op (``channel_handle`` > 0
means "has a channel"):

- ``all_reduce``, ``all_gather``, ``reduce_scatter``: no channel -> ``replica_groups`` index
  replicas, one copy of each group per partition; channel without ``use_global_device_ids`` ->
  each group of replicas spans every partition; channel with it -> the groups are device ids.
- ``all_to_all``, ``collective_permute``, ``collective_broadcast``: channel -> the ids index
  partitions (one copy per replica); no channel -> they index replicas (one copy per partition).

Empty ``replica_groups`` means one group of every replica (or partition). A group of one device
does no communication.

A module that declares a single device (e.g. a pmap step exported on one device, whose groups
are ``[[0]]``: "every replica") can be run on N devices with ``--num_npus N``
(`DeviceLayout.for_module`): its groups can only have meant "every device", so each group
collective then spans all N devices, and a ``collective_permute`` (which can only have paired
device 0 with itself) moves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Module, Op

_REPLICA_FIRST = frozenset({"all_reduce", "all_gather", "reduce_scatter"})


@dataclass(frozen=True)
class DeviceLayout:
    """How devices are numbered.

    Attributes:
        num_replicas: replicas (``mhlo.num_replicas``, or the ``--num_npus`` override).
        num_partitions: partitions per replica (``mhlo.num_partitions``).
        source: the module file, for messages.
        widened: the module declared one device and was given ``num_replicas`` by
            ``--num_npus``: every group collective spans every device.
    """

    num_replicas: int
    num_partitions: int
    source: str = ""
    widened: bool = False

    @property
    def num_devices(self) -> int:
        """replicas x partitions."""
        return self.num_replicas * self.num_partitions

    @classmethod
    def for_module(cls, module: Module, num_npus: int | None = None) -> "DeviceLayout":
        """The module's layout; ``num_npus`` widens a single-device module (module docstring).

        A module that declares several devices must be given that same count (or none).
        """
        if num_npus is None or num_npus == module.num_devices:
            return cls(module.num_replicas, module.num_partitions, module.path)
        if num_npus < 1:
            raise HespasError(f"--num_npus must be at least 1, not {num_npus}")
        if module.num_devices != 1:
            raise HespasError(
                f"{module.path}: the module runs on {module.num_devices} devices "
                f"({module.num_replicas} replicas x {module.num_partitions} partitions); "
                f"--num_npus {num_npus} does not match")
        return cls(num_npus, 1, module.path, widened=True)

    def device(self, replica: int, partition: int) -> int:
        """Global id of (replica, partition)."""
        return replica * self.num_partitions + partition

    def _check(self, op: Op, ids: tuple[int, ...], bound: int, what: str) -> None:
        for i in ids:
            if not 0 <= i < bound:
                raise HespasError(
                    f"{self.source or '<module>'}: {op.name} names {what} {i} but the module has "
                    f"{bound} (give the device count with --num_npus)")

    def _has_channel(self, op: Op) -> bool:
        return int(op.attrs.get("channel_handle") or 0) > 0

    def groups(self, op: Op) -> tuple[tuple[int, ...], ...]:
        """The device groups of a group collective (every device in at most one group)."""
        if self.widened:
            return (tuple(range(self.num_devices)),)
        listed = tuple(tuple(g) for g in op.attrs.get("replica_groups", ()) if len(g))
        channel = self._has_channel(op)
        if op.short_name in _REPLICA_FIRST and channel and op.attrs.get("use_global_device_ids"):
            groups = listed or (tuple(range(self.num_devices)),)
            for g in groups:
                self._check(op, g, self.num_devices, "device")
            return groups
        by_partition = channel and op.short_name not in _REPLICA_FIRST
        inner, outer = ((self.num_partitions, self.num_replicas) if by_partition
                        else (self.num_replicas, self.num_partitions))
        listed = listed or (tuple(range(inner)),)
        for g in listed:
            self._check(op, g, inner, "partition" if by_partition else "replica")
        if op.short_name in _REPLICA_FIRST and channel:
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
        listed = tuple(tuple(p) for p in op.attrs.get("source_target_pairs", ()))
        if self._has_channel(op):
            for pair in listed:
                self._check(op, pair, self.num_partitions, "partition")
            return tuple((self.device(r, s), self.device(r, t))
                         for r in range(self.num_replicas) for s, t in listed)
        for pair in listed:
            self._check(op, pair, self.num_replicas, "replica")
        return tuple((self.device(s, p), self.device(t, p))
                     for p in range(self.num_partitions) for s, t in listed)
