"""Compute-block estimators behind one interface (see `base`), registered by name."""

from hespas_py.estimate.base import (
    Estimate, Estimator, Hardware, OpCost, estimator_class, estimator_names, get_estimator,
    register)

__all__ = ["Estimate", "Estimator", "Hardware", "OpCost", "estimator_class", "estimator_names",
           "get_estimator", "register"]
