"""The ctypes mirrors of the C structs have the C layout.

Two checks: (1) a static table of the x86-64 / aarch64 layout and the field
names read from the headers themselves (no compiler needed), so a field
added to a header without its mirror fails; (2) where a C compiler is
present, a tiny C program prints sizeof and offsetof for every field, which
must equal ctypes' (and for the structs of gridsync.h, which includes the
CUDA runtime's header, when the CUDA include folder is found too)."""
import ctypes
import os
import re
import shutil
import subprocess

import pytest

import gridsync
from gridsync import _views

VIEWS = {  # C struct -> (its ctypes mirror, header that defines it)
    "gs_grid_barrier": (_views.GridBarrier, "gridsync/barrier_view.h"),
    "gs_signal_set": (_views.SignalSet, "gridsync/signal_view.h"),
}
HOST = {
    "gs_reduce_arg": (_views.ReduceArg, "gridsync.h"),
    "gs_device_info": (_views.DeviceInfo, "gridsync.h"),
    "dim3": (_views.Dim3, None),
}
STATIC = {  # (size, [(field, offset)]) on the 64-bit platforms CUDA supports
    "gs_grid_barrier": (56, [("state", 0), ("timeout_ns", 8), ("method", 16), ("count", 20),
                             ("capacity", 24), ("group_size", 28), ("flat_max", 32),
                             ("epoch_known", 36), ("epoch", 40), ("reduces", 48),
                             ("split_phase", 52)]),
    "gs_signal_set": (32, [("values", 0), ("record", 8), ("timeout_ns", 16), ("count", 24),
                           ("reserved", 28)]),
    "gs_reduce_arg": (16, [("index", 0), ("value", 8)]),
    "dim3": (12, [("x", 0), ("y", 4), ("z", 8)]),
}


def layout_of(cls):
    return ctypes.sizeof(cls), [(name, getattr(cls, name).offset) for name, _ in cls._fields_]


@pytest.mark.parametrize("name", sorted(STATIC))
def test_static_table(name):
    cls = {**VIEWS, **HOST}[name][0]
    assert layout_of(cls) == STATIC[name]


def header_fields(struct, header):
    text = open(os.path.join(gridsync.include_dir(), header)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    body = re.search(r"typedef struct %s \{(.*?)\} %s;" % (struct, struct), text, re.S).group(1)
    body = re.sub(r"union\s*\{.*?\}\s*(\w+);", r"union \1;", body, flags=re.S)
    names = []
    for decl in filter(None, (d.strip() for d in body.split(";"))):
        first, *more = decl.split(",")  # "int cc_major, cc_minor"
        for declarator in [first.split()[-1]] + more:
            names.append(re.sub(r"\[.*\]", "", declarator).strip(" *"))
    return names


@pytest.mark.parametrize("name", ["gs_grid_barrier", "gs_signal_set", "gs_reduce_arg",
                                  "gs_device_info"])
def test_fields_follow_the_header(name):
    cls, header = {**VIEWS, **HOST}[name]
    assert [f for f, _ in cls._fields_] == header_fields(name, header)


def test_numpy_dtypes_match():
    for dtype, cls in [(gridsync.GRID_BARRIER_DTYPE, _views.GridBarrier),
                       (gridsync.SIGNAL_SET_DTYPE, _views.SignalSet)]:
        assert dtype.itemsize == ctypes.sizeof(cls)
        assert [dtype.fields[f][1] for f, _ in cls._fields_] == [o for _, o in layout_of(cls)[1]]


def cuda_include():
    for d in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if d and os.path.isfile(os.path.join(d, "include", "cuda_runtime_api.h")):
            return os.path.join(d, "include")
    nvcc = shutil.which("nvcc")
    if nvcc:
        d = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "include")
        if os.path.isfile(os.path.join(d, "cuda_runtime_api.h")):
            return d
    return None


@pytest.mark.parametrize("with_host", [False, True], ids=["views", "host-structs"])
def test_against_the_c_compiler(tmp_path, with_host):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    structs = dict(VIEWS)
    includes = ["gridsync/barrier_view.h", "gridsync/signal_view.h"]
    flags = ["-I", gridsync.include_dir()]
    if with_host:
        cuda = cuda_include()
        if not cuda:
            pytest.skip("CUDA's include folder not found (gridsync.h includes cuda_runtime_api.h)")
        structs = HOST
        includes = ["gridsync.h"]
        flags += ["-I", cuda]
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += ["#include <%s>" % h for h in includes]
    lines.append("int main(void) {")
    for name, (cls, _) in structs.items():
        ctype = name if name == "dim3" else "struct " + name
        lines.append('printf("%s size %%zu\\n", sizeof(%s));' % (name, ctype))
        for field, _ in cls._fields_:
            lines.append('printf("%s %s %%zu\\n", offsetof(%s, %s));' % (name, field, ctype, field))
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c17", *flags, str(src), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    got = dict(line.rsplit(" ", 1) for line in out.splitlines())
    for name, (cls, _) in structs.items():
        assert int(got[name + " size"]) == ctypes.sizeof(cls), name
        for field, _ in cls._fields_:
            assert int(got["%s %s" % (name, field)]) == getattr(cls, field).offset, (name, field)
