#!/usr/bin/env bash
# racecheck_nosync.sh TARGET - compute-sanitizer racecheck must find
# shared-memory hazards in the tiled16 kernel with its barriers removed, and
# none in the real one. Exit 77 (skipped) without a GPU or compute-sanitizer.
set -uo pipefail
target=$1
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "racecheck_nosync: SKIP: no NVIDIA GPU"
    exit 77
fi
if [ ! -x "$sanitizer" ]; then
    echo "racecheck_nosync: SKIP: compute-sanitizer not found"
    exit 77
fi
hazards() {
    "$sanitizer" --tool racecheck "$target" "$1" 2>&1 |
        sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' | tail -n 1
}
sync=$(hazards sync)
nosync=$(hazards nosync)
echo "racecheck_nosync: tiled16 ${sync:-?} hazards, tiled16 without barriers ${nosync:-?} hazards"
[ "${sync:-x}" = 0 ] || { echo "FAIL: the real kernel must have no hazards"; exit 1; }
[ "${nosync:-0}" -gt 0 ] || { echo "FAIL: racecheck saw no hazard in the nosync kernel"; exit 1; }
echo "racecheck_nosync: PASS"
