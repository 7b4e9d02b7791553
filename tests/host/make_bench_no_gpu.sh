#!/bin/sh
# make_bench_no_gpu.sh SOURCE_DIR - without a GPU, `make bench` prints one
# line and fails before it installs, configures or builds anything. Skipped
# (77) where a GPU is present.
src="$1"
if nvidia-smi -L >/dev/null 2>&1 || ls /dev/nvidia[0-9]* /dev/dxg >/dev/null 2>&1; then
    echo "SKIP: a GPU is present"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# not the jobserver of a make that runs this test
out=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL timeout 60 \
      make -C "$src" --no-print-directory bench BUILD_DIR="$tmp/build" 2>&1)
rc=$?
fail=0
[ "$rc" -ne 0 ] || { echo "FAIL: make bench exited 0"; fail=1; }
[ "$rc" -ne 124 ] || { echo "FAIL: make bench did not stop within 60 s"; fail=1; }
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] ||
    { echo "FAIL: make bench printed more than one line:"; printf '%s\n' "$out" | tail -n 5; fail=1; }
case "$out" in
    *"no NVIDIA GPU or driver found"*) ;;
    *) echo "FAIL: make bench does not say there is no GPU: $out"; fail=1 ;;
esac
[ ! -e "$tmp/build" ] || { echo "FAIL: make bench configured or built in $tmp/build"; fail=1; }
[ $fail -eq 0 ] && echo "ok: make bench without a GPU (exit $rc): $out"
exit $fail
