"""The work of a training step as a published FLOP rate counts it, for rows published as TFLOP/s
per device (the Llama 3 report's Table 4) rather than as step times.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Decoder:
    """The shape of a Llama-style decoder.

    Attributes:
        layers, width, heads, kv_heads, head_dim, mlp, vocab: as the model card gives them.
    """

    layers: int
    width: int
    heads: int
    kv_heads: int
    head_dim: int
    mlp: int
    vocab: int

    @property
    def matmul_params(self) -> int:
        """Parameters every token's matmuls use: decoder layers (norms included) and the output
        projection, the final norm; not the input embedding."""
        attention = self.width * self.head_dim * (2 * self.heads + 2 * self.kv_heads)
        layer = attention + 3 * self.width * self.mlp + 2 * self.width
        return self.layers * layer + self.width * self.vocab + self.width

    def flops_per_token(self, seq: int) -> float:
        """Model FLOPs per token of a training step on sequences of ``seq`` (module docstring)."""
        return 6.0 * self.matmul_params + 6.0 * self.layers * self.heads * self.head_dim * seq

    def palm_flops_per_token(self, seq: int) -> float:
        """The same with the whole score matrix counted (PaLM, torchtitan): ``6 N + 12 L d S``."""
        return 6.0 * self.matmul_params + 12.0 * self.layers * self.heads * self.head_dim * seq


@dataclass(frozen=True)
class Work:
    """One step's work, per the published count.

    Attributes:
        tokens: tokens per step (sequences x sequence length, over every data-parallel rank).
        flops_per_token: model FLOPs per token.
        devices: devices sharing the step.
        layout: how the run split the step, as published (e.g. ``tp``, ``cp``, ``pp``, ``dp``,
            ``seq``, ``batch_per_dp``, ``virtual``).
    """

    tokens: int
    flops_per_token: float
    devices: int
    layout: Mapping[str, int] = field(default_factory=dict)

    @property
    def flops_per_device(self) -> float:
        """Model FLOPs each device does per step."""
        return self.tokens * self.flops_per_token / self.devices

    def tflops_per_device(self, step_s: float) -> float:
        """The rate a step of ``step_s`` seconds counts, in TFLOP/s per device."""
        return self.flops_per_device / step_s / 1e12

    def step_s(self, tflops_per_device: float) -> float:
        """The step time a published rate implies."""
        return self.flops_per_device / (tflops_per_device * 1e12)
