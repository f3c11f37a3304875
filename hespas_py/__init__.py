"""hespas_py: StableHLO -> compute/collective blocks -> estimates -> Chakra traces -> simulated step.

Stages, one package each, data flowing one way:
``mlir`` (read a module into plain ops) -> ``split`` (blocks and their DAG) -> ``estimators``
(time per compute block) -> ``chakra`` (per-device execution traces) -> ``sim`` (network
simulation). ``export`` turns a jitted JAX step into StableHLO; ``cli`` wires the stages up.
"""

__version__ = "0.1.0"


def estimate(*args, **kwargs):
    """`hespas_py.api.estimate` (imported on the first call, so that ``import hespas_py`` stays
    cheap)."""
    from hespas_py.api import estimate as run

    return run(*args, **kwargs)
