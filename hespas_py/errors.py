"""The one exception type every stage raises for bad input; the CLI turns it into one line, exit 2."""

from __future__ import annotations

from collections.abc import Sequence


class HespasError(Exception):
    """A user-facing problem with an input (file, config, module) that stops the run.

    The message must name the file and the problem on one line; the CLI prints it as
    ``error: <message>`` to stderr and exits with code 2, never with a traceback.
    """


def first_line(exc: BaseException, named: bool = False) -> str:
    """An exception of other code (XLA, a user's factory) on one line: the first line of its
    message (its type's name when it has none), after ``Type: `` with ``named``."""
    lines = str(exc).strip().splitlines()
    if not lines:
        return type(exc).__name__
    return f"{type(exc).__name__}: {lines[0]}" if named else lines[0]


def unknown_preset(name: str, problem: str, names: Sequence[str]) -> HespasError:
    """The error for a name that is neither a file nor one of the presets ``names``: the closest
    presets by spelling and a pointer to ``hespas presets`` instead of the whole list."""
    import difflib  # only on this error path: every command imports this module

    if not names:
        return HespasError(f"{name}: {problem} (no presets installed)")
    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return HespasError(f"{name}: {problem}{hint} (`hespas presets` lists all {len(names)})")
