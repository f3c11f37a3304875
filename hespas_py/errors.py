"""The one exception type every stage raises for bad input; the CLI turns it into one line, exit 2."""

from __future__ import annotations


class HespasError(Exception):
    """A user-facing problem with an input (file, config, module) that stops the run.

    The message must name the file and the problem on one line; the CLI prints it as
    ``error: <message>`` to stderr and exits with code 2, never with a traceback.
    """
