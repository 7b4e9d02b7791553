"""gridsync's host calls on torch, CuPy and numba-cuda arrays, on the GPU:
results against FP64 references on fresh random data, outputs poisoned
before each call, odd sizes, misaligned (offset) views, non-contiguous
inputs refused, several streams at once."""
import numpy as np
import pytest

import gridsync
from _frameworks import EPS, framework, gamma, poison, random, scan_bound, sum_bound

pytestmark = pytest.mark.gpu
FRAMEWORK_NAMES = ["torch", "cupy", "numba"]
SIZES = [0, 1, 3, 1000, 65537, 1000003, 2**22 + 5]
DTYPES = [np.float32, np.float64, np.int32, np.int64]


@pytest.fixture(params=FRAMEWORK_NAMES)
def fw(request):
    return framework(request.param)


def _placed(fw, rng, x, offset):
    """x on the device, `offset` elements into a larger allocation (a
    misaligned view when offset is odd). Sliced only when offset > 0:
    numba-cuda cannot slice an empty device array (NumPy 2 gives an empty
    array strides of 0, which numba-cuda's slicing takes for a broadcast
    dimension of one element: "non-empty slice into empty slice")."""
    if not offset:
        return fw.put(x)
    return fw.put(np.concatenate([random(rng, offset, x.dtype), x]))[offset:]


def _poisoned(fw, n, dtype, offset=0):
    """A device array of n elements filled with poison, placed as _placed does."""
    base = fw.put(np.full(n + offset, poison(dtype), dtype=dtype))
    return base[offset:] if offset else base


