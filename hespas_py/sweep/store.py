"""The sweep's on-disk store, by content key: trace sets and simulated points.

``<root>/traces/<key>/`` holds a trace set (``trace.<i>.et`` per distinct file, ``devices.json``
mapping devices to files, ``comm_group.json``, ``memory.json`` when generation gave memory figures); ``<root>/points/<key[:2]>/<key>.json`` a point's
figures. Every entry is written under a temporary name and renamed into place, so a reader (a
rerun, a concurrent sweep, a sweep resumed after an interrupt) sees an entry whole or not at all.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from pathlib import Path

from hespas_py.sweep.tasks import Figures, TraceFiles

_DEVICES = "devices.json"
_GROUPS = "comm_group.json"
_MEMORY = "memory.json"


class Store:
    """Trace sets and point figures under ``root`` (created on first write)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _trace_dir(self, key: str) -> Path:
        return self.root / "traces" / key

    def _point_file(self, key: str) -> Path:
        return self.root / "points" / key[:2] / f"{key}.json"

    def has_traces(self, key: str) -> bool:
        """Whether the trace set of ``key`` is stored."""
        return (self._trace_dir(key) / _DEVICES).is_file()

    def traces(self, key: str) -> TraceFiles:
        """The stored trace set of ``key``."""
        folder = self._trace_dir(key)
        device_files = tuple(json.loads((folder / _DEVICES).read_text()))
        files = tuple((folder / f"trace.{i}.et").read_bytes()
                      for i in range(max(device_files) + 1))
        return TraceFiles(key, files, device_files, (folder / _GROUPS).read_text(),
                          self.memory(key))

    def memory(self, key: str) -> dict | None:
        """The memory figures stored with the trace set of ``key``, or None."""
        try:
            return json.loads((self._trace_dir(key) / _MEMORY).read_text())
        except FileNotFoundError:
            return None

    def put_traces(self, traces: TraceFiles) -> None:
        """Store a trace set (a set already stored under its key is kept)."""
        target = self._trace_dir(traces.key)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{traces.key}.", dir=target.parent))
        try:
            for i, data in enumerate(traces.files):
                (staging / f"trace.{i}.et").write_bytes(data)
            (staging / _GROUPS).write_text(traces.comm_groups)
            if traces.memory is not None:
                (staging / _MEMORY).write_text(json.dumps(traces.memory))
            (staging / _DEVICES).write_text(json.dumps(traces.device_files))
            os.rename(staging, target)
        except OSError:
            if not self.has_traces(traces.key):
                raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def point(self, key: str) -> Figures | None:
        """The stored figures of point ``key``, or None."""
        try:
            return Figures(**json.loads(self._point_file(key).read_text()))
        except FileNotFoundError:
            return None

    def put_point(self, key: str, figures: Figures) -> None:
        """Store a point's figures."""
        write_atomically(self._point_file(key), json.dumps(dataclasses.asdict(figures)))


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file beside it and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.",
                                     delete=False) as stream:
        stream.write(text)
    os.replace(stream.name, path)
