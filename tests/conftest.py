"""Shared fixtures. Data from ../shared is optional: tests that need it skip when it is absent."""

from __future__ import annotations

import logging
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
