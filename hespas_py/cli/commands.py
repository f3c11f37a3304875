"""Imports every subcommand module so each registers itself on the ``hespas`` app."""
