"""One switch for Python's cyclic garbage collector during bulk work.

Reading, splitting and simulating build millions of small acyclic objects; collections
triggered by those allocations re-scan everything built so far and cost more than the work
itself (3x on 500k-op modules). Nothing these stages build forms a reference cycle, so when the
pause ends they are moved to the collector's permanent generation (`gc.freeze`): reference
counting still frees them, but the first collections after the pause do not walk them all
(0.8 s after a 500k-op run).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block; freeze what exists and restore the
    collector's previous state after (a nested pause leaves both to the outermost one)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()
