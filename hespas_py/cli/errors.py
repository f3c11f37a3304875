"""How every entry point reports a `HespasError`: one line on stderr, exit code 2."""

from __future__ import annotations

import sys
from typing import Callable, NoReturn

from hespas_py.errors import HespasError

EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with `EXIT_BAD_INPUT`."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def run_guarded(entry: Callable[[], object]) -> None:
    """Run a command-line entry, turning bad input into one line and exit code 2.

    Typer/click apps run in their standalone mode, so usage errors are reported by click itself
    (usage line, exit 2); only `HespasError` and an interrupt are handled here.
    """
    try:
        result = entry()
    except HespasError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted")
    raise SystemExit(result if isinstance(result, int) else 0)
