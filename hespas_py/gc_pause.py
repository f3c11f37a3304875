"""One switch for Python's cyclic garbage collector during bulk work.

Reading, splitting and simulating build millions of small acyclic objects; collections
triggered by those allocations re-scan everything built so far and cost more than the work
itself (3x on 500k-op modules). Nothing these stages build forms a reference cycle.
"""

from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; restore its previous state after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
