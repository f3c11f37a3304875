"""Read a module the MLIR parser failed on in a fresh process, where a crash costs nothing.

`hespas_py.mlir.source.parse` refuses to parse again in a process where the parser failed once
(a failed parse may leave native memory corrupt). `read_isolated` hands the module's text to a
new interpreter (``python -m hespas_py.mlir.isolated``), which parses it again with the retries
a failure calls for (a trailer cut off, `hespas_py.mlir.source`), reads it into the plain-Python
`Module` and sends that back pickled, or the one-line error. The child's death by a signal is
reported as ``<file>: the MLIR parser crashed``. Nothing of the failed parse is used here.
"""

from __future__ import annotations

import io
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Module
from hespas_py.mlir.source import ModuleSource

#: Exit codes of a shell whose child died of SIGABRT or SIGSEGV (128 + signal).
_SHELL_SIGNALLED = {128 + signal.SIGABRT, 128 + signal.SIGSEGV}


def read_isolated(source: ModuleSource, outline: bool) -> Module:
    """``source`` read in a child process (see the module docstring); `HespasError` for bad
    input, a crash of the parser included."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (package_root, env.get("PYTHONPATH"))))
    child = subprocess.run([sys.executable, "-m", __name__], input=pickle.dumps((source, outline)),
                           capture_output=True, env=env, check=False)
    answers = _answers(child.stdout)
    if child.returncode < 0 or child.returncode in _SHELL_SIGNALLED:
        first = answers.get("diagnostic")
        raise HespasError(f"{source.label}: the MLIR parser crashed"
                          + (f"; the first error it reported: {first}" if first else ""))
    if child.returncode != 0 or not ({"module", "error"} & answers.keys()):
        raise RuntimeError(f"reading {source.label} in a child process failed (exit code "
                           f"{child.returncode}):\n{child.stderr.decode(errors='replace')}")
    if "error" in answers:
        raise HespasError(answers["error"])
    return answers["module"]


def _answers(data: bytes) -> dict:
    """The (kind, value) pickles the child wrote, as a dict; what a crash cut short is left out."""
    stream, answers = io.BytesIO(data), {}
    while stream.tell() < len(data):
        try:
            kind, value = pickle.load(stream)
        except Exception:  # noqa: BLE001 - a pickle cut short by the child's death
            break
        answers[kind] = value
    return answers


def _main() -> None:
    """The child: read the pickled (source, outline) from stdin; write pickled ("diagnostic",
    the parser's first error), then ("module", Module) or ("error", message) to stdout."""
    from hespas_py.mlir.parsed_reader import read_parsed
    from hespas_py.mlir.source import parse

    def send(kind: str, value: object) -> None:
        sys.stdout.buffer.write(pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL))
        sys.stdout.flush()

    source, outline = pickle.load(sys.stdin.buffer)
    try:
        parsed = parse(source, after_failure=lambda problem: send("diagnostic", problem))
        send("module", read_parsed(parsed, outline))
    except HespasError as error:
        send("error", str(error))


if __name__ == "__main__":
    _main()
