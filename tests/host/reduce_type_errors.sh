#!/bin/sh
# reduce_type_errors.sh NVCC INCLUDE_DIR - an element type the reductions and
# scans do not take stops nvcc with one sentence of gridsync's, not with
# errors from inside the headers ("more than one instance of overloaded
# function gs::detail::add", "no instance of overloaded function
# __shfl_down_sync"); a __half given to a sum that adds in float is refused
# too. Each case is a tiny kernel compiled by nvcc (no GPU needed); the same
# kernels on supported types must compile, so that a broken include path
# or compiler cannot pass for the sentence.
set -u
nvcc=$1
include=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
types_sentence='gridsync: reductions take float, double, int, unsigned int, long long, unsigned long long, __half and __nv_bfloat16'
accumulator_sentence="gridsync: the values combined must be the operator's accumulator"

# compile NAME BODY: nvcc's output in $tmp/NAME.log, its status returned.
compile() {
    cat >"$tmp/$1.cu" <<EOF
#include <gridsync/reduce.cuh>
#include <gridsync/scan.cuh>
$2
EOF
    "$nvcc" -std=c++17 -I"$include" -c "$tmp/$1.cu" -o "$tmp/$1.o" >"$tmp/$1.log" 2>&1
}

# refused NAME SENTENCE BODY: the compilation fails, says SENTENCE, and
# reports nothing from inside the headers.
refused() {
    if compile "$1" "$3"; then
        echo "FAIL: $1: compiled, expected \"$2\""
        fail=1
    elif ! grep -qF "$2" "$tmp/$1.log"; then
        echo "FAIL: $1: nvcc did not say \"$2\"; it said:"
        sed 's/^/    /' "$tmp/$1.log" | head -n 20
        fail=1
    elif grep -qE 'instance of overloaded function|no suitable|incomplete type' "$tmp/$1.log"; then
        echo "FAIL: $1: besides the sentence, errors from inside the headers:"
        sed 's/^/    /' "$tmp/$1.log" | head -n 20
        fail=1
    else
        echo "ok: $1: $(grep -c 'error' "$tmp/$1.log") error line(s), the sentence among them"
    fi
}

# accepted NAME BODY: the same shape of kernel on supported types compiles.
accepted() {
    if compile "$1" "$2"; then
        echo "ok: $1 compiles"
    else
        echo "FAIL: $1 does not compile:"
        sed 's/^/    /' "$tmp/$1.log" | head -n 20
        fail=1
    fi
}

refused warp_sum_short "$types_sentence" '
__global__ void k(short *out, short v) { out[0] = gs::warp_reduce(v, 32u, gs::sum<short>()); }'
refused block_max_long "$types_sentence" '
__global__ void k(long *out, long v)
{
    __shared__ long smem[32];
    out[0] = gs::block_reduce(v, smem, gs::max<long>());
}'
refused argmin_unsigned_short "$types_sentence" '
__global__ void k(gs::arg<unsigned short> *out, unsigned short v)
{
    __shared__ gs::arg<unsigned short> smem[32];
    gs::arg<unsigned short> a = {threadIdx.x, v};
    out[0] = gs::block_reduce(a, smem, gs::argmin<unsigned short>());
}'
refused scan_min_char "$types_sentence" '
__global__ void k(char *out, char v)
{
    __shared__ char smem[32];
    out[0] = gs::block_inclusive_scan(v, smem, gs::min<char>());
}'
refused sum_float2 "$types_sentence" '
__global__ void k(float2 *out, float2 v) { out[0] = gs::sum<float2>()(v, v); }'
refused half_summed_in_half "$accumulator_sentence" '
__global__ void k(__half *out, __half v)
{
    __shared__ __half smem[32];
    out[0] = gs::block_reduce(v, smem, gs::sum<__half>());
}'

accepted supported_types '
__global__ void k(float *f, unsigned long long *u, __half *h, __nv_bfloat16 *b)
{
    __shared__ float fs[32];
    __shared__ unsigned long long us[32];
    __shared__ gs::arg<__nv_bfloat16> as[32];
    f[0] = gs::warp_reduce(f[1], 32u, gs::sum<float>());
    u[0] = gs::block_reduce(u[1], us, gs::max<unsigned long long>());
    f[2] = gs::block_reduce(gs::sum<__half>::lift(h[0], 0), fs, gs::sum<__half>());
    gs::arg<__nv_bfloat16> a = {threadIdx.x, b[0]};
    b[1] = gs::block_reduce(a, as, gs::argmin<__nv_bfloat16>()).value;
    h[1] = gs::warp_inclusive_scan(h[0], 32u, gs::min<__half>());
}'

[ "$fail" = 0 ] && echo "PASS: unsupported element types are refused with gridsync's sentence"
exit "$fail"
