"""Collectives between the local devices: bus bandwidth and latency per collective -> the
node's system preset (ASTRA-sim ``network.yml``: one switch dimension of the local devices).

Why and how: docs/calibration.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.launch import fit_line
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware

KINDS = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all")
_MiB = 1 << 20


def sizes(budget: Budget) -> tuple[int, ...]:
    return budget.pick((4096, 65536), (_MiB, 32 * _MiB, 1024 * _MiB),
                       tuple(_MiB << (2 * i) for i in range(6)))


def bus_factor(kind: str, devices: int) -> float:
    """Bytes a device's link carries per byte of S (nccl-tests' busbw factor)."""
    share = (devices - 1) / devices
    return 2 * share if kind == "all_reduce" else share


def count(budget: Budget, reference: Hardware) -> int:
    import jax

    return len(KINDS) * len(sizes(budget)) if jax.local_device_count() > 1 else 0


def program(kind: str, nbytes: int) -> tuple[Callable, tuple[Any, ...]]:
    """(function, arguments) of one collective of S = ``nbytes`` per device."""
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    from hespas_py.calibrate.timing import random_array

    n = jax.local_device_count()
    mesh = jax.make_mesh((n,), ("d",))
    per_device = nbytes // 4 // (n if kind == "all_gather" else 1)
    per_device -= per_device % n  # the reduce-scatter and all-to-all split it n ways
    body = {"all_reduce": lambda v: jax.lax.psum(v, "d"),
            "all_gather": lambda v: jax.lax.all_gather(v, "d", tiled=True),
            "reduce_scatter": lambda v: jax.lax.psum_scatter(v, "d", tiled=True),
            "all_to_all": lambda v: jax.lax.all_to_all(v, "d", 0, 0, tiled=True)}[kind]
    spec = PartitionSpec("d")
    x = jax.device_put(random_array((n * per_device,), "float32"), NamedSharding(mesh, spec))
    return jax.shard_map(body, mesh=mesh, in_specs=spec, out_specs=spec), (x,)


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    import jax

    from hespas_py.calibrate.timing import steady_seconds

    devices = jax.local_device_count()
    found = []
    for kind in KINDS:
        for nbytes in sizes(budget):
            tick(f"{kind} {nbytes / _MiB:g} MiB x {devices}")
            timing = steady_seconds(*program(kind, nbytes), budget)
            found.append({"kind": kind, "bytes": nbytes, "timing": timing.as_json()})
    return {"devices": devices, "cases": found}


def fit(raw: dict[str, Any], kind: str) -> dict[str, float] | None:
    """Bus bandwidth (bytes/s) and latency (s) of one collective kind; None if not measured."""
    cases = [c for c in raw.get("cases", ()) if c["kind"] == kind]
    if len(cases) < 2:
        return None
    factor = bus_factor(kind, raw["devices"])
    latency, per_byte = fit_line([c["bytes"] * factor for c in cases],
                                 [c["timing"]["seconds"] for c in cases])
    if per_byte <= 0:  # noise on tiny sizes: the largest size's rate, no latency
        largest = max(cases, key=lambda c: c["bytes"])
        return {"bus_bandwidth": largest["bytes"] * factor / largest["timing"]["seconds"],
                "latency_s": 0.0}
    return {"bus_bandwidth": 1 / per_byte, "latency_s": max(latency, 0.0)}


def network(raw: dict[str, Any]) -> dict[str, Any] | None:
    """The one-dimension network of the local devices from the all-reduce fit, with every
    kind's fit; None without collectives."""
    fits = {kind: fit(raw, kind) for kind in KINDS}
    ring = fits["all_reduce"]
    if ring is None:
        return None
    n = raw["devices"]
    return {"npus": n, "bandwidth_gb_s": ring["bus_bandwidth"] / (1 << 30),
            "latency_ns": ring["latency_s"] * 1e9 / (4 * (n - 1)),
            "fits": {k: v for k, v in fits.items() if v is not None}}
