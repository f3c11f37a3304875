"""Matplotlib for the commands that draw (``--plot``): the optional ``[plot]`` extra."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError


def pyplot() -> Any:
    """``matplotlib.pyplot`` drawing to files only; one `HespasError` line when not installed."""
    try:
        import matplotlib
    except ImportError:
        raise HespasError("--plot needs matplotlib: pip install 'hespas_py[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> None:
    """Write ``fig`` to ``path`` (format from the suffix) and close it."""
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path, dpi=150)
    except OSError as exc:
        raise HespasError(f"{path}: cannot write plot ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
