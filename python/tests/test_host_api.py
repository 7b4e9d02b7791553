"""Host-only: import, argument checking and error translation, with no GPU.

Arguments that pass Python's checks reach the real library, whose own checks
(the ones made before any CUDA call) answer with its sentence; past those,
without a GPU, the library's CUDA failure arrives as an exception too."""
import ctypes

import numpy as np
import pytest

import gridsync
from gridsync import _arrays


def test_import_and_library():
    assert gridsync.library_version() == gridsync.__version__
    assert gridsync.library_path()
    assert issubclass(gridsync.TimeoutError, TimeoutError)
    assert issubclass(gridsync.InvalidArgumentError, ValueError)


def test_installed_library_is_looked_for_by_its_soname():
    """cmake/version.cmake: libgridsync.so.0.MINOR while the major version is 0."""
    from gridsync import _lib
    assert _lib.soname("0.1.0") == "libgridsync.so.0.1"
    assert _lib.soname("0.12.3") == "libgridsync.so.0.12"
    assert _lib.soname("1.2.3") == "libgridsync.so.1"
    assert gridsync.__version__ == _lib.VERSION


def test_include_dir_has_the_device_headers():
    inc = gridsync.include_dir()
    for header in ("gridsync.h", "gridsync/barrier.cuh", "gridsync/barrier_view.h",
                   "gridsync/signal.cuh"):
        assert (gridsync.include_dir() + "/" + header)
        assert __import__("os").path.isfile(inc + "/" + header), header
    opts = gridsync.nvrtc_options("-lineinfo")
    assert opts == ("-I" + inc, "-std=c++17", "-lineinfo")


def test_status_translation_carries_the_sentence():
    from gridsync import _lib
    for status, cls in [(1, gridsync.InvalidArgumentError), (4, gridsync.NotCoresidentError),
                        (5, gridsync.TimeoutError), (10, gridsync.MisuseError)]:
        err = _lib.error(status)
        assert isinstance(err, cls) and err.status == status
        assert err.status_name == _lib.gs_status_string(status).decode()


def test_scan_overlap_refused_by_the_library(fake):
    x = fake(0x100000, (1000,))
    out = fake(0x100000 + 4, (1000,))
    with pytest.raises(gridsync.InvalidArgumentError, match="gs_scan: input and output overlap"):
        gridsync.scan(x, out=out)


def test_dot_checks_reach_the_library(fake):
    x, y, out = fake(0x100000, (10,), "<i4"), fake(0x200000, (10,), "<i4"), fake(0x300000, (1,), "<i4")
    with pytest.raises(gridsync.InvalidArgumentError, match="gs_dot: length must be >= 0") as e:
        gridsync._lib.check(gridsync._lib.gs_dot(gridsync._lib.I32, 0x100000, 0x200000, -1,
                                                 0x300000, 0))
    assert e.value.status_name == "GS_ERR_INVALID_ARGUMENT"
    if gridsync.device_count() == 0:  # an integer dot passes every check before the GPU's
        with pytest.raises(gridsync.GridsyncError) as e:
            gridsync.dot(x, y, out=out)
        assert "element type" not in str(e.value)


def test_barrier_methods_are_the_librarys():
    """The names come from the library's registry (gs_barrier_method_name), so
    a method added there needs no line here; each parses back."""
    names = gridsync.barrier_methods()
    assert names[0] == "auto" and {"lock", "lockfree", "flip", "tree", "flags"} <= set(names)
    with pytest.raises(gridsync.InvalidArgumentError, match=", ".join(names)):
        gridsync.Barrier(3)
    with pytest.raises(gridsync.InvalidArgumentError, match="unknown barrier method 'spin'"):
        gridsync.Barrier("spin")


def test_sgemm_empty_refused_by_the_library(fake):
    a, b, c = fake(0x100000, (0, 4)), fake(0x200000, (4, 3)), fake(0x300000, (0, 3))
    with pytest.raises(gridsync.InvalidArgumentError, match="gs_sgemm: sizes must be >= 1"):
        gridsync.sgemm(a, b, c)


def test_without_gpu_the_cuda_failure_is_an_exception(fake):
    if gridsync.device_count() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises(gridsync.GridsyncError) as e:
        gridsync.reduce(fake(0x100000, (100,)), out=fake(0x200000, ()))
    assert str(e.value)  # the library's sentence, e.g. "cudaGetDevice(&dev) failed at ..."
    with pytest.raises((gridsync.NoDeviceError, gridsync.CudaError)):
        gridsync.Barrier()


