"""python -m gridsync.bench: what a Python user gets, per call.

Rows for n = 2^10, 2^16, 2^22, 2^28 float32 (--sizes to change): the scans
torch.cumsum, cupy.cumsum, gridsync.scan (allocating its output, as cumsum
does), gridsync.scan out= (preallocated) and the bare C call gs_scan
through ctypes; the sums torch.sum, gridsync.reduce (allocating),
gridsync.reduce out= and the bare gs_reduce_sum. Each figure: CUDA events
around `--calls` back-to-back calls on one stream (torch's current one),
warm-up first, random data, the median of `--samples` samples; beside it
the host's time to issue one call. The Python layer's cost, overhead_us:
gridsync's host time per call minus the bare call's, both through ctypes
declarations with the same ready c_int enumerations (so it is the package's
own Python work; for the sum, gridsync.reduce calls gs_reduce, one argument
more than the bare gs_reduce_sum), measured side by side in alternating
bursts (_overhead). At 2^28 the GPU is busy 250-550 us a call and the host
figures are noisy. Writes a table to stdout and, with
--json FILE, the rows as suite "python" of a gridsync-results/1 file.
Needs torch (the arrays and the events); CuPy rows only where CuPy is
installed.
"""
import argparse
import ctypes
import datetime
import json
import os
import statistics
import sys
import time

import gridsync
from gridsync import _lib

COLUMNS = ["op", "n", "method", "us_per_call", "host_us_per_call", "speedup_vs_torch",
           "overhead_us", "errors"]


def _parse(argv):
    p = argparse.ArgumentParser(prog="python -m gridsync.bench", description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="10,16,22,28", help="log2 of the lengths (default 10,16,22,28)")
    p.add_argument("--samples", type=int, default=15, help="samples per figure (default 15)")
    p.add_argument("--min-sample-ms", type=float, default=2.0,
                   help="calls per sample: enough for this many ms (default 2)")
    p.add_argument("--json", metavar="FILE", help="write the results file here")
    args = p.parse_args(argv)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        p.error("--sizes: comma-separated integers, e.g. 10,16,22")
    if not all(0 <= s <= 32 for s in args.sizes) or args.samples < 1:
        p.error("--sizes between 0 and 32, --samples at least 1")
    return args


def _time(torch, fn, samples, min_ms):
    """(median us per call, host us per call, samples, noise, rel_min, rel_max)."""
    stream = torch.cuda.current_stream()
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()  # calls per sample from one timed call
    fn()
    torch.cuda.synchronize()
    one = max(time.perf_counter() - t0, 1e-6)
    calls = int(min(10000, max(10, min_ms * 1e-3 / one)))
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    gpu, host = [], []
    for _ in range(samples):
        torch.cuda.synchronize()
        start.record(stream)
        h0 = time.perf_counter()
        for _ in range(calls):
            fn()
        h1 = time.perf_counter()
        end.record(stream)
        end.synchronize()
        gpu.append(start.elapsed_time(end) * 1e3 / calls)
        host.append((h1 - h0) * 1e6 / calls)
    med = statistics.median(gpu)
    noise = statistics.pstdev(gpu) / statistics.mean(gpu) if len(gpu) > 1 else 0.0
    return med, statistics.median(host), len(gpu), noise, min(gpu) / med, max(gpu) / med


def _overhead(torch, fn, bare, pairs=31, burst=32):
    """Host us per call of fn over bare, measured side by side: bursts of
    `burst` calls of each, alternately (fn first, then bare first, to cancel
    drift), the GPU drained between bursts so it never pushes back; the
    median of the pairs' differences. Back-to-back figures taken minutes
    apart differ by more than the layer costs (the host's clocks and
    caches); this one compares the two calls under the same conditions."""
    diffs = []
    for i in range(pairs):
        times = {}
        for which in ((fn, bare) if i % 2 == 0 else (bare, fn)):
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            for _ in range(burst):
                which()
            times[which] = time.perf_counter() - t0
        diffs.append((times[fn] - times[bare]) * 1e6 / burst)
    torch.cuda.synchronize()
    return statistics.median(diffs)


