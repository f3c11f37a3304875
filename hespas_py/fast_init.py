"""Cheap construction of frozen slotted dataclasses built by the hundred thousand (ops, blocks).

A frozen dataclass's ``__init__`` stores every field through ``object.__setattr__``, four times
the cost of plain attribute stores. `fast_constructor` returns a plain class with the same slots
whose ``__init__`` stores the fields directly and then hands the instance over to the dataclass
(same layout, so ``__class__`` may change): what it returns is an ordinary, frozen instance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` taking every field positionally, in field order (fields with a
    plain default may be left out); ``cls`` itself when it is not a slotted dataclass whose
    slots are its fields in order."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = tuple(f.name for f in fields)
    if getattr(cls, "__slots__", None) != names:
        return cls
    defaults = {f"_default_{f.name}": f.default for f in fields
                if f.default is not dataclasses.MISSING}
    parameters = [f"{name}=_default_{name}" if f"_default_{name}" in defaults else name
                  for name in names]
    source = (f"def __init__(self, {', '.join(parameters)}):\n"
              + "".join(f"    self.{name} = {name}\n" for name in names)
              + "    self.__class__ = target\n")
    namespace: dict[str, Any] = {}
    exec(source, {"target": cls, **defaults}, namespace)  # noqa: S102 - generated from field names only
    return type(f"{cls.__name__}Builder", (), {"__slots__": names, "__init__": namespace["__init__"]})