@pytest.mark.parametrize("typestr", ["<i2", "|u1", "|b1", "<c8", "<f16"])
def test_unsupported_dtype(fake, typestr):
    with pytest.raises(gridsync.InvalidArgumentError, match="dtype"):
        gridsync.scan(fake(0x100000, (10,), typestr), out=fake(0x200000, (10,), typestr))


def test_non_contiguous_refused(fake):
    x = fake(0x100000, (10,), "<f4", strides=(8,))
    with pytest.raises(gridsync.InvalidArgumentError, match="not contiguous"):
        gridsync.reduce(x, out=fake(0x200000, ()))
    # size-1 dimensions may have any stride
    assert _arrays.flat(fake(0x100000, (3, 1), "<f4", strides=(4, 96)), "t", "x")[2] == 3


def test_empty_arrays_are_contiguous_whatever_their_strides(fake, fake_dlpack):
    """NumPy 2 gives an empty array strides of 0, and DLPack and CAI pass them on."""
    empty = np.lib.stride_tricks.as_strided(np.zeros(0, np.float32), (0, 4), (0, 0))
    assert _arrays.flat(fake_dlpack(empty), "t", "x")[2] == 0
    assert _arrays.flat(fake(0, (0,), strides=(0,)), "t", "x")[2] == 0
    a, c = fake(0x100000, (0, 4), strides=(0, 0)), fake(0x300000, (0, 3), strides=(0, 0))
    with pytest.raises(gridsync.InvalidArgumentError, match="gs_sgemm: sizes must be >= 1"):
        gridsync.sgemm(a, fake(0x200000, (4, 3)), c)  # the library's sentence, not "strides"


def test_numba_cuda_under_numpy_2_5_is_named():
    """numba-cuda 0.30.4 fails on its first kernel under NumPy 2.5 (np.row_stack):
    gridsync says so, naming the versions; any other AttributeError is not it."""
    from gridsync._device import numba_cannot_compile
    err = numba_cannot_compile(AttributeError("module 'numpy' has no attribute 'row_stack'"))
    assert isinstance(err, gridsync.NotSupportedError)
    assert "NumPy %s" % np.__version__ in str(err) and "NumPy < 2.5" in str(err), str(err)
    assert numba_cannot_compile(AttributeError("'Foo' object has no attribute 'bar'")) is None
    assert numba_cannot_compile(ValueError("row_stack")) is None


def test_host_memory_refused():
    with pytest.raises(gridsync.InvalidArgumentError, match="NumPy array"):
        gridsync.scan(np.zeros(10, np.float32))
    with pytest.raises(gridsync.InvalidArgumentError, match="not a GPU array"):
        gridsync.reduce([1.0, 2.0])


def test_output_checks(fake):
    x = fake(0x100000, (10,))
    with pytest.raises(gridsync.InvalidArgumentError, match="out has 9 elements"):
        gridsync.scan(x, out=fake(0x200000, (9,)))
    with pytest.raises(gridsync.InvalidArgumentError, match="out has dtype float64"):
        gridsync.scan(x, out=fake(0x200000, (10,), "<f8"))
    with pytest.raises(gridsync.InvalidArgumentError, match="pass out="):
        gridsync.scan(x)  # a framework gridsync cannot allocate in
    with pytest.raises(gridsync.InvalidArgumentError, match="argmin and argmax"):
        gridsync.reduce(x, "argmax", out=fake(0x200000, (2,), "<i8"))


def test_unknown_ops(fake):
    x = fake(0x100000, (10,))
    with pytest.raises(gridsync.InvalidArgumentError, match="unknown op 'median'"):
        gridsync.reduce(x, "median")
    with pytest.raises(gridsync.InvalidArgumentError, match="unknown op 'argmax'"):
        gridsync.scan(x, "argmax")
    with pytest.raises(gridsync.InvalidArgumentError, match="unknown gemm kernel 'nope'"):
        gridsync.sgemm(fake(0x1000, (2, 2)), fake(0x2000, (2, 2)), fake(0x3000, (2, 2)),
                       kernel="nope")


def test_dot_shape_mismatch(fake):
    with pytest.raises(gridsync.InvalidArgumentError, match="must match"):
        gridsync.dot(fake(0x1000, (10,)), fake(0x2000, (11,)), out=fake(0x3000, ()))


