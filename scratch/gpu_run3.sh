#!/usr/bin/env bash
set -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
B=build-gpu
cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DGRIDSYNC_BUILD_TESTS=OFF -DGRIDSYNC_BUILD_CLI=OFF -DGRIDSYNC_BUILD_EXAMPLES=OFF >$OUT/cmake.log 2>&1 || { tail -30 $OUT/cmake.log; exit 1; }
cmake --build $B -j16 --target gridsync >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
N="nvcc -std=c++17 -O3 -arch=sm_90 -cudart shared -Iinclude -Iinternal -Itests/gpu -L$B -lgridsync -Xlinker -rpath=$PWD/$B"
$N scratch/decode_probe.cu -o $B/decode_probe -lcublas &
$N -DGS__TASK_COPY_BY_THREAD_ZERO scratch/decode_probe.cu -o $B/decode_probe0 -lcublas &
$N scratch/handoff_probe.cu -o $B/handoff_probe &
$N -DGS__TASK_COPY_BY_THREAD_ZERO scratch/handoff_probe.cu -o $B/handoff_probe0 &
wait
echo "== handoff (copies by thread 32)"; timeout 60 $B/handoff_probe 2>&1 | tee $OUT/handoff.log
echo "== handoff (copies by thread 0)"; timeout 60 $B/handoff_probe0 2>&1 | tee $OUT/handoff0.log
echo "== decode (thread 32)"; timeout 150 $B/decode_probe 2>&1 | tee $OUT/decode.log
echo "== decode (thread 0)"; timeout 150 $B/decode_probe0 2>&1 | grep -v "graph\|cuBLAS" | tee $OUT/decode0.log
