"""`hespas_py.units`: memory sizes in GiB, one phrasing of peak, capacity and fit."""

from hespas_py.units import GIB, gib, memory_line


def test_gib_two_decimals_with_thousands():
    assert gib(80 * GIB) == "80.00"
    assert gib(1536 * GIB + GIB // 4) == "1,536.25"


def test_memory_line_peak_capacity_and_fit():
    assert memory_line({"peak_bytes": 3 * GIB, "capacity_bytes": 80 * GIB, "fits": True}) == \
        "3.00 GiB of 80.00 GiB per device: fits"
    assert memory_line({"peak_bytes": 3 * GIB, "capacity_bytes": GIB, "fits": False}) == \
        "3.00 GiB of 1.00 GiB per device: does NOT fit"
    assert memory_line({"peak_bytes": GIB, "capacity_bytes": None, "fits": None}) == \
        "1.00 GiB per device (the hardware states no capacity)"
    assert memory_line(None) == "not analysed (--memory)"
