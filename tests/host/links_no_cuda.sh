#!/bin/sh
# links_no_cuda.sh PROGRAM... - each program loads no CUDA library (runtime,
# driver, cuBLAS, cuSPARSE, NCCL, NVRTC) and not libgridsync: the report and
# its tests run where the CUDA libraries are not installed.
status=0
for program in "$@"; do
    if ! libs=$(ldd "$program"); then
        echo "links_no_cuda: cannot list the libraries of $program" >&2
        exit 1
    fi
    forbidden='lib(cudart|cuda|cublas|cublasLt|cusparse|nccl|nvrtc|gridsync|gridsync_multi)\.so'
    bad=$(printf '%s\n' "$libs" | grep -E "$forbidden" || true)
    if [ -n "$bad" ]; then
        echo "links_no_cuda: $program loads:" >&2
        printf '%s\n' "$bad" >&2
        status=1
    else
        echo "links_no_cuda: $program: no CUDA library"
    fi
done
exit $status
