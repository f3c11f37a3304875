"""``hespas sweep --backend ray`` on a local 2-CPU Ray gives the rows of the local process pool."""

from __future__ import annotations

import json

import pytest

from sweep_helpers import SMALL_SPEC, hespas, write_spec

ray = pytest.importorskip("ray")
# Other tests import jax, which warns about any fork, even the fork-and-exec that starts Ray.
pytestmark = pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")


@pytest.fixture
def local_ray():
    """A local Ray of 2 CPUs for the test, shut down after it."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_backend_gives_the_rows_of_the_local_pool(tmp_path, capsys, monkeypatch, local_ray):
    spec = write_spec(tmp_path, dict(SMALL_SPEC, variants={"bandwidth_scale": [1, 0.5],
                                                           "latency": [100, 2000]}))
    results = {}
    for backend in ("local", "ray"):
        code, stdout, _ = hespas(capsys, monkeypatch, "sweep", spec, "--out", tmp_path / backend,
                                 "--backend", backend, "--jobs", "2", "--json")
        assert code == 0
        results[backend] = json.loads(stdout)
    assert len(results["ray"]["rows"]) == 16
    assert results["ray"] == results["local"]
    assert ray.is_initialized()  # the sweep used the Ray it found and left it running
