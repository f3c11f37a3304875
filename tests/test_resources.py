"""`hespas_py.resources.shipped`: the packaged copy of a shipped folder, else the checkout's."""

from __future__ import annotations

from pathlib import Path

import pytest

from hespas_py import resources
from hespas_py.export.workloads import WORKLOADS_DIR
from hespas_py.hardware import PRESETS_DIR as NODES
from hespas_py.sim.config import PRESETS_DIR as SYSTEMS


def test_every_lookup_goes_through_shipped(repo_dir):
    assert NODES == resources.shipped("configs", "nodes") == repo_dir / "configs" / "nodes"
    assert SYSTEMS == resources.shipped("configs", "systems")
    assert WORKLOADS_DIR == resources.shipped("workloads")
    assert resources.shipped("data", "step_times.csv").is_file()


def test_an_installed_copy_wins_over_the_checkout(tmp_path, monkeypatch):
    package = tmp_path / "site" / "hespas_py"
    (package / "configs" / "systems").mkdir(parents=True)
    (tmp_path / "site" / "workloads").mkdir()  # beside the package, as in a checkout
    monkeypatch.setattr(resources, "_PACKAGE", package)
    assert resources.shipped("configs", "systems") == package / "configs" / "systems"
    assert resources.shipped("workloads") == tmp_path / "site" / "workloads"
    assert resources.shipped("data") == package / "data"  # in neither: the packaged path


def test_the_package_folder_is_the_one_importlib_resources_names():
    from importlib.resources import files

    assert resources._PACKAGE == Path(str(files("hespas_py")))


def test_only_shipped_folders_are_known():
    with pytest.raises(ValueError, match="'tests' is not shipped"):
        resources.shipped("tests")