def _environment(torch, argv):
    info = gridsync._views.DeviceInfo()
    _lib.check(_lib.gs_device_query(torch.cuda.current_device(), ctypes.byref(info)))
    env = {
        "gpu": info.name.decode(), "device": info.ordinal,
        "compute_capability": "%d.%d" % (info.cc_major, info.cc_minor), "sms": info.sm_count,
        "l2_bytes": info.l2_bytes, "sm_clock_mhz_max": info.sm_clock_khz // 1000,
        "memory_bandwidth_gbs_theoretical": info.mem_bandwidth_gbs,
        "driver_cuda_version": "%d.%d" % (info.driver_version // 1000,
                                          info.driver_version % 1000 // 10),
        "cuda_runtime": "%d.%d" % (info.runtime_version // 1000, info.runtime_version % 1000 // 10),
        "gridsync_version": gridsync.library_version(),
        "git_commit": os.environ.get("GRIDSYNC_GIT_COMMIT", "unknown"),
        "command": " ".join(["python -m gridsync.bench"] + argv),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": sys.version.split()[0], "torch": torch.__version__,
    }
    try:
        import cupy
        env["cupy"] = cupy.__version__
    except ImportError:
        pass
    return env


def _rows_for(torch, cupy, n):
    """Every method at one length: (op, method, callable, checker)."""
    gen = torch.Generator(device="cuda").manual_seed(n)
    x = torch.rand(n, device="cuda", generator=gen)
    out = torch.empty_like(x)
    res = torch.empty((), device="cuda")
    stream = torch.cuda.current_stream().cuda_stream
    ptr, optr, rptr = x.data_ptr(), out.data_ptr(), res.data_ptr()
    gs_scan, gs_sum = _lib.gs_scan, _lib.gs_reduce_sum
    zero = _lib.CINT[0]  # the enumerations as the package passes them: overhead_us is its own work
    methods = [("scan", "torch.cumsum", lambda: torch.cumsum(x, 0))]
    if cupy is not None:
        xc = cupy.asarray(x)  # the same memory (CAI); CuPy's stream: torch's (set below)
        methods.append(("scan", "cupy.cumsum", lambda: cupy.cumsum(xc)))
    methods += [
        ("scan", "gridsync.scan", lambda: gridsync.scan(x)),
        ("scan", "gridsync.scan out=", lambda: gridsync.scan(x, out=out)),
        ("scan", "C gs_scan via ctypes", lambda: gs_scan(zero, zero, zero, ptr, optr, n, stream)),
        ("sum", "torch.sum", lambda: torch.sum(x)),
        ("sum", "gridsync.reduce", lambda: gridsync.reduce(x)),
        ("sum", "gridsync.reduce out=", lambda: gridsync.reduce(x, out=res)),
        ("sum", "C gs_reduce_sum via ctypes", lambda: gs_sum(zero, ptr, n, rptr, stream)),
    ]
    ref_scan = torch.cumsum(x.double(), 0)
    ref_sum = x.double().sum().item()

    def check(op, method):
        """1 if gridsync's answer is off (FP32 bounds of gridsync.h, loosely), else 0."""
        if not method.startswith(("gridsync", "C ")):
            return None
        if op == "scan":
            got = gridsync.scan(x).double()
            bound = (n // 1024 + 64) * 2.0**-24 * ref_scan.abs() * 1.01 + 1e-30
            return int(bool(((got - ref_scan).abs() > bound).any().item())) if n else 0
        got = gridsync.reduce(x).item()  # x >= 0: sum|x| is the sum (test_reduce.cu's bound)
        s = -(-n // (torch.cuda.get_device_properties(0).multi_processor_count * 256))
        return int(abs(got - ref_sum) > (s + 21) * 2.0**-24 * ref_sum + 1e-30)
    return methods, check


def run(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = _parse(argv)
    try:
        import torch
    except ImportError:
        print("python -m gridsync.bench: needs PyTorch (its arrays and CUDA events)",
              file=sys.stderr)
        return 2
    if not torch.cuda.is_available() or gridsync.device_count() == 0:
        print("python -m gridsync.bench: no CUDA GPU found", file=sys.stderr)
        return 1
    try:
        import cupy
        ts = torch.cuda.current_stream()
        if hasattr(cupy.cuda.Stream, "from_external") and hasattr(ts, "__cuda_stream__"):
            cupy_stream = cupy.cuda.Stream.from_external(ts)  # CuPy 14: the stream protocol
        else:
            cupy_stream = cupy.cuda.ExternalStream(ts.cuda_stream)
        cupy_stream.use()
    except ImportError:
        cupy = None
    rows = []
    for log2n in args.sizes:
        n = 1 << log2n
        methods, check = _rows_for(torch, cupy, n)
        if not rows:  # the host's clocks and caches settle before the first figure
            settled = time.perf_counter() + 0.3
            while time.perf_counter() < settled:
                for _, _, fn in methods:
                    fn()
                torch.cuda.synchronize()
        peer = {}
        for op, method, fn in methods:
            us, host, samples, noise, rel_min, rel_max = _time(torch, fn, args.samples,
                                                               args.min_sample_ms)
            row = {"op": op, "n": n, "method": method, "us_per_call": us,
                   "host_us_per_call": host, "speedup_vs_torch": None, "overhead_us": None,
                   "errors": check(op, method), "samples": samples, "noise": noise,
                   "rel_min": rel_min, "rel_max": rel_max, "timing": "hot"}
            if method.startswith("torch."):
                peer[op] = us
            if op in peer:
                row["speedup_vs_torch"] = peer[op] / us
            rows.append(row)
            print("bench: %-4s 2^%-2d %-28s %10.2f us  (host %.2f us)" % (op, log2n, method, us, host),
                  file=sys.stderr)
        bare = {op: fn for op, method, fn in methods if method.startswith("C ")}
        for r, (op, method, fn) in zip(rows[-len(methods):], methods):
            if method.startswith("gridsync"):
                r["overhead_us"] = _overhead(torch, fn, bare[op])
        del methods, bare
        torch.cuda.empty_cache()
    _print_table(rows, args.sizes)
    if args.json:
        doc = {"schema": "gridsync-results/1", "environment": _environment(torch, argv),
               "suites": {"python": {
                   "title": "python: float32 scan and sum from Python, microseconds per call "
                            "(median of back-to-back calls)",
                   "columns": COLUMNS,
                   "sampling": {"mode": "hot", "min_samples": args.samples,
                                "max_samples": args.samples, "min_time_s": 0, "max_noise": 0,
                                "timeout_s": 0},
                   "rows": rows}}}
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("wrote %s" % args.json, file=sys.stderr)
    return 1 if any(r["errors"] for r in rows) else 0


def _print_table(rows, sizes):
    methods = []
    for r in rows:
        if r["method"] not in methods:
            methods.append(r["method"])
    print("| n (f32) | " + " | ".join(methods) + " |")
    print("|---" * (len(methods) + 1) + "|")
    for log2n in sizes:
        cells = []
        for m in methods:
            r = [r for r in rows if r["n"] == 1 << log2n and r["method"] == m]
            cells.append("%.1f" % r[0]["us_per_call"] if r else "-")
        print("| 2^%d | %s |" % (log2n, " | ".join(cells)))
    print()
    print("Python layer over the bare C call, host us per call (median):")
    for r in rows:
        if r["overhead_us"] is not None:
            print("  2^%-2d %-24s %+.2f us" % (r["n"].bit_length() - 1, r["method"],
                                              r["overhead_us"]))


if __name__ == "__main__":
    sys.exit(run())