def test_sgemm_checks(fake):
    a, b = fake(0x1000, (4, 5)), fake(0x2000, (6, 3))
    with pytest.raises(gridsync.InvalidArgumentError, match="a's columns must equal b's rows"):
        gridsync.sgemm(a, b, fake(0x3000, (4, 3)))
    with pytest.raises(gridsync.InvalidArgumentError, match="sgemm takes float32"):
        gridsync.sgemm(fake(0x1000, (4, 5), "<f8"), b)
    with pytest.raises(gridsync.InvalidArgumentError, match="must be a matrix"):
        gridsync.sgemm(fake(0x1000, (20,)), b)
    with pytest.raises(gridsync.InvalidArgumentError, match="rows must be contiguous"):
        gridsync.sgemm(fake(0x1000, (4, 5), strides=(4, 16)), fake(0x2000, (5, 3)))
    with pytest.raises(gridsync.InvalidArgumentError, match="beta=0.5 needs c="):
        gridsync.sgemm(fake(0x1000, (4, 5)), fake(0x2000, (5, 3)), beta=0.5)
    with pytest.raises(gridsync.InvalidArgumentError, match="c is 4 x 4"):
        gridsync.sgemm(fake(0x1000, (4, 5)), fake(0x2000, (5, 3)), fake(0x3000, (4, 4)))


def test_sgemm_row_stride_is_the_leading_dimension(fake, monkeypatch):
    seen = {}

    def fake_sgemm(kernel, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream):
        seen.update(m=m, n=n, k=k, lda=lda, ldb=ldb, ldc=ldc, a=a, stream=stream)
        return 0
    monkeypatch.setattr(gridsync._lib, "gs_sgemm_with", fake_sgemm)
    a = fake(0x1000, (4, 5), strides=(4 * 8, 4))  # a 4 x 5 view of a 4 x 8 matrix
    gridsync.sgemm(a, fake(0x2000, (5, 3)), fake(0x3000, (4, 3)), stream=7)
    assert seen == dict(m=4, n=3, k=5, lda=8, ldb=3, ldc=3, a=0x1000, stream=7)


def test_dlpack_general_path(fake_dlpack):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    ptr, gs, n, _, kind, _ = _arrays.flat(fake_dlpack(a), "t", "x")
    assert (ptr, gs, n, kind) == (a.ctypes.data, gridsync._lib.F64, 12, _arrays.DLPACK)
    ptr, *_ = _arrays.flat(fake_dlpack(a[1:]), "t", "x")  # an offset view
    assert ptr == a.ctypes.data + 4 * 8
    with pytest.raises(gridsync.InvalidArgumentError, match="not contiguous"):
        _arrays.flat(fake_dlpack(a[:, ::2]), "t", "x")
    with pytest.raises(gridsync.InvalidArgumentError, match="dtype"):
        _arrays.flat(fake_dlpack(a.astype(np.int16)), "t", "x")
    ptr, gs, n, *_ = _arrays.flat(fake_dlpack(a.astype(np.float16)), "t", "x")
    assert (gs, n) == (gridsync._lib.F16, 12)


# every element type gridsync takes, as the frameworks spell it
_DTYPES = [("<f4", np.float32, "F32"), ("<f8", np.float64, "F64"), ("<i4", np.int32, "I32"),
           ("<i8", np.int64, "I64"), ("<u4", np.uint32, "U32"), ("<u8", np.uint64, "U64"),
           ("<f2", np.float16, "F16")]


@pytest.mark.parametrize("typestr,np_type,gs_name", _DTYPES)
def test_dtypes_map_to_gs_dtype(fake, fake_dlpack, typestr, np_type, gs_name):
    """__cuda_array_interface__ and DLPack arrays of each type reach the
    library as its gs_dtype, with the library's name and size."""
    from gridsync import _lib
    gs = getattr(_lib, gs_name)
    assert _arrays.flat(fake(0x100000, (5,), typestr), "t", "x")[1] == gs
    assert _arrays.flat(fake_dlpack(np.zeros(5, np_type)), "t", "x")[1] == gs
    assert _arrays.NP_OF[gs] == np.dtype(np_type)
    assert _lib.gs_dtype_size(gs) == np.dtype(np_type).itemsize
    assert _lib.gs_dtype_name(gs).decode() == {"F": "f", "I": "i", "U": "u"}[gs_name[0]] + \
        gs_name[1:]


def test_bfloat16_and_torch_dtypes():
    """bfloat16 arrives through DLPack (kDLBfloat, 16 bits) or torch; the
    torch table covers every type torch has."""
    from gridsync import _lib
    assert _arrays._GS_OF_DLPACK[(4, 16)] == _lib.BF16
    assert _lib.gs_dtype_name(_lib.BF16) == b"bf16" and _lib.gs_dtype_size(_lib.BF16) == 2
    assert _arrays.NAMES[_lib.BF16] == "bfloat16"
    torch = pytest.importorskip("torch")
    _arrays._bind_torch()
    for name, gs in [("float32", _lib.F32), ("float64", _lib.F64), ("int32", _lib.I32),
                     ("int64", _lib.I64), ("float16", _lib.F16), ("bfloat16", _lib.BF16),
                     ("uint32", _lib.U32), ("uint64", _lib.U64)]:
        if hasattr(torch, name):
            assert _arrays._TORCH_GS[getattr(torch, name)] == gs, name


