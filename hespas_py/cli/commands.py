"""Imports every subcommand module so each registers itself on the ``hespas`` app."""
from hespas_py.cli import export  # noqa: F401
from hespas_py.cli import gen  # noqa: F401
from hespas_py.cli import trace  # noqa: F401
from hespas_py.cli import accuracy  # noqa: F401
from hespas_py.cli import analyze  # noqa: F401
from hespas_py.cli import simulate  # noqa: F401
from hespas_py.cli import sweep  # noqa: F401
from hespas_py.cli import presets  # noqa: F401
from hespas_py.cli import search  # noqa: F401
