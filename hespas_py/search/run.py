"""Running a search: export the layouts still missing, then hand the exported steps to the sweep
engine as its workloads, and turn its rows into ranked layout rows.

Exports are kept by content in ``STORE/exports/<key>.mlir``: the key covers the factory's folder
(every ``.py`` file beside the factory, which it may import), the factory name, the device count,
the keyword arguments, and hespas_py's and jaxlib's versions. The layouts to export are dealt out
to the backend's workers in batches, one `hespas_py.export.batch` process (one JAX import) per
batch. Traces and simulations are the sweep's own tasks and store entries, so every row equals
``hespas export FACTORY --devices N --set KEY=VALUE ...`` followed by ``hespas gen NODE
--mlir_file OUT --system-config SYSTEM``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jaxlib

from hespas_py.estimators.base import DEFAULT_ESTIMATOR
from hespas_py.export.batch import ExportJob, export_many
from hespas_py.export.step import parse_spec
from hespas_py.search.layouts import layouts as enumerate_layouts
from hespas_py.sweep.backends import Backend
from hespas_py.sweep.keys import code_version, digest
from hespas_py.sweep.plan import LABELS, make_plan
from hespas_py.sweep.runner import ProgressHook, run_sweep
from hespas_py.sweep.spec import spec_from_doc
from hespas_py.sweep.store import Store, write_atomically

EXPORTS = "exports"


@dataclass(frozen=True)
class SearchSpec:
    """What to search.

    Attributes:
        factory: ``FILE.py:FACTORY``; the factory takes every axis and ``--set`` key as a keyword
            argument.
        devices: the device count every layout runs on.
        axes: the factory's axes, each a keyword argument given a device count.
        settings: per ``--set`` key, its values.
        nodes: node presets or config files.
        systems: system presets or ASTRA-sim folders.
        estimators: estimator names.
        split: the sweep spec's ``split`` value (a strategy name or mapping).
        variants: system variants, the sweep spec's ``variants`` mapping
            (`hespas_py.sweep.variants`).
    """

    factory: str
    devices: int
    axes: tuple[str, ...]
    settings: Mapping[str, Sequence[Any]]
    nodes: tuple[str, ...]
    systems: tuple[str, ...]
    estimators: tuple[str, ...] = (DEFAULT_ESTIMATOR,)
    split: Any = "linear_split"
    variants: Mapping[str, list] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchResult:
    """A finished search.

    Attributes:
        rows: per simulated point, its layout, labels, figures, ``peak_bytes`` and ``fits``,
            ranked (`rank`).
        skipped: per skipped layout or point, its layout, labels and ``reason``.
        layout_keys: the layout columns (axes, then ``--set`` keys).
        variant_keys: the variant columns.
        exports_made: layouts exported by this run.
        exports_reused: layouts found in the store.
    """

    rows: tuple[Mapping[str, Any], ...]
    skipped: tuple[Mapping[str, Any], ...]
    layout_keys: tuple[str, ...]
    variant_keys: tuple[str, ...]
    exports_made: int
    exports_reused: int

    def as_json(self) -> dict[str, list]:
        """``{"rows": [...], "skipped": [...]}`` (results.json, ``--json``)."""
        return {"rows": [dict(r) for r in self.rows], "skipped": [dict(s) for s in self.skipped]}


def rank(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows by step time, those known not to fit in memory (``fits`` False) after all others."""
    return sorted(rows, key=lambda r: (r.get("fits") is False, r["step_time_s"]))


def _factory_digest(factory: str) -> str:
    """Digest of the factory's folder: every ``.py`` file beside it, by name and content."""
    path, attr = parse_spec(factory)
    path = path.resolve()
    folder = hashlib.blake2b(digest_size=20)
    for source in sorted(path.resolve().parent.glob("*.py")):
        folder.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest(path.name, attr, folder.hexdigest())


def export_key(factory_digest: str, devices: int, kwargs: Mapping[str, Any]) -> str:
    """The content key of one layout's export."""
    return digest("export", code_version(), jaxlib.__version__, factory_digest, devices,
                  dict(sorted(kwargs.items())))


