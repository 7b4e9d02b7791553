"""The element types uint32, uint64, float16 and bfloat16 on the GPU, through
torch, CuPy and numba-cuda arrays (bfloat16: torch alone), against FP64
references: unsigned sums wrap and compare as unsigned; float16 and
bfloat16 sums and dots are float32 (FP32's bound: they are summed in
float32), their scans of their own dtype (the float32 prefix's bound plus
one rounding to 16 bits; float16 past 65504 is inf), their min, max,
argmin and argmax exact."""
import numpy as np
import pytest

import gridsync
from _frameworks import framework, scan_bound, sum_bound

pytestmark = pytest.mark.gpu
F32_EPS = 2.0**-24
HALF_UNIT = {np.float16: 2.0**-11}  # half a unit in the last place, relative


@pytest.fixture(params=["torch", "cupy", "numba"])
def fw(request):
    return framework(request.param)


@pytest.mark.parametrize("n", [1, 7, 1000, 65537, 1000003])
@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_unsigned(fw, rng, n, dtype):
    if fw.name == "torch" and not hasattr(fw.t, np.dtype(dtype).name):
        pytest.skip("this torch has no %s" % np.dtype(dtype).name)
    x = rng.integers(0, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
    xd = fw.put(x)
    assert int(fw.get(gridsync.reduce(xd)).reshape(-1)[0]) == int(np.sum(x, dtype=dtype))
    assert int(fw.get(gridsync.reduce(xd, "max")).reshape(-1)[0]) == int(x.max())
    assert int(fw.get(gridsync.reduce(xd, "min")).reshape(-1)[0]) == int(x.min())
    value, index = gridsync.reduce(xd, "argmax")
    assert int(fw.get(index).reshape(-1)[0]) == int(np.argmax(x))
    np.testing.assert_array_equal(fw.get(gridsync.scan(xd)), np.cumsum(x, dtype=dtype))
    np.testing.assert_array_equal(fw.get(gridsync.scan(xd, "min", exclusive=True))[1:],
                                  np.minimum.accumulate(x)[:-1])
    y = rng.integers(0, np.iinfo(dtype).max, n, dtype=dtype, endpoint=True)
    assert int(fw.get(gridsync.dot(xd, fw.put(y))).reshape(-1)[0]) == \
        int(np.sum(x * y, dtype=dtype))  # products and sums wrap


def _half(fw, x, dtype):
    """x (float64) as a device array of float16, or bfloat16 (torch)."""
    if dtype == "bfloat16":
        return fw.put(x.astype(np.float32)).to(fw.t.bfloat16)
    return fw.put(x.astype(np.float16))


def _host(fw, xd):
    """A device array of 16-bit floats (or anything) as float64 on the host."""
    if fw.name == "torch":
        return xd.float().cpu().numpy().astype(np.float64)
    return fw.get(xd).astype(np.float64)


def _frameworks_for(fw, dtype):
    if dtype == "bfloat16" and fw.name != "torch":
        pytest.skip("bfloat16 arrays are torch's")


@pytest.mark.parametrize("n", [1, 9, 1000, 65537, 1000003])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_reduce_and_dot(fw, rng, n, dtype):
    _frameworks_for(fw, dtype)
    xd = _half(fw, rng.random(n) * 16 - 8, dtype)
    x = _host(fw, xd)  # the values as rounded to 16 bits
    s = gridsync.reduce(xd)
    got = _host(fw, s).reshape(-1)[0]
    assert str(getattr(s, "dtype", "")).endswith("float32")  # the sum is a float32
    assert abs(got - x.sum()) <= sum_bound(n, F32_EPS, np.abs(x).sum())
    assert _host(fw, gridsync.reduce(xd, "min")).reshape(-1)[0] == x.min()
    assert _host(fw, gridsync.reduce(xd, "max")).reshape(-1)[0] == x.max()
    value, index = gridsync.reduce(xd, "argmin")
    assert int(fw.get(index).reshape(-1)[0]) == int(np.argmin(x))
    assert _host(fw, value).reshape(-1)[0] == x.min()
    yd = _half(fw, rng.random(n) * 2 - 1, dtype)
    y = _host(fw, yd)
    d = _host(fw, gridsync.dot(xd, yd)).reshape(-1)[0]
    abs_sum = np.abs(x * y).sum()
    assert abs(d - (x * y).sum()) <= sum_bound(n, F32_EPS, abs_sum) + F32_EPS * abs_sum


def test_half_sum_past_65504(fw):
    """100,003 float16 ones: the sum (a float32) is 100003, no inf."""
    xd = fw.put(np.ones(100003, np.float16))
    assert _host(fw, gridsync.reduce(xd)).reshape(-1)[0] == 100003.0


@pytest.mark.parametrize("n", [1, 1000, 70001, 3000017])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("exclusive", [False, True])
def test_half_scan(fw, rng, n, dtype, exclusive):
    _frameworks_for(fw, dtype)
    xd = _half(fw, rng.random(n) * 2 - 1, dtype)
    x = _host(fw, xd)
    got = _host(fw, gridsync.scan(xd, exclusive=exclusive))
    ref = np.cumsum(x)
    bound = scan_bound(x, F32_EPS)
    if exclusive:
        ref, bound = np.concatenate([[0.0], ref[:-1]]), np.concatenate([[0.0], bound[:-1]])
    unit = 2.0**-11 if dtype == "float16" else 2.0**-8
    tiny = 2.0**-25 if dtype == "float16" else 2.0**-134
    bound = bound + unit * (np.abs(ref) + bound) + tiny  # one rounding to 16 bits
    assert np.all(np.abs(got - ref) <= bound), "worst index %d" % np.argmax(np.abs(got - ref) - bound)
    np.testing.assert_array_equal(_host(fw, gridsync.scan(xd, "max")), np.maximum.accumulate(x))


def test_half_nan_and_overflow(fw):
    x = np.full(5000, 30.0, np.float16)  # prefixes 30 (k + 1): inf from 65520 on
    got = fw.get(gridsync.scan(fw.put(x))).astype(np.float64)
    k = np.arange(1, 5001) * 30.0
    assert np.all(np.isinf(got[k >= 65520 + 32])) and np.all(np.isfinite(got[k < 65504 - 32]))
    x[1234] = np.nan
    xd = fw.put(x)
    assert np.isnan(fw.get(gridsync.reduce(xd, "min")).reshape(-1)[0])
    assert np.isnan(fw.get(gridsync.reduce(xd)).reshape(-1)[0])
    value, index = gridsync.reduce(xd, "argmax")
    assert int(fw.get(index).reshape(-1)[0]) == 1234
