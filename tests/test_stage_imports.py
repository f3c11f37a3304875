"""Data flows one way: no module of a stage imports a later stage, and nothing imports the CLI.

An AST scan of every module under hespas_py/ (imports inside functions included), so an import
that runs back up the stages fails here however lazily it is written.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hespas_py"

#: Packages and top-level modules in data-flow order; each may import only those before it and
#: the shared modules. ``hardware`` describes the machine every later stage models; ``kernels``
#: plans the kernels XLA would launch (memory and the estimators share its plan); ``export``
#: reads StableHLO back through ``mlir``; ``pipeline``, ``sweep``, ``accuracy`` and ``cli`` wire
#: the stages up (``run`` builds every entry point's run), ``calibrate`` writes node presets
#: from measurements, the CLI last.
ORDER = ("hardware", "mlir", "export", "split", "kernels", "estimators", "memory", "chakra",
         "sim", "pipeline", "run", "sweep", "search", "accuracy", "calibrate", "api", "cli")
#: Modules every stage may use; they import no stage themselves.
SHARED = ("errors", "fast_init", "forking", "gc_pause", "resources", "dag", "plotting",
          "jaxcompat", "checks", "units", "output_dir")


def _unit(path: Path, root: Path = PACKAGE) -> str:
    """The stage (package) or shared module a file under ``root`` (hespas_py/) belongs to."""
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _imported_units(path: Path) -> set[tuple[str, int]]:
    """(stage or shared module, line) of every hespas_py import in the file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: relative import"
            names = [node.module or ""]
            if node.module == "hespas_py":
                names = [f"hespas_py.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "hespas_py" and len(parts) > 1:
                found.add((parts[1], node.lineno))
    return found


def _violations(paths, root: Path = PACKAGE) -> list[str]:
    rank = {unit: i for i, unit in enumerate(ORDER)}
    problems = []
    for path in paths:
        unit = _unit(path, root)
        if unit == "__init__":
            continue  # the package root: above every stage (``hespas_py.estimate`` is the API's)
        for target, line in _imported_units(path):
            if target == unit or target == "__init__":
                continue
            if unit in SHARED:
                allowed = target in SHARED
            elif target in SHARED:
                allowed = True
            else:
                allowed = target in rank and rank[target] < rank[unit]
            if not allowed:
                problems.append(f"{path.relative_to(root.parent)}:{line}: {unit} imports {target}")
    return problems


def test_every_module_belongs_to_a_known_stage_or_shared_module():
    units = {_unit(path) for path in PACKAGE.rglob("*.py")} - {"__init__", "__main__"}
    assert units <= set(ORDER) | set(SHARED), units - set(ORDER) - set(SHARED)


def test_no_module_imports_a_later_stage_or_the_cli():
    assert _violations(sorted(PACKAGE.rglob("*.py"))) == []


@pytest.mark.parametrize("source, unit", [
    ("from hespas_py.split.blocks import Block\n", "mlir"),
    ("def f():\n    from hespas_py.cli.errors import run_guarded\n", "export"),
    ("import hespas_py.sim.simulate\n", "chakra"),
    ("from hespas_py import pipeline\n", "estimators"),
    ("from hespas_py.mlir import ops\n", "errors"),
])
def test_the_scan_catches_an_import_back_up_the_stages(tmp_path, source, unit):
    path = tmp_path / unit / "module.py" if unit in ORDER else tmp_path / f"{unit}.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(source)
    assert len(_violations([path], tmp_path)) == 1


def _private_imports(path: Path) -> list[str]:
    """``module.name`` of every private name (``_x``) the file imports from hespas_py."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hespas_py"):
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    return found


def test_no_private_name_is_imported_across_modules():
    found = {str(p.relative_to(PACKAGE.parent)): _private_imports(p)
             for p in sorted(PACKAGE.rglob("*.py"))}
    assert {k: v for k, v in found.items() if v} == {}


def test_no_stage_starts_the_cli_in_a_child_process():
    """A command line in a string (``python -c "from hespas_py.cli..."``) is an import the scan
    above cannot see."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if _unit(path) == "cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert not ("import" in node.value and "hespas_py.cli" in node.value), path


def _module_of(name: str, root: Path = PACKAGE) -> Path | None:
    """The file of module ``hespas_py.<...>`` (a package's ``__init__.py``), or None."""
    path = root.parent.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_modules(path: Path, root: Path = PACKAGE) -> set[Path]:
    """Files of every hespas_py module the file imports, at module level or inside functions
    (``from package import module`` counts as the module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(root.name):
            names = [f"{node.module}.{alias.name}" if _module_of(f"{node.module}.{alias.name}",
                                                                 root) else node.module
                     for alias in node.names]
        else:
            continue
        found.update(m for n in names if n.startswith(root.name) and (m := _module_of(n, root)))
    return found - {path}


def _cycles(paths, root: Path = PACKAGE) -> list[list[str]]:
    """Import cycles among the files of one package (stage), each as the files around it."""
    graph = {p: {m for m in _imported_modules(p, root) if _unit(m, root) == _unit(p, root)}
             for p in paths}
    cycles, done, stack = [], set(), []

    def visit(path: Path) -> None:
        stack.append(path)
        for target in sorted(graph.get(path, ())):
            if target in stack:
                cycles.append([str(p.relative_to(root.parent))
                               for p in stack[stack.index(target):]])
            elif target not in done:
                visit(target)
        stack.pop()
        done.add(path)

    for path in sorted(graph):
        if path not in done:
            visit(path)
    return cycles


def test_no_import_cycle_among_a_packages_files():
    assert _cycles(sorted(PACKAGE.rglob("*.py"))) == []


def test_the_scan_finds_a_cycle_through_a_function_level_import(tmp_path):
    root = tmp_path / "hespas_py"
    (root / "split").mkdir(parents=True)
    (root / "split" / "a.py").write_text("from hespas_py.split.b import f\n")
    (root / "split" / "b.py").write_text("def f():\n    from hespas_py.split import a\n")
    assert _cycles(sorted(root.rglob("*.py")), root) == [
        ["hespas_py/split/a.py", "hespas_py/split/b.py"]]


def test_other_stages_use_kernel_planning_through_its_package():
    """``hespas_py.kernels`` exports what the later stages use; its modules are its own."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if _unit(path) == "kernels":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if (module or "").startswith("hespas_py.kernels."):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {module}")
    assert found == []


def test_kernel_names_load_their_module_on_first_use():
    """``hespas_py.kernels`` maps each name it exports to the module its type-checking imports
    take it from, and loads a module only when one of its names is first used: the roofline's
    per-op work model comes without the planner."""
    import subprocess
    import sys

    from hespas_py import kernels

    tree = ast.parse((PACKAGE / "kernels" / "__init__.py").read_text())
    imported = {alias.name: node.module.rpartition(".")[2] for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module
                and node.module.startswith("hespas_py.kernels.") for alias in node.names}
    assert imported == kernels._WHERE and kernels.__all__ == sorted(imported)
    assert all(getattr(kernels, name) is getattr(__import__(f"hespas_py.kernels.{module}",
                                                            fromlist=[name]), name)
               for name, module in imported.items())
    probe = ("import sys; from hespas_py.kernels import op_work, FLASH_FORWARD; "
             "print(sorted(m for m in sys.modules if m.startswith('hespas_py.kernels.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, cwd=PACKAGE.parent).stdout
    assert "hespas_py.kernels.planner" not in loaded and "hespas_py.kernels.costs" in loaded
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        kernels.nothing  # noqa: B018
