#!/usr/bin/env bash
# first GPU look: the task runtime's tests and the decode probe
set -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
B=build-gpu
nvidia-smi -L
cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DGRIDSYNC_BUILD_TESTS=OFF -DGRIDSYNC_BUILD_CLI=OFF -DGRIDSYNC_BUILD_EXAMPLES=OFF >$OUT/cmake.log 2>&1 || { tail -30 $OUT/cmake.log; exit 1; }
cmake --build $B -j16 --target gridsync >$OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
N="nvcc -std=c++17 -O3 -arch=sm_90 -cudart shared -Iinclude -Iinternal -Itests/gpu -L$B -lgridsync -Xlinker -rpath=$PWD/$B"
$N tests/gpu/test_tasks.cu -o $B/gpu_tasks &
$N tests/gpu/test_tasks_watchdog.cu -o $B/gpu_tasks_watchdog &
$N scratch/decode_probe.cu -o $B/decode_probe -lcublas &
wait
echo "== watchdog"; timeout 120 $B/gpu_tasks_watchdog 2>&1 | tee $OUT/watchdog.log | tail -12
echo "== tasks"; timeout 300 $B/gpu_tasks 2>&1 | tee $OUT/tasks.log | tail -22
echo "== decode"; timeout 240 $B/decode_probe 2>&1 | tee $OUT/decode.log
