"""The frameworks the GPU tests run on, behind one small interface, and the
FP64 references with their error bounds (as tests/gpu/test_reduce.cu and
gridsync.h state them)."""
import ctypes
import contextlib
import math

import numpy as np
import pytest

import gridsync


class Torch:
    name = "torch"

    def __init__(self):
        import torch
        self.t = torch

    def put(self, a):
        return self.t.from_numpy(np.ascontiguousarray(a)).cuda()

    def get(self, x):
        return x.cpu().numpy()

    def stream(self):
        return self.t.cuda.Stream()

    def on(self, stream):
        return self.t.cuda.stream(stream)

    def sync(self):
        self.t.cuda.synchronize()


class Cupy:
    name = "cupy"

    def __init__(self):
        import cupy
        self.cp = cupy

    def put(self, a):
        return self.cp.asarray(np.ascontiguousarray(a))

    def get(self, x):
        return self.cp.asnumpy(x)

    def stream(self):
        return self.cp.cuda.Stream(non_blocking=True)

    def on(self, stream):
        return stream

    def sync(self):
        self.cp.cuda.Device().synchronize()


class Numba:
    name = "numba"

    def __init__(self):
        from numba import cuda
        self.cuda = cuda

    def put(self, a):
        return self.cuda.to_device(np.ascontiguousarray(a))

    def get(self, x):
        return x.copy_to_host()

    def stream(self):
        return self.cuda.stream()

    def on(self, stream):
        return contextlib.nullcontext()  # numba has no current stream: pass stream=

    def sync(self):
        self.cuda.synchronize()


FRAMEWORKS = {"torch": (Torch, "torch"), "cupy": (Cupy, "cupy"), "numba": (Numba, "numba.cuda")}


def framework(name):
    cls, module = FRAMEWORKS[name]
    pytest.importorskip(module)
    return cls()


def sms():
    info = gridsync._views.DeviceInfo()
    gridsync._lib.check(gridsync._lib.gs_device_query(0, ctypes.byref(info)))
    return info.sm_count


def sum_bound(n, eps, abs_sum):
    """test_reduce.cu's bound: (s + 21) eps sum|x|, s = ceil(n / (SMs x 256))."""
    s = -(-n // (sms() * 256))
    return (s + 21) * eps * abs_sum + 1e-300


def scan_bound(x, eps):
    """gridsync.h's bound for out[k]: gamma(d) * sum_{j<=k} |x_j|, d = k // 1024 + 64."""
    k = np.arange(x.size)
    d = k // 1024 + 64
    gamma = d * eps / (1 - d * eps)
    return gamma * np.cumsum(np.abs(x.astype(np.float64)))


EPS = {np.float32: 2.0**-24, np.float64: 2.0**-53}


def random(rng, n, dtype):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-1000, 1000, n).astype(dtype)
    return (rng.random(n) * 2 - 1).astype(dtype)


def poison(dtype):
    return np.nan if np.issubdtype(dtype, np.floating) else np.iinfo(dtype).min + 7


def gamma(n, eps):
    return n * eps / (1 - n * eps)


__all__ = ["framework", "sum_bound", "scan_bound", "EPS", "random", "poison", "gamma", "math"]
