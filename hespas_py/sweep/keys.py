"""Content keys of the sweep store: equal keys mean the same work with the same code.

A trace key covers the workload file's bytes, the estimator, the node's hardware numbers and the
split settings; a point key covers its trace key and the key of the whole (varied) machine. Both include the
package version and a digest of the package's own source files, so a changed estimator or
simulator never reuses stale results.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.pipeline import GenConfig
from hespas_py.sim.machine import NetworkConfig, SystemConfig


def digest(*parts: Any) -> str:
    """Hex digest of JSON-encodable ``parts`` (dataclasses are encoded field by field)."""
    blob = json.dumps(parts, sort_keys=True, default=_encode).encode()
    return hashlib.blake2b(blob, digest_size=20).hexdigest()


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot encode {type(value).__name__} in a key")


@functools.cache
def code_version() -> str:
    """The package version and a digest of every ``.py`` file of the package."""
    package = Path(str(resources.files("hespas_py")))
    sources = hashlib.blake2b(digest_size=20)
    for path in sorted(package.rglob("*.py")):
        sources.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{metadata.version('hespas_py')}+{sources.hexdigest()}"


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes (`HespasError` when it cannot be read)."""
    try:
        with path.open("rb") as stream:
            return hashlib.file_digest(stream, "sha256").hexdigest()
    except OSError as exc:
        raise HespasError(f"{path}: cannot read ({exc.strerror or exc})") from None


def trace_key(config: GenConfig, workload: str) -> str:
    """The key of the traces ``config`` generates from a workload of `file_digest` ``workload``."""
    return digest("traces", code_version(), workload, config.estimator,
                  config.hardware.fingerprint(), config.split_strategy, config.split_options(),
                  config.num_npus)


def machine_key(system: SystemConfig, network: NetworkConfig) -> str:
    """The key of a machine (its system layer and network)."""
    return digest("machine", system, network)


def point_key(traces: str, machine: str) -> str:
    """The key of simulating the traces of key ``traces`` on the machine of key ``machine``."""
    return digest("point", traces, machine)