def _scan_reference(x, op, exclusive):
    x64 = x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64)
    fold = {"sum": np.cumsum, "min": np.minimum.accumulate, "max": np.maximum.accumulate}[op]
    ref = fold(x64)
    if x.dtype == np.int32 and op == "sum":
        ref = np.cumsum(x, dtype=np.int32)  # integer sums wrap, as gridsync's do
    if exclusive:
        ident = {"sum": 0, "min": np.inf, "max": -np.inf}[op]
        if x.dtype.kind == "i" and op != "sum":
            ident = np.iinfo(x.dtype).max if op == "min" else np.iinfo(x.dtype).min
        ref = np.concatenate([[ident], ref[:-1]]) if ref.size else ref
    return ref


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("exclusive", [False, True])
def test_scan_sum(fw, rng, n, dtype, exclusive):
    offset = 1 if n % 2 else 0  # odd sizes also start misaligned
    x = random(rng, n, dtype)
    xd = _placed(fw, rng, x, offset)
    out = _poisoned(fw, n, dtype, offset=3 * offset)
    got = gridsync.scan(xd, exclusive=exclusive, out=out)
    assert got is out
    fw.sync()
    got = fw.get(out).astype(np.float64) if x.dtype.kind == "f" else fw.get(out)
    ref = _scan_reference(x, "sum", exclusive)
    if x.dtype.kind == "f":
        bound = scan_bound(x, EPS[dtype]) if n else np.zeros(0)
        if exclusive and n:
            bound = np.concatenate([[0.0], bound[:-1]])
        assert np.all(np.abs(got - ref) <= bound + 1e-300), "worst index %d" % np.argmax(
            np.abs(got - ref) - bound)
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("op", ["min", "max"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_scan_min_max_and_allocated_output(fw, rng, op, dtype):
    n = 300007
    x = random(rng, n, dtype)
    got = gridsync.scan(fw.put(x), op)  # output allocated by the framework
    assert type(got).__module__.partition(".")[0] == type(fw.put(x[:1])).__module__.partition(".")[0]
    np.testing.assert_array_equal(fw.get(got), _scan_reference(x, op, False).astype(dtype))
    got = gridsync.exclusive_scan(fw.put(x), op)
    np.testing.assert_array_equal(fw.get(got), _scan_reference(x, op, True).astype(dtype))


def test_scan_in_place(fw, rng):
    x = random(rng, 123457, np.float32)
    xd = fw.put(x)
    gridsync.scan(xd, out=xd)
    got = fw.get(xd).astype(np.float64)
    assert np.all(np.abs(got - np.cumsum(x.astype(np.float64))) <= scan_bound(x, EPS[np.float32]))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_reduce(fw, rng, n, dtype):
    offset = n % 2
    x = random(rng, n, dtype)
    xd = _placed(fw, rng, x, offset)
    for op in ("sum", "min", "max"):
        out = _poisoned(fw, 1, dtype)
        gridsync.reduce(xd, op, out=out)
        got = fw.get(out).reshape(())
        if op == "sum":
            if x.dtype.kind == "f":
                ref = np.sum(x.astype(np.float64))
                assert abs(float(got) - ref) <= sum_bound(n, EPS[dtype], np.abs(x).sum()), op
            else:
                assert int(got) == int(np.sum(x, dtype=dtype)), op  # wraps like the library
        elif n:
            assert got == (x.min() if op == "min" else x.max()), op
    if n:
        for op in ("argmin", "argmax"):
            value, index = gridsync.reduce(xd, op)
            want = int(np.argmin(x) if op == "argmin" else np.argmax(x))
            assert int(fw.get(index).reshape(-1)[0]) == want, op
            assert fw.get(value).reshape(-1)[0] == x[want], op


def test_reduce_sum_allocated_and_nan(fw, rng):
    x = random(rng, 4099, np.float32)
    got = gridsync.reduce(fw.put(x))
    assert abs(float(fw.get(got).reshape(-1)[0]) - x.astype(np.float64).sum()) <= sum_bound(
        x.size, EPS[np.float32], np.abs(x).sum())
    x[1234] = np.nan
    assert np.isnan(fw.get(gridsync.reduce(fw.put(x), "max")).reshape(-1)[0])
    value, index = gridsync.reduce(fw.put(x), "argmin")
    assert int(fw.get(index).reshape(-1)[0]) == 1234


@pytest.mark.parametrize("n", [1, 1000, 1000003])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dot(fw, rng, n, dtype):
    x, y = random(rng, n, dtype), random(rng, n, dtype)
    out = _poisoned(fw, 1, dtype)
    gridsync.dot(fw.put(x), fw.put(y), out=out)
    prods = x.astype(np.float64) * y.astype(np.float64)
    abs_sum = np.abs(prods).sum()
    bound = sum_bound(n, EPS[dtype], abs_sum) + EPS[dtype] * abs_sum
    assert abs(float(fw.get(out).reshape(-1)[0]) - prods.sum()) <= bound


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (67, 33, 129), (256, 512, 300), (3, 1000, 7)])
@pytest.mark.parametrize("kernel", ["auto", "fast", "tiled16", "splitk", "streamk"])
def test_sgemm(fw, rng, m, n, k, kernel):
    a = random(rng, m * k, np.float32).reshape(m, k)
    b = random(rng, k * n, np.float32).reshape(k, n)
    c0 = random(rng, m * n, np.float32).reshape(m, n)
    cd = fw.put(c0)
    gridsync.sgemm(fw.put(a), fw.put(b), cd, alpha=1.5, beta=-0.5, kernel=kernel)
    ref = 1.5 * (a.astype(np.float64) @ b.astype(np.float64)) - 0.5 * c0
    mag = 1.5 * (np.abs(a).astype(np.float64) @ np.abs(b)) + 0.5 * np.abs(c0)
    assert np.all(np.abs(fw.get(cd) - ref) <= gamma(k + 2, EPS[np.float32]) * mag * 4 + 1e-30)
    got = gridsync.sgemm(fw.put(a), fw.put(b))  # C allocated
    assert np.all(np.abs(fw.get(got) - a.astype(np.float64) @ b) <= gamma(k + 2, 2.0**-24) * 4 *
                  (np.abs(a).astype(np.float64) @ np.abs(b)) + 1e-30)


