"""A ``hespas`` command imports its own module and what it uses, not every other command's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from hespas_py.cli.commands import COMMANDS
from hespas_py.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
WORKLOAD = ROOT / "workloads" / "mlp_dp_4dev.mlir"

#: Prints the hespas_py modules loaded after running ``hespas ARGS``.
_PROBE = """
import json, sys
from hespas_py.cli.main import main
sys.argv = ["hespas", *sys.argv[1:]]
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print(json.dumps(sorted(m for m in sys.modules if m.startswith("hespas_py"))), file=sys.stderr)
"""


def _modules_after(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_presets_loads_no_other_command():
    loaded = _modules_after("presets", "--json")
    assert "hespas_py.cli.presets" in loaded
    others = {module for name, module in COMMANDS.items() if name != "presets"}
    assert not loaded & others
    assert not any(m.startswith(("hespas_py.accuracy", "hespas_py.sweep", "hespas_py.pipeline"))
                   for m in loaded)


def test_gen_loads_neither_accuracy_nor_sweep(tmp_path):
    loaded = _modules_after("gen", "A100_SXM_40GB", "--mlir_file", str(WORKLOAD), "--output",
                            str(tmp_path / "out"), "--json", "--log-level", "error")
    assert "hespas_py.pipeline" in loaded
    assert not loaded & {module for name, module in COMMANDS.items() if name != "gen"}
    assert not any(m.startswith(("hespas_py.accuracy", "hespas_py.sweep")) for m in loaded)


def test_help_lists_every_command_and_each_runs_from_the_app():
    listed = CliRunner().invoke(app, ["--help"], terminal_width=200).stdout
    assert all(name in listed for name in COMMANDS)
    for name in COMMANDS:
        assert CliRunner().invoke(app, [name, "--help"]).exit_code == 0, name


def test_an_unknown_command_is_a_usage_error():
    result = CliRunner().invoke(app, ["no-such-command"])
    assert result.exit_code == 2 and "No such command" in result.output
