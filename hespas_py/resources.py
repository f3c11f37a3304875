"""Where hespas_py's shipped files are: node and system presets, workloads, the measured table.

The repository keeps ``configs/`` and ``workloads/`` at its top level; a wheel carries them inside
the package (``hespas_py/configs``, ``hespas_py/workloads``: ``setup.py`` maps them there) next to
``hespas_py/data``. `shipped` finds a folder in either place, so every lookup works the same from a
source checkout, an editable install and an installed wheel.
"""

from __future__ import annotations

from pathlib import Path

#: The folders `shipped` knows.
SHIPPED = ("configs", "workloads", "data")
#: The package's folder (what ``importlib.resources.files("hespas_py")`` is for a package on
#: disk, without importing ``importlib.resources``: 5 ms of every command's start).
_PACKAGE = Path(__file__).parent


def shipped(*parts: str) -> Path:
    """The shipped file or folder ``parts`` (e.g. ``shipped("configs", "systems")``).

    Looked up inside the installed package first, then at the top of the source checkout the
    package was imported from; the packaged path is returned (absent) when neither has it, so
    callers report "none installed" through their usual not-found path.
    """
    if parts[0] not in SHIPPED:
        raise ValueError(f"{parts[0]!r} is not shipped (one of {', '.join(SHIPPED)})")
    packaged = _PACKAGE.joinpath(*parts)
    if packaged.exists():
        return packaged
    checkout = _PACKAGE.parent.joinpath(*parts)
    return checkout if checkout.exists() else packaged
