"""How memory sizes are shown to people: in GiB, the binary unit HBM is sized in (an "80GB"
H100 holds 80 GiB), so a peak reads against the capacity a preset's name states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Bytes per GiB.
GIB = 1 << 30


def gib(nbytes: float) -> str:
    """``nbytes`` in GiB, two decimals: ``12.34``."""
    return f"{nbytes / GIB:,.2f}"


def memory_line(memory: Mapping[str, Any] | None) -> str:
    """``58.93 GiB of 80.00 GiB per device: fits``, from a ``memory`` entry (`module_stats.json`,
    ``hespas gen --json``); the peak alone when the hardware states no capacity."""
    if memory is None:
        return "not analysed (--memory)"
    peak = f"{gib(memory['peak_bytes'])} GiB"
    if memory.get("capacity_bytes") is None:
        return f"{peak} per device (the hardware states no capacity)"
    verdict = "fits" if memory["fits"] else "does NOT fit"
    return f"{peak} of {gib(memory['capacity_bytes'])} GiB per device: {verdict}"
