#!/bin/sh
# install_consumer.sh BUILD_DIR SOURCE_DIR NVCC ARCHS - what a user does with
# an installed gridsync: `cmake --install` into a temporary prefix, run the
# installed `gridsync --version` (no LD_LIBRARY_PATH: it must find its own
# libraries), check that the documents it names are installed, then build
# user programs against the prefix every way a user does and run each one:
#   - find_package(gridsync): a C17 program, a CUDA program with a grid
#     barrier, and one on the multi-GPU part (when installed);
#   - pkg-config: the C and CUDA programs, and the multi-GPU one;
#   - plain nvcc with its default static CUDA runtime: `nvcc app.cu -lgridsync`;
#   - the static library: `nvcc app.cu libgridsync.a`.
# A program exits 77 when there is no GPU: then it was built, not run.
set -eu
build=$1; src=$2; nvcc=$3; archs=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$prefix/lib
[ -d "$libdir" ] || libdir=$prefix/lib64
fail=0
run() { # run NAME PROGRAM: 0 passes, 77 is a skip, anything else fails
    name=$1; shift
    if out=$(LD_LIBRARY_PATH="$libdir:${LD_LIBRARY_PATH:-}" "$@" 2>&1); then
        echo "ok: $name: $out"
    else
        rc=$?
        if [ $rc -eq 77 ]; then echo "built, not run (no GPU): $name"
        else echo "FAIL: $name exited $rc: $out"; fail=1; fi
    fi
}

version=$("$prefix/bin/gridsync" --version 2>&1) || { echo "FAIL: installed gridsync --version: $version"; exit 1; }
echo "ok: installed command: $version"

# Every document the programs name (docs/NAME.md in `gridsync help` and in
# the strings of cli/ and tools/) is installed, as share/doc/gridsync/docs/NAME.md,
# and help that names one says where an install keeps it.
docdir=$prefix/share/doc/gridsync
for f in README.md LICENSE CHANGELOG.md; do
    [ -e "$docdir/$f" ] || { echo "FAIL: $f is not installed in share/doc/gridsync"; fail=1; }
done
for cmd in info bench report demo check; do
    text=$("$prefix/bin/gridsync" help "$cmd" 2>&1)
    named=$(printf '%s\n' "$text" | grep -o 'docs/[A-Za-z0-9_.-]*\.md' | sort -u)
    [ -z "$named" ] && continue
    case "$text" in
        *share/doc/gridsync*) ;;
        *) echo "FAIL: gridsync help $cmd names $named without saying where an install keeps it"
           fail=1 ;;
    esac
    for d in $named; do
        [ -e "$docdir/$d" ] || { echo "FAIL: gridsync help $cmd names $d, not installed"; fail=1; }
    done
done
grep -rhoE '"[^"]*docs/[A-Za-z0-9_.-]+\.md' "$src/cli" "$src/tools" |
    grep -oE 'docs/[A-Za-z0-9_.-]+\.md' | sort -u >"$tmp/named"
while read -r d; do
    [ -e "$docdir/$d" ] || { echo "FAIL: a program prints $d, not installed"; fail=1; }
done <"$tmp/named"
[ $fail -eq 0 ] && echo "ok: the documents the programs name are installed"

# One architecture is enough to link and run: the GPU's own when there is one.
arch=${archs%%;*}
if nvidia-smi -L >/dev/null 2>&1; then arch=native; else arch=sm_$arch; fi
[ "$arch" = native ] && cmake_arch=native || cmake_arch=${arch#sm_}

cmake -S "$src/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$cmake_arch" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
run "find_package, C" "$tmp/consumer/consumer"
run "find_package, CUDA" "$tmp/consumer/barrier_consumer"
run "find_package, tasks" "$tmp/consumer/tasks_consumer"
[ -x "$tmp/consumer/multi_consumer" ] && run "find_package, multi-GPU" "$tmp/consumer/multi_consumer"

if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    # shellcheck disable=SC2046 # word splitting of pkg-config's flags is wanted
    cc -std=c17 -Wall -Werror "$src/tests/install/consumer.c" -o "$tmp/pc_consumer" \
        $(pkg-config --cflags --libs gridsync)
    run "pkg-config, C" "$tmp/pc_consumer"
    # shellcheck disable=SC2046
    "$nvcc" -arch="$arch" "$src/tests/install/barrier_consumer.cu" -o "$tmp/pc_barrier" \
        $(pkg-config --cflags --libs gridsync)
    run "pkg-config, CUDA" "$tmp/pc_barrier"
    # shellcheck disable=SC2046
    "$nvcc" -arch="$arch" "$src/tests/install/tasks_consumer.cu" -o "$tmp/pc_tasks" \
        $(pkg-config --cflags --libs gridsync)
    run "pkg-config, tasks" "$tmp/pc_tasks"
    if pkg-config --exists gridsync_multi; then
        # shellcheck disable=SC2046
        "$nvcc" -arch="$arch" "$src/tests/install/multi_consumer.cu" -o "$tmp/pc_multi" \
            $(pkg-config --cflags --libs gridsync_multi)
        run "pkg-config, multi-GPU" "$tmp/pc_multi"
    fi
fi

# nvcc's defaults: the static CUDA runtime in the program, the library's
# kernels in libgridsync's shared one.
"$nvcc" -arch="$arch" -I"$prefix/include" "$src/tests/install/barrier_consumer.cu" \
    -o "$tmp/plain" -L"$libdir" -lgridsync
run "plain nvcc -lgridsync (static runtime)" "$tmp/plain"
"$nvcc" -arch="$arch" -I"$prefix/include" "$src/tests/install/barrier_consumer.cu" \
    -o "$tmp/static" "$libdir/libgridsync.a"
run "plain nvcc libgridsync.a" "$tmp/static"
"$nvcc" -arch="$arch" -I"$prefix/include" "$src/tests/install/tasks_consumer.cu" \
    -o "$tmp/plain_tasks" -L"$libdir" -lgridsync
run "plain nvcc -lgridsync, tasks" "$tmp/plain_tasks"

[ $fail -eq 0 ] && echo "install_consumer: ok"
exit $fail
