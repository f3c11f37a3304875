"""fast_constructor: frozen slotted dataclasses built without the frozen __init__."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from hespas_py.fast_init import fast_constructor
from hespas_py.mlir.ops import Op, TensorType
from hespas_py.split.blocks import Block


def test_builds_an_ordinary_frozen_instance():
    t = TensorType((4,), "f32")
    args = ("stablehlo.add", (1,), (2, 3), (t,), (t, t), {}, (), (), 5)
    op = fast_constructor(Op)(*args)
    assert type(op) is Op and op == Op(*args) and op.short_name == "add"
    with pytest.raises(dataclasses.FrozenInstanceError):
        op.name = "stablehlo.sub"
    assert pickle.loads(pickle.dumps(op)) == op
    block = fast_constructor(Block)(0, (op,), (), False, (t,), (t,))
    assert block == Block(id=0, ops=(op,), deps=(), collective=False, inputs=(t,), outputs=(t,))


def test_other_classes_keep_their_own_constructor():
    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        a: int

    assert fast_constructor(Unslotted) is Unslotted
