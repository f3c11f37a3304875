"""The output directory appears complete or not at all (`hespas_py.output_dir`)."""

from __future__ import annotations

import os

import pytest

from hespas_py import output_dir
from hespas_py.errors import HespasError


def _old_output(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("old")
    return out


def test_staged_output_replaces_the_old_one_when_done(tmp_path):
    out = _old_output(tmp_path)
    with output_dir.staged(out, clean=True) as staging:
        (staging / "new.txt").write_text("new")
        assert (out / "old.txt").is_file()  # nothing replaced before the block ends
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]


def test_an_error_in_the_block_leaves_the_old_output_and_no_staging(tmp_path):
    out = _old_output(tmp_path)
    with pytest.raises(RuntimeError):
        with output_dir.staged(out, clean=True) as staging:
            (staging / "new.txt").write_text("new")
            raise RuntimeError("half-way")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (out / "old.txt").read_text() == "old"


def test_a_failed_rename_puts_the_old_output_back(tmp_path, monkeypatch):
    out = _old_output(tmp_path)
    renames = []

    def replace(src, dst):
        renames.append(src)
        if len(renames) == 2:  # the staging directory onto ``out``
            raise OSError("disk gone")
        os.rename(src, dst)

    monkeypatch.setattr(output_dir.os, "replace", replace)
    with pytest.raises(OSError, match="disk gone"):
        with output_dir.staged(out, clean=True) as staging:
            (staging / "new.txt").write_text("new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert (out / "old.txt").read_text() == "old"


def test_an_existing_output_needs_clean(tmp_path):
    out = _old_output(tmp_path)
    with pytest.raises(HespasError, match="pass --clean"):
        output_dir.check_target(out, clean=False)
    (tmp_path / "file").write_text("")
    with pytest.raises(HespasError, match="not a directory"):
        output_dir.check_target(tmp_path / "file", clean=True)
