"""README.md and docs/: every relative link points to a file that exists, the README stays short
and starts with the two set-up commands, the second being the test command `.ci/run` runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(text: str) -> list[str]:
    """Link targets of ``text`` that are not URLs or anchors in the same page."""
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:|#", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_relative_links_resolve(page: Path):
    missing = [t for t in relative_links(page.read_text())
               if not (page.parent / t.split("#")[0]).exists()]
    assert missing == [], f"{page.relative_to(REPO)}: links to missing files"


def test_link_scan_finds_links_and_skips_urls():
    text = "[a](docs/x.md) [b](https://x.org/y) [c](#here) [d](../w/README.md#part)"
    assert relative_links(text) == ["docs/x.md", "../w/README.md#part"]


def test_readme_is_short_and_starts_with_the_install_and_test_commands():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    commands = [line.strip() for line in readme.splitlines()[:12] if line.startswith("    ")]
    assert len(commands) == 2
    assert commands[0].startswith('python3 -m pip install -e ".[dev]" && hespas gen ')
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    comment = ci.index("# The test command, exactly as README.md shows it:")
    assert ci[comment + 1] == commands[1] == "python3 -m pytest -n 2"
