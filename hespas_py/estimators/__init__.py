"""Compute-block estimators behind one interface (see `base`), registered by name."""

from hespas_py.estimators.base import (
    Estimate,
    Estimator,
    OpCost,
    estimator_class,
    estimator_names,
    get_estimator,
    register,
)

__all__ = ["Estimate", "Estimator", "OpCost", "estimator_class", "estimator_names",
           "get_estimator", "register"]
