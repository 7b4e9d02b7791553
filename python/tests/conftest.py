"""Shared fixtures. GPU tests are marked `gpu` (skipped without a GPU);
random data comes from `rng`, seeded from GRIDSYNC_TEST_SEED or the clock,
and the seed is printed (pytest -s, or in the report of a failure)."""
import os
import time

import numpy as np
import pytest

import gridsync


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU (skipped without one)")


def pytest_collection_modifyitems(config, items):
    if gridsync.device_count() > 0:
        return
    skip = pytest.mark.skip(reason="no CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng():
    seed = int(os.environ.get("GRIDSYNC_TEST_SEED", time.time_ns() % 2**32))
    print("GRIDSYNC_TEST_SEED=%d" % seed)
    return np.random.default_rng(seed)


class FakeCudaArray:
    """An object speaking __cuda_array_interface__ over a made-up address:
    enough for every check made before the GPU is touched."""

    def __init__(self, ptr, shape, typestr="<f4", strides=None, readonly=False):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr,
                                         "data": (ptr, readonly), "strides": strides,
                                         "version": 3}


class FakeDLPack:
    """A NumPy array that claims to live on CUDA device 0 through DLPack."""

    def __init__(self, a):
        self.a = a

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()


@pytest.fixture
def fake():
    return FakeCudaArray


@pytest.fixture
def fake_dlpack():
    return FakeDLPack
