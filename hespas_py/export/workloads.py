"""The workloads shipped in the ``workloads/`` folder (in the repository and the wheel), found by name.

Small workloads are plain ``.mlir`` files; large ones are shipped gzip-compressed
(``.mlir.gz``) and decompressed on first use into a cache folder
(``$HESPAS_CACHE_DIR/workloads``, default ``~/.cache/hespas_py/workloads``), keyed by the
compressed file's content so a regenerated workload never reads a stale copy.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.resources import shipped

WORKLOADS_DIR = shipped("workloads")
_SUFFIXES = (".mlir", ".mlir.gz")


def workload_names() -> list[str]:
    """Names of the shipped workloads (file names without ``.mlir`` / ``.mlir.gz``), sorted."""
    if not WORKLOADS_DIR.is_dir():
        return []
    return sorted({_strip_suffix(p.name) for p in WORKLOADS_DIR.iterdir() if p.name.endswith(_SUFFIXES)})


def workload_path(name: str) -> Path:
    """A readable ``.mlir`` file of the shipped workload ``name`` (``.mlir`` suffix optional)."""
    name = _strip_suffix(name)
    plain = WORKLOADS_DIR / f"{name}.mlir"
    if plain.is_file():
        return plain
    packed = WORKLOADS_DIR / f"{name}.mlir.gz"
    if not packed.is_file():
        known = ", ".join(workload_names()) or "none"
        raise HespasError(f"{name}: no such shipped workload (known: {known})")
    return _decompressed(packed)


def _strip_suffix(name: str) -> str:
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _cache_dir() -> Path:
    root = os.environ.get("HESPAS_CACHE_DIR")
    base = Path(root) if root else Path.home() / ".cache" / "hespas_py"
    return base / "workloads"


def _decompressed(packed: Path) -> Path:
    """The cached decompression of ``packed``, written atomically on first use."""
    data = packed.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:16]
    target = _cache_dir() / f"{_strip_suffix(packed.name)}-{digest}.mlir"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".part") as part:
        part.write(gzip.decompress(data))
    os.replace(part.name, target)
    return target
