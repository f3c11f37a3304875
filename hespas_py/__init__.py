"""hespas_py: StableHLO -> compute/collective blocks -> estimates -> Chakra traces -> simulated step.

Stages, one package each, data flowing one way:
``mlir`` (read a module into plain ops) -> ``split`` (blocks and their DAG) -> ``estimate``
(time per compute block) -> ``chakra`` (per-device execution traces) -> ``sim`` (network
simulation). ``export`` turns a jitted JAX step into StableHLO; ``cli`` wires the stages up.
"""

__version__ = "0.1.0"



def __getattr__(name: str):
    """``hespas_py.estimate``: the estimators package, which is callable as
    `hespas_py.api.estimate`; imported on first use so that ``import hespas_py`` stays cheap."""
    if name == "estimate":
        import importlib

        return importlib.import_module("hespas_py.estimate")
    raise AttributeError(f"module 'hespas_py' has no attribute {name!r}")