def _export_batch(task: tuple[str, tuple]) -> list[tuple[bool, str]]:
    """Backend task: export a batch of layouts in one process; per layout (True, its text) or
    (False, why not)."""
    factory, jobs = task
    return [(isinstance(text, str), str(text)) for text in export_many(factory, jobs)]


class _Exports:
    """The exported files of a search's layouts, made where missing."""

    def __init__(self, spec: SearchSpec, store: Store) -> None:
        self.folder = store.root / EXPORTS
        self.spec = spec
        self.made = self.reused = 0

    def file(self, key: str) -> Path:
        return self.folder / f"{key}.mlir"

    def run(self, layouts: list[dict[str, Any]], backend: Backend,
            progress: ProgressHook | None) -> dict[int, Path | str]:
        """Per layout index, its exported file or why it was skipped."""
        factory_digest = _factory_digest(self.spec.factory)
        keys = [export_key(factory_digest, self.spec.devices, kw) for kw in layouts]
        found: dict[int, Path | str] = {}
        todo = []
        for index, key in enumerate(keys):
            if self.file(key).is_file():
                found[index] = self.file(key)
                self.reused += 1
            else:
                todo.append(index)
        batches = max(1, min(len(todo), backend.workers))
        for b in range(batches):
            members = tuple(todo[b::batches])
            if members:
                jobs = tuple(ExportJob(self.spec.devices, layouts[i]) for i in members)
                backend.submit(_export_batch, (self.spec.factory, jobs), members)
        if progress is not None:
            progress("exports", 0, len(todo))
        while backend.pending:
            members, outcomes = backend.next_done()
            for index, (ok, outcome) in zip(members, outcomes, strict=True):
                self.made += 1
                if ok:
                    write_atomically(self.file(keys[index]), outcome)
                    found[index] = self.file(keys[index])
                else:
                    found[index] = outcome
            if progress is not None:
                progress("exports", self.made, len(todo))
        return found


def _sweep_doc(spec: SearchSpec, workloads: list[str]) -> dict[str, Any]:
    doc: dict[str, Any] = {"workloads": workloads, "nodes": list(spec.nodes),
                           "systems": list(spec.systems), "estimator": list(spec.estimators),
                           "split": spec.split}
    if spec.variants:
        doc["variants"] = dict(spec.variants)
    return doc


def run_search(spec: SearchSpec, store: Store, backend: Backend,
               progress: ProgressHook | None = None,
               layouts: list[dict[str, Any]] | None = None) -> SearchResult:
    """Export, generate and simulate every layout (`hespas_py.search.layouts.layouts` of the
    spec unless ``layouts`` are given) that is not stored yet; the ranked rows."""
    if layouts is None:
        layouts = enumerate_layouts(spec.devices, spec.axes, spec.settings)
    layout_keys = tuple(dict.fromkeys(k for kw in layouts for k in kw))

    factory_file = parse_spec(spec.factory)[0].resolve()
    # Nodes, systems, estimators, split and variants are checked before any export (the factory
    # file stands in for the workloads, which are not read here).
    spec_from_doc(_sweep_doc(spec, [str(factory_file)]), factory_file)
    exports = _Exports(spec, store)
    exported = exports.run(layouts, backend, progress)
    skipped: list[Mapping[str, Any]] = [{**layouts[i], "reason": exported[i]}
                                        for i in sorted(exported) if isinstance(exported[i], str)]
    by_workload = {str(path.resolve()): layouts[i] for i, path in sorted(exported.items())
                   if isinstance(path, Path)}
    rows: list[Mapping[str, Any]] = []
    variant_keys: tuple[str, ...] = tuple(spec.variants)
    if by_workload:
        sweep = spec_from_doc(_sweep_doc(spec, list(by_workload)), factory_file)
        plan = make_plan(sweep)
        variant_keys = plan.variant_keys
        result = run_sweep(plan, store, backend, progress)
        for row in result.rows:
            labels = {k: row[k] for k in LABELS if k != "workload"}
            figures = {k: v for k, v in row.items() if k not in LABELS}
            rows.append({**by_workload[row["workload"]], **labels, **figures})
        skipped += [{**by_workload[s["workload"]],
                     **{k: v for k, v in s.items() if k != "workload"}} for s in result.skipped]
    return SearchResult(tuple(rank(rows)), tuple(skipped), layout_keys, variant_keys,
                        exports.made, exports.reused)