def test_sgemm_padded_rows(fw, rng):
    big = random(rng, 40 * 64, np.float32).reshape(40, 64)
    a = fw.put(big)[:, 3:3 + 50]  # 40 x 50, row stride 64, misaligned start
    b = random(rng, 50 * 20, np.float32).reshape(50, 20)
    got = fw.get(gridsync.sgemm(a, fw.put(b)))
    ref = big[:, 3:53].astype(np.float64) @ b
    assert np.all(np.abs(got - ref) <= gamma(52, 2.0**-24) * 4 * (np.abs(big[:, 3:53]) @ np.abs(b)))


def test_non_contiguous_refused(fw, rng):
    xd = fw.put(random(rng, 1000, np.float32))
    with pytest.raises(gridsync.InvalidArgumentError, match="not contiguous"):
        gridsync.scan(xd[::2])
    with pytest.raises(gridsync.InvalidArgumentError, match="not contiguous"):
        gridsync.reduce(xd[::3])


def test_wrong_dtype_refused(fw):
    xd = fw.put(np.zeros(10, np.int16))
    with pytest.raises(gridsync.InvalidArgumentError, match="dtype"):
        gridsync.scan(xd)


def test_several_streams(fw, rng):
    """Eight scans and sums at once on four streams (the framework's current
    stream, or stream=), each checked."""
    streams = [fw.stream() for _ in range(4)]
    jobs = []
    for i in range(8):
        x = random(rng, 500000 + 77 * i, np.float32)
        s = streams[i % 4]
        xd = fw.put(x)
        fw.sync()
        with fw.on(s):
            kw = {"stream": s} if fw.name == "numba" or i % 2 else {}
            out = gridsync.scan(xd, **kw)
            total = gridsync.reduce(out, "max", **kw)
        jobs.append((x, out, total))
    fw.sync()
    for x, out, total in jobs:
        ref = np.cumsum(x.astype(np.float64))
        assert np.all(np.abs(fw.get(out) - ref) <= scan_bound(x, EPS[np.float32]))
        assert fw.get(total).reshape(-1)[0] == fw.get(out).max()


def test_torch_specifics(rng):
    t = pytest.importorskip("torch")
    with pytest.raises(gridsync.InvalidArgumentError, match="on cpu"):
        gridsync.scan(t.zeros(10))
    x = t.rand(1000, device="cuda")
    # out= is checked for dtype, size and layout in Python, for its device by
    # the library (as x is); a refusal is explained with the Python sentence
    with pytest.raises(gridsync.InvalidArgumentError, match="out is on cpu"):
        gridsync.scan(x, out=t.empty(1000))
    with pytest.raises(gridsync.InvalidArgumentError, match="out is on cpu"):
        gridsync.reduce(x, out=t.empty(()))
    with pytest.raises(gridsync.InvalidArgumentError, match="out is on cpu"):
        gridsync.dot(x, x, out=t.empty(()))
    # a subclass whose __torch_function__ keeps it gets its own kind of
    # result, in whichever order plain tensors and it come (the plain
    # tensors' 0-d results come from a pattern kept per device and dtype)
    class Passing(t.Tensor):
        pass
    sub = x.as_subclass(Passing)
    assert type(gridsync.reduce(sub)) is Passing
    assert type(gridsync.reduce(x)) is t.Tensor
    assert type(gridsync.reduce(sub)) is Passing
    assert type(gridsync.dot(x, x)) is t.Tensor
    assert np.isclose(gridsync.reduce(sub).item(), x.double().sum().item(), rtol=1e-5)
    p = t.nn.Parameter(x.clone())  # a Tensor subclass takes the general torch path
    np.testing.assert_array_equal(gridsync.scan(p).detach().cpu().numpy(),
                                  gridsync.scan(x).cpu().numpy())
    if t.cuda.device_count() > 1:
        y = t.rand(10, device="cuda:1")
        with pytest.raises(gridsync.InvalidArgumentError, match="cuda:1 but cuda:0"):
            gridsync.scan(y)
        with t.cuda.device(1):
            got = gridsync.scan(y)
        assert got.device.index == 1
        with pytest.raises(gridsync.InvalidArgumentError, match="out is on cuda:1 but cuda:0"):
            gridsync.scan(x[:10], out=y)
