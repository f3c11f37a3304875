"""Compute-block estimators behind one interface (see `base`), registered by name.

The package is also callable: ``hespas_py.estimate(step, ...)`` is `hespas_py.api.estimate`
(the one-call Python API has this name, and a submodule's name is what its parent package's
attribute holds once it is imported).
"""

import sys
import types

from hespas_py.estimate.base import (
    Estimate, Estimator, OpCost, estimator_class, estimator_names, get_estimator, register)

__all__ = ["Estimate", "Estimator", "OpCost", "estimator_class", "estimator_names",
           "get_estimator", "register"]


class _CallablePackage(types.ModuleType):
    def __call__(self, *args, **kwargs):
        """`hespas_py.api.estimate`."""
        from hespas_py.api import estimate

        return estimate(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
