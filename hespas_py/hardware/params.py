"""Every key of a node config's ``hardware`` section, declared once: the parameter registry.

Each key is a field of `Hardware` (the figures every estimator reads) or of `Params` (everything
else), declared with `param`: its type (the annotation), default, rule (`hespas_py.checks`), unit,
the estimators that read it, one line of help and the key of its public source. `SPECS` lists
them; config validation (`check_hardware`), ``--param`` help, ``hespas presets --describe`` and
the parameter table of ``configs/nodes/README.md`` (`hespas_py.hardware.describe`) are made from
it. Code reads a setting as a typed attribute: ``hardware.params.tensor_efficiency``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hespas_py.checks import FRACTION, NON_NEGATIVE, SHARE, Number, Table
from hespas_py.errors import HespasError
from hespas_py.hardware.rules import (
    FLAG,
    TEXT,
    Choice,
    Rates,
    Rule,
    as_json,
    typed,
    with_value,
)

#: ``estimators`` of a key every estimator accepts (a hardware figure, or a key read elsewhere).
EVERY: tuple[str, ...] = ()
#: The estimators built on the roofline (`hespas_py.estimators.roofline.Roofline`).
ROOFLINES = ("roofline", "fused_roofline", "xla_cost", "xla_profile")
FUSED = ("fused_roofline",)
#: The kernel classes of ``spanning_row_tile_s`` (`hespas_py.kernels.row_tiles`).
ROW_TILE_CLASSES = ("softmax", "row_sum", "given_sum")
#: The gaps of ``launch_gap_s`` (`hespas_py.estimators.launch_gaps`).
LAUNCH_GAPS = ("switch", "between")
#: Element types a tensor-unit rate can be given for (``per_datatype_flops`` keys, MLIR
#: spelling; the keys of ``tensor_efficiency_by_dtype``).
TENSOR_DTYPES = ("f64", "f32", "tf32", "bf16", "f16", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ",
                 "f8E5M2FNUZ", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN", "i8", "i4")
#: A ``source`` naming the node preset's datasheet (its ``datasheet`` text, not a config key).
DATASHEET = "datasheet"

#: FLOP/s and bytes/s: a rate below 1 M/s is no accelerator's, and a kernel's time at it could
#: overflow the trace's duration.
RATE = Number(1e6)


class Spec(NamedTuple):
    """One hardware key (a named tuple: every run creates this registry, and a dataclass costs
    most of a millisecond to create).

    Attributes:
        key: the config key.
        attr: the `Hardware` or `Params` field holding it.
        rule: what its value must be.
        help: what it is, in one line.
        default: its value when absent (None: none).
        shown_default: the default in words, where it is another key's value.
        unit: its unit ("" for flags, shares and names).
        estimators: the estimators that read it and accept it; empty: every estimator.
        reader: what else reads it (the split, the memory analysis, ``hespas gen``), or why it
            is accepted unread.
        source: the key of its public source text in a preset ("" when it needs none;
            `DATASHEET`: the preset's datasheet).
        required: a config must give it.
    """

    key: str
    attr: str
    rule: Rule
    help: str
    default: Any = None
    shown_default: str = ""
    unit: str = ""
    estimators: tuple[str, ...] = EVERY
    reader: str = ""
    source: str = ""
    required: bool = False

    def accepted_by(self, estimator: str) -> bool:
        """Whether a config for ``estimator`` may hold it."""
        return not self.estimators or estimator in self.estimators


def param(rule: Rule, help: str, default: Any = dataclasses.MISSING, *, key: str = "",
          shown_default: str = "", unit: str = "", estimators: tuple[str, ...] = EVERY,
          reader: str = "", source: bool | str = False) -> Any:
    """A dataclass field declaring one hardware key (see `Spec`; ``source=True``: the key
    ``<key>_source``; no default: required)."""
    spec = {"key": key, "rule": rule, "help": help, "shown_default": shown_default,
            "unit": unit, "estimators": estimators, "reader": reader, "source": source}
    metadata = {"param": spec}
    if default is dataclasses.MISSING:
        return field(metadata=metadata)
    if isinstance(default, dict):
        return field(default_factory=dict, metadata=metadata)
    return field(default=default, metadata=metadata)


_GPU_RULE = "XLA GPU rewrite: "
#: ``reader`` of the keys the memory analysis reads (it plans with the GPU rewrites but
#: ``duplication_cone``: `hespas_py.memory.analysis.memory_rules`).
_MEMORY = "memory analysis"


@dataclass(frozen=True, kw_only=True)
class Params:
    """The typed settings of a node config beyond `Hardware`'s figures, defaults filled in."""

    num_npus: int | None = param(
        Number(1, integer=True), "devices to simulate for a module that runs on one",
        None, reader="hespas gen (--num_npus)")
    compiler: str | None = param(
        Choice(("xla_gpu", "xla_tpu")), "the XLA compiler that builds the device's programs; "
        "xla_gpu applies XLA's collective rewrites by default", None, reader="split",
        source=True)
    tdp_W: float | None = param(Number(0), "accepted as in the published tool; unused", None,
                                unit="W", reader="none (published tool's key)")
    hbm_power_ratio: float | None = param(
        Number(0, 1), "accepted as in the published tool; unused", None,
        reader="none (published tool's key)")
    warn_on_unknown_type: bool = param(
        FLAG, "accepted as in the published tool (ops on a dtype without a rate are always "
        "reported)", False, reader="none (published tool's key)")
    error_on_unknown_type: bool = param(
        FLAG, "stop with an error at an op whose element type has no rate", False)
    f32_matmul_as_tf32: bool = param(
        FLAG, "time f32 dots and convolutions at DEFAULT or HIGH precision at the tf32 rate "
        "(XLA's CUDA GEMMs from Ampere on)", False, source=True)
    dispatch_overhead_s: float = param(
        NON_NEGATIVE, "host time to dispatch one call of the step", 0.0, unit="s",
        estimators=ROOFLINES, source="dispatch_source")
    dispatch_per_buffer_s: float = param(
        NON_NEGATIVE, "host time per argument and result buffer of the step's entry function",
        0.0, unit="s", estimators=ROOFLINES, source="dispatch_source")
    warmup: int = param(Number(0, integer=True), "untimed runs of a block before the timed "
                        "ones", 2, estimators=("xla_profile",))
    repeats: int = param(Number(1, integer=True), "timed runs of a block", 10,
                         estimators=("xla_profile",))
    back_to_back: bool = param(
        FLAG, "issue the timed runs without waiting (no per-call dispatch in a block's time)",
        False, estimators=("xla_profile",))
    allow_other_device: bool = param(
        FLAG, "time the blocks on this machine although the preset names another chip "
        "(--allow-other-device)", False, estimators=("xla_profile",))
    launch_overhead_s: float = param(
        NON_NEGATIVE, "fixed time of each kernel", 1e-6, unit="s", estimators=FUSED,
        source=True)
    memory_efficiency: float = param(
        FRACTION, "achievable share of memory_bandwidth", 0.8, estimators=FUSED, source=True)
    tensor_efficiency: float = param(
        FRACTION, "achievable share of the tensor-unit peaks", 1.0, estimators=FUSED,
        source=True)
    vector_efficiency: float = param(
        FRACTION, "achievable share of vector_flops", 1.0, estimators=FUSED, source=True)
    compute_memory_overlap: float = param(
        SHARE, "share of a kernel's shorter time (compute or memory) hidden behind the longer",
        0.95, estimators=FUSED, source=True)
    scatter_efficiency: float | None = param(
        FRACTION, "achievable share of memory_bandwidth of a scatter kernel's atomic updates",
        None, shown_default="memory_efficiency", estimators=FUSED, source=True)
    attention_efficiency: float | None = param(
        FRACTION, "achievable share of the tensor peak of a flash-attention kernel, forward",
        None, shown_default="tensor_efficiency", estimators=FUSED, source=True)
    attention_backward_efficiency: float | None = param(
        FRACTION, "achievable share of the tensor peak of a flash-attention kernel, backward",
        None, shown_default="tensor_efficiency", estimators=FUSED, source=True)
    # Upper bounds: far past any chip (2^20 cores, 2^16-wide tiles and arrays).
    num_cores: int = param(
        Number(0, 1 << 20, integer=True), "cores a GEMM's output tiles are spread over, in "
        "waves (0: no wave quantization)", 0, estimators=FUSED, source=True)
    gemm_tile: int = param(Number(1, 1 << 16, integer=True), "side of a GEMM's output tile",
                           128, unit="elements", estimators=FUSED)
    mxu_size: int = param(
        Number(0, 1 << 16, integer=True), "side of the matrix unit a dot's contracted and "
        "stationary sizes round up to (0: off)", 0, unit="elements", estimators=FUSED,
        source=True)
    conv_channel_padding: bool = param(
        FLAG, "time f16 convolutions with the channels XLA pads them to for tensor cores",
        False, estimators=FUSED, source=True)
    conv_channel_efficiency: Mapping[int, float] = param(
        Table(FRACTION), "measured share of tensor_efficiency by a convolution's smaller "
        "channel count", {}, estimators=FUSED, source=True)
    tensor_efficiency_by_dtype: Mapping[str, float] = param(
        Table(FRACTION, keys=TENSOR_DTYPES), "measured tensor_efficiency per element type of "
        "the rate (a type it lacks: tensor_efficiency)", {}, estimators=FUSED, source=True)
    spanning_row_tile_s: Mapping[str, float] = param(
        Table(NON_NEGATIVE, keys=ROW_TILE_CLASSES), "time per wave of a Triton row kernel's "
        "tiles that span several broadcast rows, by kernel class", {}, unit="s",
        estimators=FUSED, source=True)
    loop_element_rate: float = param(
        NON_NEGATIVE, "elements per second a loop kernel processes at most: its time is at "
        "least its elements over this (0: no floor)", 0.0, unit="elements/s",
        estimators=FUSED, source=True)
    launch_gap_s: Mapping[str, float] = param(
        Table(NON_NEGATIVE, keys=LAUNCH_GAPS), "the GPU's idle time at each switch between a "
        "command buffer and a kernel launched alone, and between two such kernels", {},
        unit="s", estimators=FUSED, source=True)
    fused_attention: bool = param(
        FLAG, "attention runs as flash kernels whose scores never reach memory", False,
        estimators=FUSED, reader=_MEMORY)
    vector_op_cycles: str | None = param(
        TEXT, "XLA op profile (sm_90) weighting elementwise work by each op's measured cycles "
        "(absent: one FLOP per element)", None, estimators=FUSED, source=True)
    triton_normalization: bool = param(
        FLAG, _GPU_RULE + "row normalizations as one Triton kernel (SoftmaxRewriterTriton)",
        False, estimators=FUSED, source=True, reader=_MEMORY)
    select_and_scatter_expansion: bool = param(
        FLAG, _GPU_RULE + "select_and_scatter as fill, reduce_window and scatter kernels",
        False, estimators=FUSED, source=True, reader=_MEMORY)
    cublas_gemm_operands: bool = param(
        FLAG, _GPU_RULE + "a convert feeding a dot runs outside the cuBLAS GEMM", False,
        estimators=FUSED, source=True, reader=_MEMORY)
    tree_reduction: bool = param(
        FLAG, _GPU_RULE + "a reduction too large for one race-free kernel runs as partial "
        "reductions (TreeReductionRewriter)", False, estimators=FUSED, source=True, reader=_MEMORY)
    conv_input_pads: bool = param(
        FLAG, _GPU_RULE + "a forward convolution cuDNN cannot pad reads a padded copy of its "
        "input", False, estimators=FUSED, source=True, reader=_MEMORY)
    cublas_operand_layouts: bool = param(
        FLAG, _GPU_RULE + "a dot operand in a layout cuBLAS cannot read gets a transpose "
        "kernel", False, estimators=FUSED, source=True, reader=_MEMORY)
    duplication_cone: bool = param(
        FLAG, _GPU_RULE + "priority fusion weighs duplicating a producer with its operand cone",
        False, estimators=FUSED, source=True)
    cheap_gpu_math: bool = param(
        FLAG, _GPU_RULE + "f32/f16 exp, sqrt, rsqrt and divide may be recomputed in several "
        "kernels (priority fusion does not count them expensive)", False, estimators=FUSED,
        source=True, reader=_MEMORY)

    def updated(self, values: Mapping[str, Any]) -> Params:
        """A copy with ``values`` (checked config values, by key) set."""
        specs = params_specs()
        return dataclasses.replace(self, **{specs[k].attr: typed(specs[k].rule, v)
                                            for k, v in values.items()})

    def as_json(self) -> dict[str, Any]:
        """Every setting by its config key, in declaration order."""
        return {s.key: as_json(getattr(self, s.attr)) for s in params_specs().values()}


@dataclass(frozen=True, kw_only=True)
class Hardware:
    """One accelerator, as the estimators see it.

    Attributes:
        name: preset or file name, for reports.
        params: every other setting (`Params`).
    """

    name: str
    peak_flops: float = param(
        RATE, "rate of work whose element type per_datatype_flops lacks (reported), and of "
        "vector work without vector_flops", unit="FLOP/s", source=DATASHEET)
    per_dtype_flops: Mapping[str, float] = param(
        Rates(RATE), "dense tensor-unit peak per element type (bf16, f8E4M3FN, ...)", {},
        key="per_datatype_flops", unit="FLOP/s", source=DATASHEET)
    memory_bandwidth: float = param(RATE, "device-memory (HBM) bandwidth", unit="bytes/s",
                                    source=DATASHEET)
    vector_flops: float = param(
        RATE, "peak of the general-purpose (non-tensor) units: elementwise and reduction work",
        0.0, shown_default="peak_flops", unit="FLOP/s", source=DATASHEET)
    hbm_bytes: int = param(
        Number(1, integer=True), "device-memory capacity a step's peak is checked against", 0,
        shown_default="unknown", unit="bytes", reader=_MEMORY, source=True)
    hbm_usable_fraction: float = param(
        FRACTION, "share of hbm_bytes a program may use (what the runtime leaves)", 1.0,
        reader=_MEMORY)
    params: Params = field(default_factory=Params)

    @property
    def capacity_bytes(self) -> int | None:
        """Bytes a program may occupy (``hbm_bytes`` x ``hbm_usable_fraction``); None when the
        capacity is unknown."""
        return int(self.hbm_bytes * self.hbm_usable_fraction) if self.hbm_bytes else None

    def with_params(self, values: Mapping[str, Any]) -> Hardware:
        """A copy with the checked config ``values`` (by key) set in `params`."""
        return dataclasses.replace(self, params=self.params.updated(values))

    def fingerprint(self) -> str:
        """Stable digest of every number and setting here but the capacity (part of cache
        keys: no estimate depends on the capacity)."""
        import hashlib  # loads OpenSSL; only cached runs need it

        blob = json.dumps([self.peak_flops, dict(self.per_dtype_flops), self.memory_bandwidth,
                           self.vector_flops, self.params.as_json()], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _specs(cls: type) -> dict[str, Spec]:
    specs = {}
    for f in dataclasses.fields(cls):
        if "param" not in f.metadata:
            continue
        meta = dict(f.metadata["param"])
        key = meta.pop("key") or f.name
        source = meta.pop("source")
        factory = f.default_factory
        default = (f.default if f.default is not dataclasses.MISSING
                   else factory() if callable(factory) else None)
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        specs[key] = Spec(key=key, attr=f.name, default=default, required=required,
                          source=f"{key}_source" if source is True else source or "", **meta)
    return specs


_HARDWARE_SPECS = _specs(Hardware)
_PARAMS_SPECS = _specs(Params)
#: Every hardware key, `Hardware`'s figures first, each once.
SPECS: Mapping[str, Spec] = {**_HARDWARE_SPECS, **_PARAMS_SPECS}


def params_specs() -> Mapping[str, Spec]:
    """The keys held by `Params`."""
    return _PARAMS_SPECS


def source_keys() -> dict[str, tuple[Spec, ...]]:
    """Each source key (``tensor_efficiency_source``, ``dispatch_source``) and what it sources."""
    keys: dict[str, tuple[Spec, ...]] = {}
    for spec in SPECS.values():
        if spec.source and spec.source != DATASHEET:
            keys[spec.source] = (*keys.get(spec.source, ()), spec)
    return keys


def accepted(estimator: str) -> dict[str, Spec | None]:
    """Every key a ``hardware`` section for ``estimator`` may hold: its `Spec`, or None
    for a source key (text)."""
    keys: dict[str, Spec | None] = {k: s for k, s in SPECS.items() if s.accepted_by(estimator)}
    for key, specs in source_keys().items():
        if any(s.accepted_by(estimator) for s in specs):
            keys[key] = None
    return keys


def check_hardware(section: Mapping[str, Any], estimator: str, source: str, path: str,
                   required: bool = True) -> None:
    """Check a ``hardware`` section for ``estimator`` ("": keys every estimator accepts):
    an unknown key, a value its rule refuses or (with ``required``) a missing required key is a
    `HespasError` naming ``source`` and ``path`` + key."""
    rules = accepted(estimator)
    for key, value in section.items():
        if key not in rules:
            known = ", ".join(sorted(rules))
            raise HespasError(f"{source}: unknown key {path}{key} (known: {known})")
        spec = rules[key]
        problem = (spec.rule if spec is not None else TEXT).problem(value)
        if problem:
            raise HespasError(f"{source}: {path}{key} {with_value(problem, value)}")
    for key, spec in rules.items():
        if required and spec is not None and spec.required and key not in section:
            raise HespasError(f"{source}: missing required key {path}{key}")


def build_hardware(section: Mapping[str, Any], name: str) -> Hardware:
    """The `Hardware` of a checked ``hardware`` section (`check_hardware`); source keys are
    documentation and are left out."""
    figures = {s.attr: typed(s.rule, section[k]) for k, s in _HARDWARE_SPECS.items()
               if k in section}
    figures.setdefault("vector_flops", figures["peak_flops"])
    params = Params().updated({k: v for k, v in section.items() if k in _PARAMS_SPECS})
    return Hardware(name=name, **figures, params=params)
