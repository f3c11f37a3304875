"""The ``hespas`` subcommands and the module that defines each, imported only when it is run.

A subcommand module registers its command on `hespas_py.cli.main.app` (``@app.command(NAME)`` or
``app.add_typer(..., name=NAME)``) when it is imported; `hespas_py.cli.main` imports it the first
time NAME is asked for, so a run loads only its own command's dependencies. A new subcommand is a
module plus one line here. Listed in the order ``hespas --help`` shows them.
"""

COMMANDS: dict[str, str] = {
    "export": "hespas_py.cli.export",
    "gen": "hespas_py.cli.gen_command",
    "trace": "hespas_py.cli.trace",
    "accuracy": "hespas_py.cli.accuracy",
    "analyze": "hespas_py.cli.analyze",
    "simulate": "hespas_py.cli.simulate",
    "sweep": "hespas_py.cli.sweep",
    "presets": "hespas_py.cli.presets",
    "search": "hespas_py.cli.search",
    "calibrate": "hespas_py.cli.calibrate",
}
