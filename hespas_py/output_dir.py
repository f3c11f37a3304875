"""An output directory that appears complete or not at all: written into a fresh directory
beside it, renamed into place at the end (replacing an existing one only when told to)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hespas_py.errors import HespasError


def check_target(out: Path, clean: bool, flag: str = "--clean") -> None:
    """Raise `HespasError` unless ``out`` may be written: absent, or a directory and ``clean``
    (replace it; ``flag`` is the option that says so)."""
    if out.exists() and not out.is_dir():
        raise HespasError(f"{out}: exists and is not a directory")
    if out.exists() and not clean:
        raise HespasError(f"{out}: output directory exists (pass {flag} to replace it)")


@contextmanager
def staged(out: Path, clean: bool, flag: str = "--clean") -> Iterator[Path]:
    """A fresh directory to write ``out``'s files into, moved into place as ``out`` when the
    block ends (checked again by `check_target` first); removed if the block raises."""
    staging = _staging_dir(out)
    try:
        yield staging
        check_target(out, clean, flag)
        _commit(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _random_tag() -> str:
    """Eight random hex digits, for a name no other run picks (not `uuid`: it imports
    `platform`, which a run needs nowhere else)."""
    return os.urandom(4).hex()


def _staging_dir(out: Path) -> Path:
    """A fresh directory beside ``out`` (same file system, so the final rename is atomic)."""
    staging = out.parent / f".{out.name}.tmp-{os.getpid()}-{_random_tag()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
    except OSError as exc:
        raise HespasError(f"{out}: cannot create the output directory "
                          f"({exc.strerror or exc})") from None
    return staging


def _commit(staging: Path, out: Path) -> None:
    """Move ``staging`` to ``out``, replacing an existing ``out`` (never leaving a half state)."""
    if out.exists():
        trash = out.parent / f".{out.name}.old-{os.getpid()}-{_random_tag()}"
        os.replace(out, trash)
        try:
            os.replace(staging, out)
        except OSError:
            os.replace(trash, out)  # the old output back in place
            raise
        shutil.rmtree(trash, ignore_errors=True)
    else:
        os.replace(staging, out)
