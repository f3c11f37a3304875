"""From a measured time to a preset param: the fused roofline's kernel time, inverted.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hespas_py.estimators.fused_roofline import FusedRoofline
from hespas_py.hardware import SPECS, Hardware, Params


@dataclass(frozen=True)
class Measured:
    """One preset param a microbenchmark measured.

    Attributes:
        param: the hardware key (``memory_efficiency``).
        value: its value (a table's measured entries only: the base's others are kept).
        what: what was measured and how the value follows, for its ``<param>_source``.
        per_chip: an absolute figure of the measured chip and host (a latency), not a share of a
            datasheet peak: never carried onto another chip's datasheet.
    """

    param: str
    value: Any
    what: str
    per_chip: bool = False

    @property
    def source_key(self) -> str:
        """The key of its source string, as the registry declares it (the dispatch params share
        ``dispatch_source``)."""
        return SPECS[self.param].source


@dataclass(frozen=True)
class Observation:
    """A measured figure beside what the calibrated preset's model gives for it (not a param).

    Attributes:
        label: what was measured.
        measured: the figure.
        modelled: the model's figure (None: the model has none).
        unit: ``s``, ``cycles``, ``GB/s``.
    """

    label: str
    measured: float
    modelled: float | None
    unit: str = "s"


def compute_seconds(time_s: float, memory_s: float, launch_s: float,
                    overlap: float) -> float | None:
    """The compute time that makes the kernel time ``time_s`` given its memory time; None when
    the kernel is not compute-bound under the model (then compute < memory and only
    ``memory`` is measured)."""
    compute_s = time_s - launch_s - (1 - overlap) * memory_s
    return compute_s if compute_s > 0 and compute_s >= memory_s else None


def memory_seconds(time_s: float, compute_s: float, launch_s: float,
                   overlap: float) -> float | None:
    """The memory time that makes the kernel time ``time_s`` given its compute time; None when
    the kernel is not memory-bound under the model."""
    memory_s = time_s - launch_s - (1 - overlap) * compute_s
    return memory_s if memory_s >= compute_s and memory_s > 0 else None


def share(value: float) -> float:
    """An efficiency as a preset holds it: at most 1 (a rate above the datasheet's peak is the
    peak), rounded to 4 significant digits."""
    return float(f"{min(value, 1.0):.4g}")


@dataclass
class Context:
    """The reference chip and the params derived so far, for one derivation.

    Attributes:
        reference: the measured chip's datasheet preset (``fused_roofline`` hardware).
        derived: params measured earlier in this derivation, by key (they win over the
            reference's).
    """

    reference: Hardware
    derived: dict[str, Any] = field(default_factory=dict)

    @property
    def hardware(self) -> Hardware:
        """The reference with the params derived so far."""
        return self.reference.with_params(self.derived)

    @property
    def params(self) -> Params:
        """The current fused_roofline params (derived, else the reference's, else defaults)."""
        return self.hardware.params

    @property
    def launch_s(self) -> float:
        return self.params.launch_overhead_s

    @property
    def overlap(self) -> float:
        return self.params.compute_memory_overlap

    @property
    def bandwidth(self) -> float:
        """Achievable device-memory bytes/s (peak x ``memory_efficiency``)."""
        return self.reference.memory_bandwidth * self.params.memory_efficiency

    def peak(self, dtype: str) -> float | None:
        """The tensor-unit peak of ``dtype`` (None when the datasheet has none)."""
        return self.reference.per_dtype_flops.get(dtype)

    def tensor_efficiency(self, dtype: str) -> float:
        """``tensor_efficiency_by_dtype[dtype]``, else ``tensor_efficiency``."""
        params = self.params
        return params.tensor_efficiency_by_dtype.get(dtype, params.tensor_efficiency)

    def waves(self, mnk: tuple[int, int, int]) -> float:
        """The share of the cores a GEMM of ``mnk`` keeps busy (the estimator's wave
        quantization with the reference's ``num_cores`` and ``gemm_tile``)."""
        return FusedRoofline(self.hardware).wave_efficiency(mnk)

    def memory_s(self, nbytes: float) -> float:
        """Seconds ``nbytes`` take at the achievable bandwidth."""
        return nbytes / self.bandwidth
