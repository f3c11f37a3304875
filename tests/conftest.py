"""Shared fixtures. Data from ../shared is optional: tests that need it skip when it is absent."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ../shared folder beside the checkout; skips the test when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(autouse=True)
def _fresh_hespas_logger():
    """Undo what an in-process CLI run does to the ``hespas_py`` logger (its own stderr handler,
    no propagation), so a later test's ``caplog`` sees the records whatever ran before it."""
    logger = logging.getLogger("hespas_py")
    saved = (logger.handlers[:], logger.level, logger.propagate)
    yield
    logger.handlers[:], logger.level, logger.propagate = saved


@pytest.fixture(autouse=True)
def _parser_trusted_again(monkeypatch):
    """Each test starts as a fresh run would: a parse an earlier test made fail on purpose does
    not keep this process from parsing (`hespas_py.mlir.source`; every malformed file the
    tests parse in-process fails cleanly: the one known to corrupt memory runs in a subprocess)."""
    from hespas_py.mlir import source

    monkeypatch.setattr(source, "_failed_on", None)


#: Set in a fresh process running `fresh_process` tests: the file its outcomes go to.
FRESH_PROCESS = "HESPAS_TEST_FRESH_PROCESS"
_fresh_outcomes: dict[str, tuple[str, str]] = {}


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "fresh_process: run in a new pytest process with a single thread, where "
        "hespas_py forks (an xdist worker has an I/O thread, and hespas_py never forks a process "
        "with threads: hespas_py.forking)")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run a `fresh_process` test in a new process: those of its module together, once."""
    if pyfuncitem.get_closest_marker("fresh_process") is None or os.environ.get(FRESH_PROCESS):
        return None
    if pyfuncitem.nodeid not in _fresh_outcomes:
        module = [item.nodeid for item in pyfuncitem.session.items
                  if item.path == pyfuncitem.path and item.get_closest_marker("fresh_process")]
        # The workers' base temp folders share a parent, which pytest rotates away.
        shared = pyfuncitem.config._tmp_path_factory.getbasetemp().parent
        _fresh_outcomes.update(_shared_run(shared, pyfuncitem.path.stem, module))
    outcome, detail = _fresh_outcomes.get(pyfuncitem.nodeid, ("failed", "not run"))
    if outcome == "skipped":
        pytest.skip(detail)
    if outcome != "passed":
        pytest.fail(detail, pytrace=False)
    return True


def _shared_run(parent: Path, name: str, nodeids: list[str]) -> dict[str, tuple[str, str]]:
    """`_run_fresh` once per test run: xdist workers share the outcomes through a file."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return _run_fresh(nodeids)
    import fcntl

    folder = parent / f"fresh-{run}"
    folder.mkdir(exist_ok=True)
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shared = folder / f"{name}.json"
        if shared.is_file():
            return {k: tuple(v) for k, v in json.loads(shared.read_text()).items()}
        outcomes = _run_fresh(nodeids)
        shared.write_text(json.dumps(outcomes))
        return outcomes


def _run_fresh(nodeids: list[str]) -> dict[str, tuple[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        outcomes = Path(folder) / "outcomes.jsonl"
        env = {**os.environ, FRESH_PROCESS: str(outcomes), "OPENBLAS_NUM_THREADS": "1",
               "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO),
                                                           os.environ.get("PYTHONPATH"))))}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
             "-W", "error:This process:DeprecationWarning", *nodeids],
            cwd=REPO, env=env, capture_output=True, text=True, check=False)
        found = {}
        if outcomes.is_file():
            for line in outcomes.read_text().splitlines():
                entry = json.loads(line)
                if entry["outcome"] != "passed" or entry["nodeid"] not in found:
                    found[entry["nodeid"]] = (entry["outcome"], entry["detail"])
    return {nodeid: found.get(nodeid, ("failed", done.stdout[-3000:] + done.stderr[-3000:]))
            for nodeid in nodeids}


def pytest_runtest_logreport(report) -> None:
    """In a fresh process: each test's outcome, for the process that started it."""
    path = os.environ.get(FRESH_PROCESS)
    if path and (report.when == "call" or report.outcome != "passed"):
        detail = report.longreprtext if report.outcome == "failed" else (
            report.longrepr[2] if report.outcome == "skipped" and isinstance(report.longrepr, tuple)
            else "")
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps({"nodeid": report.nodeid, "outcome": report.outcome,
                                  "detail": detail}) + "\n")
