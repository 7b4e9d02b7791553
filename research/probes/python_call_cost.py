"""python_call_cost.py - probe (issue 46): where a gridsync.scan / reduce
call's host time goes in Python, piece by piece, on torch tensors.

Each figure: the host's time per call, us, in bursts of 32 calls with a
synchronize between bursts (not timed), so the GPU never pushes back; the
median of 15 samples of 20 bursts. Run on a GPU machine with torch:
    GRIDSYNC_LIBRARY=build/libgridsync.so PYTHONPATH=python/src \
        python3 research/probes/python_call_cost.py
"""
import ctypes
import statistics
import time

import torch

import gridsync
from gridsync import _arrays, _lib


def per_call(fn, bursts=20, burst=32, samples=15):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(samples):
        total = 0.0
        for _ in range(bursts):
            t0 = time.perf_counter()
            for _ in range(burst):
                fn()
            total += time.perf_counter() - t0
            torch.cuda.synchronize()
        out.append(total / (bursts * burst) * 1e6)
    return statistics.median(out)


def main():
    n = 1 << 10
    x = torch.rand(n, device="cuda")
    y = torch.empty_like(x)
    r = torch.empty((), device="cuda")
    s = torch.cuda.current_stream().cuda_stream
    xp, yp, rp = x.data_ptr(), y.data_ptr(), r.data_ptr()
    F32 = 0
    z = _lib.CINT[0]  # the package's ready c_int enumerations
    gridsync.scan(x, out=y)  # binds torch inside the package
    rows = [
        ("python loop, nothing", lambda: None),
        ("torch.cumsum(x)", lambda: torch.cumsum(x, 0)),
        ("torch.sum(x)", lambda: torch.sum(x)),
        ("torch.empty_like(x)", lambda: torch.empty_like(x)),
        ("x.new_empty(())", lambda: x.new_empty(())),
        ("x.new_empty((), dtype=f32)", lambda: x.new_empty((), dtype=torch.float32)),
        ("torch.empty_like(r) (0-d)", lambda: torch.empty_like(r)),
        ("x.dtype is y.dtype", lambda: x.dtype is y.dtype),
        ("x.get_device()", lambda: x.get_device()),
        ("x.is_contiguous()", lambda: x.is_contiguous()),
        ("x.data_ptr()", lambda: x.data_ptr()),
        ("x.numel()", lambda: x.numel()),
        ("x.dtype (dict get)", lambda: _arrays._TORCH_GS.get(x.dtype)),
        ("torch._C._cuda_getDevice()", lambda: _arrays._torch_device()),
        ("_cuda_getCurrentRawStream(0)", lambda: _arrays._torch_stream(0)),
        ("flat(x)", lambda: _arrays.flat(x, "w", "x")),
        ("ctypes gs_dtype_size (floor)", lambda: _lib.gs_dtype_size(z)),
        ("ctypes gs_scan (bare)", lambda: _lib.gs_scan(0, 0, F32, xp, yp, n, s)),
        ("ctypes gs_scan (bare, CINT)", lambda: _lib.gs_scan(z, z, z, xp, yp, n, s)),
        ("ctypes gs_reduce (bare)", lambda: _lib.gs_reduce(0, F32, xp, n, rp, s)),
        ("ctypes gs_reduce (bare, CINT)", lambda: _lib.gs_reduce(z, z, xp, n, rp, s)),
        ("ctypes gs_reduce, result y", lambda: _lib.gs_reduce(z, z, xp, n, yp, s)),
        ("gridsync.scan(x, out=y)", lambda: gridsync.scan(x, out=y)),
        ("gridsync.scan(x)", lambda: gridsync.scan(x)),
        ("gridsync.reduce(x, out=r)", lambda: gridsync.reduce(x, out=r)),
        ("gridsync.reduce(x)", lambda: gridsync.reduce(x)),
        # again, last: a row that moved since its first measurement was noise
        ("ctypes gs_scan (bare, CINT) again", lambda: _lib.gs_scan(z, z, z, xp, yp, n, s)),
        ("ctypes gs_reduce (bare, CINT) again", lambda: _lib.gs_reduce(z, z, xp, n, rp, s)),
    ]
    for name, fn in rows:
        print("%-36s %7.3f us" % (name, per_call(fn)))


if __name__ == "__main__":
    main()
