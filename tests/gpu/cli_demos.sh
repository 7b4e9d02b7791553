#!/usr/bin/env bash
# cli_demos.sh GRIDSYNC - every `gridsync demo` on its non-interactive path,
# and `gridsync check`, on the GPU. The correct versions must be right (exit
# 0 and their lines say so); the broken versions must be reported with what
# they showed, whatever it was. Exit 77 (skipped) without a GPU.
set -uo pipefail
gs=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "cli_demos: SKIP: no NVIDIA GPU"
    exit 77
fi
fail=0
expect() { # expect NAME FILE REGEX: the output must match
    if ! grep -Eq "$3" "$2"; then
        echo "FAIL $1: output lacks /$3/"
        fail=1
    fi
}
run() { # run NAME ARGS...: must exit 0
    local name=$1
    shift
    "$gs" "$@" >"$out/$name.txt" 2>&1
    local rc=$?
    sed 's/^/  | /' "$out/$name.txt"
    [ $rc -eq 0 ] || { echo "FAIL $name: exit $rc"; fail=1; }
}

run bitmap demo bitmap --runs 3 -o "$out/img"
expect bitmap "$out/bitmap.txt" "with __syncthreads\(\): +0 of 3 runs differ"
expect bitmap "$out/bitmap.txt" "without \(--no-sync\): +[0-9]+ of 3 runs differ from the CPU image; at most [0-9]+ of 1048576"
for f in bitmap-sync.png bitmap-nosync.png; do
    [ -s "$out/img/$f" ] || { echo "FAIL bitmap: $f not written"; fail=1; }
done

run missing_sync demo missing-sync --runs 3
expect missing_sync "$out/missing_sync.txt" "reduction with barriers +0 of 3 runs wrong"
expect missing_sync "$out/missing_sync.txt" "matmul +with barriers +0 of 3 runs wrong"
expect missing_sync "$out/missing_sync.txt" "reduction without barriers +[0-9]+ of 3 runs wrong"
expect missing_sync "$out/missing_sync.txt" "(reduce-nosync +[0-9]+ hazards|not found)"

run divergent demo divergent-barrier --time-limit 5
expect divergent "$out/divergent.txt" "correct kernel: +finished correctly"
expect divergent "$out/divergent.txt" "broken kernel: +(hung, stopped after|finished with a wrong result|finished correctly|crashed)"
expect divergent "$out/divergent.txt" "afterwards: the GPU is usable"

run fence demo missing-fence --rounds 20000
expect fence "$out/fence.txt" "relaxed +[0-9]+ rounds, [0-9]+ stale reads"
expect fence "$out/fence.txt" "threadfence +[0-9]+ rounds, [0-9]+ stale reads"
expect fence "$out/fence.txt" "release/acquire +20000 rounds, 0 stale reads"

run oversub demo grid-oversubscribed
expect oversub "$out/oversub.txt" "gs_launch: +GS_ERR_NOT_CORESIDENT: [0-9]+ blocks requested, at most [0-9]+ fit"
expect oversub "$out/oversub.txt" "plain <<<>>> launch: GS_ERR_BARRIER_TIMEOUT: .*missing: block"
# every resident block arrived; the missing ones are exactly those that had not started
max=$(sed -n 's/.*co-resident maximum \([0-9]*\) blocks; requested \([0-9]*\).*/\1/p' "$out/oversub.txt")
expect oversub "$out/oversub.txt" "barrier #1: ${max:-X}/[0-9]+ blocks arrived; missing: blocks ${max:-X}, "

run check check
expect check "$out/check.txt" "^PASS: 0 checks failed"

[ $fail -eq 0 ] && echo "cli_demos: PASS" || echo "cli_demos: FAIL"
exit $fail
