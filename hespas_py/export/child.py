"""The fresh process `hespas_py.export.export_in_subprocess` starts: ``python -m
hespas_py.export.child`` reads one export request as JSON on stdin (``spec``, ``devices``,
``optimized``, ``kwargs``, ``out``), writes `export_file`'s text to ``out`` and exits 0; bad input
is one ``error: <problem>`` line on stderr and exit code 2, as ``hespas export`` reports it.

A module of its own, so exporting from Python starts no command-line machinery: JAX is imported
here first thing, with the request's device count.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.export.exporter import export_file


def main() -> int:
    request = json.loads(sys.stdin.read())
    try:
        text = export_file(request["spec"], request["devices"], request["optimized"],
                           request["kwargs"])
    except HespasError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    Path(request["out"]).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
