"""Collective durations measured up front by forked processes change speed, never results."""

from __future__ import annotations

import pytest

from hespas_py.chakra.nodes import collective, comp
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.sim import prefetch as prefetch_module
from hespas_py.sim.collective_times import CollectiveTimes
from hespas_py.sim.machine import Algorithm, NetworkConfig, SystemConfig
from hespas_py.sim.simulate import simulate
from hespas_py.sim.synthetic import write_identical_trace_set
from hespas_py.sim.trace import load_traces, trace_paths

# hespas_py forks only a single-threaded process: not an xdist worker (conftest.py).
pytestmark = pytest.mark.fresh_process

NETWORK = NetworkConfig(("Ring", "Switch"), (8, 16), (100.0, 25.0), (500.0, 2000.0))
SYSTEM = SystemConfig(collective_optimization="localBWAware", preferred_dataset_splits=2,
                      endpoint_delay=10, local_mem_bw=1000.0,
                      implementations={c: (Algorithm("ring"), Algorithm("direct"))
                                       for c in ("ALL_REDUCE", "ALL_GATHER", "REDUCE_SCATTER",
                                                 "ALL_TO_ALL")})


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    """A step on 128 NPUs: compute, then three distinct collectives, one of them twice."""
    nodes = [comp(0, 20), collective(1, Coll.ALL_GATHER, 1 << 20, [0]), comp(2, 30, [1]),
             collective(3, Coll.REDUCE_SCATTER, 4 << 20, [2]), comp(4, 5, [3]),
             collective(5, Coll.ALL_REDUCE, 1 << 22, [4]), collective(6, Coll.ALL_GATHER,
                                                                      1 << 20, [4])]
    prefix = tmp_path_factory.mktemp("prefetch") / "dev"
    write_identical_trace_set(prefix, nodes, NETWORK.num_npus)
    return load_traces(trace_paths(prefix, NETWORK.num_npus))


class FailingChild:
    """A forked child that stopped before handing anything back."""

    def __init__(self, work) -> None:
        del work

    def result(self) -> None:
        return None


def test_prefetched_durations_equal_measured_ones(traces, monkeypatch):
    monkeypatch.setenv("HESPAS_JOBS", "1")
    serial = simulate(traces, SYSTEM, NETWORK)
    recorded = []
    real_record = CollectiveTimes.record

    def record(self, position, at_start, duration):
        recorded.append(position)
        real_record(self, position, at_start, duration)
    monkeypatch.setattr(CollectiveTimes, "record", record)
    monkeypatch.setenv("HESPAS_JOBS", "2")
    forked = simulate(traces, SYSTEM, NETWORK)
    assert serial.replicated and forked.replicated
    assert sorted(recorded) == [1, 3, 5]  # positions of the distinct collectives, measured up front
    assert forked.devices == serial.devices
    monkeypatch.setattr(prefetch_module, "Forked", FailingChild)
    assert simulate(traces, SYSTEM, NETWORK).devices == serial.devices
