#!/bin/sh
# install_consumer.sh BUILD_DIR SOURCE_DIR - `cmake --install` into a temporary
# prefix, then build a user's program against it twice: with find_package
# (CMake package config) and with pkg-config.
set -eu
build=$1; src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/tests/install" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
LD_LIBRARY_PATH="$tmp/prefix/lib:${LD_LIBRARY_PATH:-}" "$tmp/consumer/consumer"
if command -v pkg-config >/dev/null 2>&1; then
    PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" cc -std=c17 -Wall -Werror \
        "$src/tests/install/consumer.c" -o "$tmp/pc_consumer" \
        $(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs gridsync)
    LD_LIBRARY_PATH="$tmp/prefix/lib:${LD_LIBRARY_PATH:-}" "$tmp/pc_consumer"
fi
echo "install_consumer: ok"
