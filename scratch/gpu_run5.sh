#!/usr/bin/env bash
set -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
B=build-gpu
cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DGRIDSYNC_BUILD_TESTS=OFF -DGRIDSYNC_BUILD_CLI=OFF -DGRIDSYNC_BUILD_EXAMPLES=OFF >$OUT/cmake.log 2>&1 || { tail -30 $OUT/cmake.log; exit 1; }
cmake --build $B -j16 --target gridsync >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
N="nvcc -std=c++17 -O3 -arch=sm_90 -cudart shared -Iinclude -Iinternal -Itests/gpu -L$B -lgridsync -Xlinker -rpath=$PWD/$B"
$N scratch/decode_probe.cu -o $B/decode_probe -lcublas
echo "== decode small under memcheck"; timeout 100 compute-sanitizer --tool memcheck --print-limit 3 $B/decode_probe small > $OUT/small.log 2>&1; head -40 $OUT/small.log
echo "== decode"; timeout 200 $B/decode_probe 2>&1 | tee $OUT/decode.log
