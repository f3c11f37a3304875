"""The simulator's internal "ASTRA-sim would reject this run" signal."""

from __future__ import annotations


class Rejected(Exception):
    """ASTRA-sim would abort, exit with an error or stall without a report on this input.

    `hespas_py.sim.simulate` turns it into a `HespasError` naming the trace set.
    """