def test_sum_type_is_the_librarys():
    """The sum (and dot) of float16 and bfloat16 is float32, every other
    result its input's type: Python's table against gs_reduce_result_type."""
    import ctypes
    from gridsync import _lib
    for gs in range(8):
        for op in range(5):
            r = ctypes.c_int(-1)
            assert _lib.gs_reduce_result_type(op, gs, ctypes.byref(r)) == 0
            assert r.value == (_lib.SUM_TYPE.get(gs, gs) if op == 0 else gs), (op, gs)


def test_half_sum_out_is_float32(fake):
    """A float16 sum writes a float32: out= of float16 is refused, a
    float32 one passes Python's checks (and reaches the library)."""
    x = fake(0x100000, (100,), "<f2")
    with pytest.raises(gridsync.InvalidArgumentError, match="out has dtype float16, the result "
                                                            "is float32"):
        gridsync.reduce(x, out=fake(0x200000, (), "<f2"))
    with pytest.raises(gridsync.InvalidArgumentError, match="out has dtype float16, the result "
                                                            "is float32"):
        gridsync.dot(x, fake(0x300000, (100,), "<f2"), out=fake(0x200000, (), "<f2"))
    with pytest.raises(gridsync.InvalidArgumentError, match="out has dtype float32, the result "
                                                            "is float16"):
        gridsync.reduce(x, "max", out=fake(0x200000, (), "<f4"))
    if gridsync.device_count() == 0:
        with pytest.raises(gridsync.GridsyncError) as e:
            gridsync.reduce(x, out=fake(0x200000, (), "<f4"))
        assert "dtype" not in str(e.value)


def test_streams_of_every_kind():
    class TorchLike:
        cuda_stream = 11

    class CupyLike:
        ptr = 12

    class NumbaLike:
        handle = ctypes.c_void_p(13)

    class CoreLike:
        def __cuda_stream__(self):
            return (0, 14)
    assert [_arrays.stream_handle(s) for s in (10, TorchLike(), CupyLike(), NumbaLike(),
                                                CoreLike())] == [10, 11, 12, 13, 14]
    with pytest.raises(gridsync.InvalidArgumentError, match="not a CUDA stream"):
        _arrays.stream_handle("default")


def test_launch_checks_by_the_library():
    with pytest.raises(gridsync.InvalidArgumentError, match="gs_launch: kernel is NULL"):
        gridsync.launch(0, 1, 32)
    with pytest.raises(gridsync.InvalidArgumentError, match="must have no zero dimension"):
        gridsync.launch(0x1234, (4, 0), 32)
    with pytest.raises(gridsync.InvalidArgumentError, match="at most 1024 are allowed"):
        gridsync.launch(0x1234, 1, (64, 32))
    with pytest.raises(gridsync.InvalidArgumentError, match="1 to 3 sizes"):
        gridsync.launch(0x1234, (1, 1, 1, 1), 32)


def test_launch_arguments_marshal_by_value(fake):
    from gridsync import _device
    view = np.zeros((), gridsync.GRID_BARRIER_DTYPE)
    values = [np.int32(7), np.float32(1.5), 3, 2.5, True, None, view, fake(0xabc000, (4,)),
              ctypes.c_uint16(9)]
    storage = [_device._arg_storage(v) for v in values]
    raw = [ctypes.string_at(_device._address(s), n) for s, n in
           zip(storage, (4, 4, 8, 8, 1, 8, 56, 8, 2))]
    assert raw[0] == np.int32(7).tobytes() and raw[1] == np.float32(1.5).tobytes()
    assert raw[2] == (3).to_bytes(8, "little") and raw[3] == np.float64(2.5).tobytes()
    assert raw[4] == b"\x01" and raw[5] == bytes(8) and raw[6] == view.tobytes()
    assert raw[7] == (0xabc000).to_bytes(8, "little") and raw[8] == (9).to_bytes(2, "little")
    with pytest.raises(gridsync.InvalidArgumentError, match="only one element"):
        _device._arg_storage(np.zeros(3))


def test_coresidency_sentence_is_the_librarys():
    from gridsync import _lib
    buf = ctypes.create_string_buffer(256)
    _lib.gs_format_coresidency(buf, 256, 1100, 132, 8, 256)
    assert buf.value.decode() == "1100 blocks requested, at most 1056 fit: 132 SMs x 8 blocks of 256 threads"
