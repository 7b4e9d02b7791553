#!/bin/sh
# install_subproject.sh add_subdirectory|fetchcontent SOURCE_DIR NVCC ARCHS -
# gridsync inside another CMake project (tests/install/subproject/MODE): the
# parent configures, builds and installs; then
#   - only the library is built: no test, CLI, example, docs or CTest
#     dashboard target appears;
#   - nothing is forced on the parent: its CMAKE_BUILD_TYPE stays as it set
#     it (empty here), no BUILD_TESTING or DartConfiguration.tcl from
#     include(CTest);
#   - `cmake --install` of the parent works: with GRIDSYNC_INSTALL on
#     (add_subdirectory) the library, headers, package files and docs are
#     installed beside the parent's programs; with the defaults
#     (fetchcontent) only the parent's program, linked to the static library;
#   - the installed programs run (exit 77 without a GPU counts: built).
# One architecture (the first of ARCHS) keeps the library's build short.
set -eu
mode=$1; src=$2; nvcc=$3; archs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
b=$tmp/build; prefix=$tmp/prefix
fail=0
ok() { echo "ok: $mode: $1"; }
bad() { echo "FAIL: $mode: $1"; fail=1; }

log=$tmp/log
if ! cmake -S "$src/tests/install/subproject/$mode" -B "$b" -DGRIDSYNC_SOURCE_DIR="$src" \
        -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="${archs%%;*}" >"$log" 2>&1; then
    tail -n 30 "$log"; echo "FAIL: $mode: the parent project does not configure"; exit 1
fi
ok "configured"

targets=$(cmake --build "$b" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
unwanted=$(printf '%s\n' "$targets" |
    grep -E '^(test_|gpu_|host_|example_|gemm_race|gridsync_(tool|cli|bench|report|demo|check|tools)|docs$|Experimental|Nightly|Continuous)' |
    tr '\n' ' ' || true)
if [ -n "$unwanted" ]; then
    # shellcheck disable=SC2086 # the names, one word each
    set -- $unwanted
    bad "$# targets beyond the library: $(echo "$unwanted" | cut -d' ' -f1-12) ..."
else ok "library targets only"; fi

cache=$b/CMakeCache.txt
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
if [ -n "$build_type" ]; then bad "CMAKE_BUILD_TYPE forced into the parent's cache: $build_type"
else ok "the parent's build type left alone"; fi
if grep -q '^BUILD_TESTING:' "$cache" || [ -e "$b/DartConfiguration.tcl" ]; then
    bad "include(CTest) ran: BUILD_TESTING or DartConfiguration.tcl in the parent"
else ok "no CTest side effects"; fi

if ! cmake --build "$b" -j "$(nproc)" >"$log" 2>&1; then
    tail -n 30 "$log"; echo "FAIL: $mode: the parent project does not build"; exit 1
fi
ok "built"
if ! cmake --install "$b" --prefix "$prefix" >"$log" 2>&1; then
    tail -n 30 "$log"; echo "FAIL: $mode: the parent's cmake --install fails"; exit 1
fi
ok "installed"

libdir=$prefix/lib
[ -d "$libdir" ] || libdir=$prefix/lib64
run() { # run NAME PROGRAM: 0 passes, 77 (no GPU) counts as built
    if out=$(LD_LIBRARY_PATH="$libdir:${LD_LIBRARY_PATH:-}" "$2" 2>&1); then ok "$1 runs: $out"
    else
        rc=$?
        if [ $rc -eq 77 ]; then ok "$1 built, not run (no GPU)"
        else bad "$1 exited $rc: $out"; fi
    fi
}
if [ "$mode" = add_subdirectory ]; then
    for f in include/gridsync.h include/gridsync/barrier.cuh "${libdir#"$prefix"/}"/cmake/gridsync/gridsyncConfig.cmake \
             "${libdir#"$prefix"/}"/pkgconfig/gridsync.pc share/doc/gridsync/LICENSE \
             share/doc/gridsync/CHANGELOG.md share/doc/gridsync/docs/results-schema.md; do
        [ -e "$prefix/$f" ] || bad "installed tree lacks $f"
    done
    ls "$libdir"/libgridsync.so.* >/dev/null 2>&1 || bad "installed tree lacks libgridsync.so"
    [ -e "$prefix/bin/gridsync" ] && bad "the CLI was installed"
    run "installed C program" "$prefix/bin/parent_c"
    run "installed CUDA program" "$prefix/bin/parent_cuda"
else
    [ -e "$prefix/include/gridsync.h" ] && bad "gridsync installed with GRIDSYNC_INSTALL off"
    run "installed C program (static library)" "$prefix/bin/parent_c"
fi
[ $fail -eq 0 ] && echo "install_subproject $mode: ok"
exit $fail
