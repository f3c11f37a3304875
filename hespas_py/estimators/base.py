"""The estimator interface and the registry of estimators by name.

An estimator turns one compute `Block` into an `Estimate`. Adding one is one file in this
package: subclass `Estimator`, set ``name``, decorate with `register`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from hespas_py.errors import HespasError
from hespas_py.hardware import Hardware
from hespas_py.split.blocks import Block, BlockGraph


@dataclass(frozen=True, slots=True)
class OpCost:
    """The cost of one op inside a block.

    Attributes:
        name: the op's name (``stablehlo.dot_general``).
        dtype: element type that set its compute rate (its first result's, usually).
        flops: floating-point (or integer) operations.
        bytes: bytes moved to and from device memory.
        time_s: seconds charged to it.
        fallback: True when the estimator did not know the op and used its documented fallback.
        notes: why the cost is approximate (a rate missing for its dtype, an unknown trip count,
            an unknown op nested inside it, ...), once each.
    """

    name: str
    dtype: str
    flops: float
    bytes: float
    time_s: float
    fallback: bool = False
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Estimate:
    """What an estimator says of one block.

    Attributes:
        time_s: seconds the block takes on one device.
        flops: operations it performs.
        bytes: bytes it moves to and from device memory.
        per_op: per-op breakdown (may be empty for estimators that only time whole blocks).
        peak_flops: the FLOP/s ceiling the time was computed against (for utilisation: always
            ``flops / (time_s * peak_flops) <= 1``); 0 when not meaningful.
    """

    time_s: float
    flops: float = 0.0
    bytes: float = 0.0
    per_op: tuple[OpCost, ...] = ()
    peak_flops: float = 0.0

    @property
    def fallback_ops(self) -> tuple[str, ...]:
        """Names of ops costed by a fallback, in order of appearance, once each."""
        return tuple(dict.fromkeys(c.name for c in self.per_op if c.fallback))

    @property
    def notes(self) -> tuple[str, ...]:
        """Every per-op note (approximations made), in order of appearance, once each."""
        return tuple(dict.fromkeys(note for c in self.per_op for note in c.notes))


class Estimator(ABC):
    """Turns a compute block into an `Estimate` for one `Hardware`."""

    #: Registry name, as given in configs and on the command line; the parameter registry
    #: (`hespas_py.hardware.params`) says which settings of ``Hardware.params`` it reads.
    name: ClassVar[str]
    #: Raised when the estimator's method changes while its name and params stay: part of the
    #: cache key, so a cache never serves an answer of the older method.
    method_version: ClassVar[int] = 1

    def __init__(self, hardware: Hardware) -> None:
        self.hardware = hardware

    @property
    def measured_on(self) -> str | None:
        """The device whose clock the estimates come from (``xla_profile``); None for a model."""
        return None

    @abstractmethod
    def estimate(self, block: Block) -> Estimate:
        """Cost one compute block."""

    #: True when a block's estimate depends on the rest of the step seen by `prepare` (not only
    #: on the block's own text); caches then key on the block's place in the step too.
    context_dependent: ClassVar[bool] = False

    def prepare(self, graph: BlockGraph) -> None:  # noqa: B027 (an optional hook, no-op by default)
        """See the whole step once, before the first `estimate` of its blocks.

        Estimators that plan across blocks (``fused_roofline``: XLA fuses over the step's whole
        dataflow) or hand blocks to XLA (``xla_cost``, ``xla_profile``: they cut each block out of
        ``graph.source``) use it; the others ignore it.
        """

    def dispatch(self, buffers: int) -> OpCost | None:
        """The host's cost of one call of a step with ``buffers`` entry buffers
        (`hespas_py.estimators.dispatch`); None (the default) when the estimator does not model it."""
        return None

    def fingerprint(self) -> str:
        """Identifies this estimator and its settings in cache keys."""
        return f"{self.name}/{self.method_version}:{self.hardware.fingerprint()}"

    def close(self) -> None:  # noqa: B027 (an optional hook, no-op by default)
        """Finish work still in flight after the last `estimate` (the cache's queued writes);
        raise `HespasError` if it failed. Nothing to do for most estimators."""


_REGISTRY: dict[str, type[Estimator]] = {}
#: The estimator a run uses when none is named (``hespas gen PRESET``, sweeps, searches,
#: ``hespas accuracy``, `hespas_py.estimate`): the most accurate (`hespas accuracy`).
DEFAULT_ESTIMATOR = "fused_roofline"


def register(cls: type[Estimator]) -> type[Estimator]:
    """Class decorator: make an estimator available under ``cls.name``."""
    _REGISTRY[cls.name] = cls
    return cls


def _load_all() -> None:
    import pkgutil  # only to list every estimator (a run loads its own: `_load`)

    package = importlib.import_module("hespas_py.estimators")
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"hespas_py.estimators.{info.name}")


def estimator_names() -> list[str]:
    """Every registered estimator name, sorted."""
    _load_all()
    return sorted(_REGISTRY)


def _load(name: str) -> None:
    """Import the module that registers ``name``: ``hespas_py.estimators.<name>`` when there is one
    (only what a run needs gets imported), else every estimator module."""
    if name.isidentifier():
        module = f"{__package__}.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    if name not in _REGISTRY:
        _load_all()


def estimator_class(name: str) -> type[Estimator]:
    """The estimator class registered as ``name``."""
    if name not in _REGISTRY:
        _load(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        raise HespasError(
            f"unknown estimator {name!r} (known: {', '.join(estimator_names())})") from None


def get_estimator(name: str, hardware: Hardware) -> Estimator:
    """Instantiate the estimator registered as ``name``."""
    return estimator_class(name)(hardware)
