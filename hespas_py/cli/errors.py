"""How every entry point reports a `HespasError`: one line on stderr, exit code 2."""

from __future__ import annotations

import sys
from typing import Callable, NoReturn

import click

from hespas_py.errors import HespasError

EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with `EXIT_BAD_INPUT`."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def run_guarded(entry: Callable[[], object]) -> None:
    """Run a click/typer entry in non-standalone mode, turning bad input into one line."""
    try:
        result = entry()
    except HespasError as exc:
        fail(str(exc))
    except click.exceptions.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    except click.exceptions.Abort:
        fail("aborted")
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    except KeyboardInterrupt:
        fail("interrupted")
    raise SystemExit(result if isinstance(result, int) else 0)
