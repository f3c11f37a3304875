"""Entry points named like the published Hespas tools, with their flags and config files."""

from __future__ import annotations

import argparse
import sys

from hespas_py.cli.errors import run_guarded
from hespas_py.gc_pause import gc_paused


def _import_bindings_without_numpy() -> None:
    """Import jaxlib's MLIR bindings (`hespas_py.mlir.bindings`) without numpy.

    They import numpy only for optional attribute builders that reading never uses; in a process
    that has not loaded numpy yet, skipping it saves a fifth of a run's time. Only these
    single-purpose entry points do it: a process that goes on to import jax keeps numpy.
    """
    skip_numpy = "numpy" not in sys.modules
    if skip_numpy:
        sys.modules["numpy"] = None  # type: ignore[assignment]  # makes `import numpy` fail fast
    try:
        import hespas_py.mlir.bindings  # noqa: F401
    finally:
        if skip_numpy:
            del sys.modules["numpy"]


def mlir_analyzer() -> None:
    """``hespas_mlir_analyzer FILE [-e] [-f table|csv]``: the op histogram, as the published tool prints it.

    Imports only the MLIR reader (no typer, no jax) so that a run takes a fraction of a second.
    """
    with gc_paused():  # a one-shot command: what its imports build lives to its end
        run_guarded(lambda: _mlir_analyzer(sys.argv[1:]))


def _mlir_analyzer(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="hespas_mlir_analyzer", description="Op histogram of a StableHLO module."
    )
    parser.add_argument("mlir_file", help="StableHLO module: .mlir text, MLIR bytecode or a VHLO artifact.")
    parser.add_argument(
        "-e", "--expand_func_calls", action="store_true",
        help="Count the ops inside calls (per call site), fusions, Shardy and control-flow bodies.",
    )
    parser.add_argument("-f", "--format", default="table", choices=("table", "csv"), type=str.lower,
                        help="Histogram rows as a dotted table (default) or as CSV.")
    args = parser.parse_args(argv)
    _import_bindings_without_numpy()
    from hespas_py.mlir.analyze import histogram, render_modules
    from hespas_py.mlir.reader import load_modules

    results = [histogram(module, expand=args.expand_func_calls)
               for module in load_modules(args.mlir_file, outline=True)]
    print(render_modules(results, csv=args.format == "csv"))
    return 0


def chakra_gen() -> None:
    """``hespas_chakra_gen CONFIG [options]``: the same command as ``hespas gen``, its command line
    read with argparse (`hespas_py.cli.gen.parse_args`): no typer import."""
    with gc_paused():  # a one-shot command: what its imports build lives to its end
        run_guarded(lambda: _chakra_gen(sys.argv[1:]))


def _chakra_gen(argv: list[str]) -> None:
    """Parse ``argv`` (a usage error stops here, before the bindings load), then run gen."""
    from hespas_py.cli.gen import parse_args, run

    options = parse_args("hespas_chakra_gen", argv)
    if options["memory"] is None:  # the published tool's outputs: no memory analysis
        options["memory"] = False
    _import_bindings_without_numpy()
    run(**options)
