"""How every entry point reports a `HespasError`: one line on stderr, exit code 2."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn

from hespas_py.errors import HespasError

EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with `EXIT_BAD_INPUT`."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def run_guarded(entry: Callable[[], object]) -> None:
    """Run a command-line entry, turning bad input into one line and exit code 2.

    A typer/click app is run as ``lambda: app(standalone_mode=False)``: a usage error (an unknown
    flag, ``--block_lim abc``) then arrives here as a click exception and is printed as one line
    too, instead of click's usage panel; a call without arguments still prints the help.
    """
    try:
        result = entry()
    except HespasError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted")
    except Exception as exc:
        _click_error(exc)
        raise
    raise SystemExit(result if isinstance(result, int) else 0)


def _click_error(exc: Exception) -> None:
    """Report a click usage error (or abort) as one line and exit 2; return for anything else."""
    import typer

    # The click typer runs on (typer bundles its own copy): where its exceptions live.
    click = sys.modules[typer.BadParameter.__module__]
    no_args = getattr(click, "NoArgsIsHelpError", ())
    if no_args and isinstance(exc, no_args):
        print(exc.ctx.get_help() if exc.ctx else exc.format_message(), file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)
    if isinstance(exc, typer.Abort):
        fail("interrupted")
    if isinstance(exc, click.ClickException):
        fail(" ".join(exc.format_message().split()))
