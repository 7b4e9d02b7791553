#!/bin/sh
# exported_symbols.sh SOURCE_DIR LIBGRIDSYNC [LIBGRIDSYNC_MULTI] - the shared
# libraries export their public API and nothing else:
#   - every function declared in include/gridsync.h (and the parts it
#     includes, include/gridsync/*_host.h) and gridsync_tasks.h
#     (include/gridsync_multi.h)
#     is in libgridsync.so's (libgridsync_multi.so's) dynamic symbol table,
#   - every symbol defined there is such a declaration, or one of the
#     internals listed, with the reason, in cmake/exported-internals.txt;
#   - the SONAME carries the version policy of cmake/version.cmake:
#     lib<name>.so.0.MINOR while the major version is 0, else .so.MAJOR.
# The declarations are read from the headers' text (public_api.sh).
set -eu
src=$1; lib=$2; multi=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

declared() { "$(dirname "$0")/public_api.sh" "$1"; }
# linker-made symbols some toolchains list with the library's own
linker_symbols='^(_init|_fini|_edata|_end|__bss_start)$'

check() { # check LIBRARY EXPECTED_LIST NAME
    nm -D --defined-only "$1" | awk '{print $NF}' | grep -Ev "$linker_symbols" | sort -u \
        >"$tmp/exported"
    extra=$(comm -13 "$2" "$tmp/exported" | tr '\n' ' ')
    missing=$(comm -23 "$2" "$tmp/exported" | tr '\n' ' ')
    if [ -n "$extra" ]; then
        echo "FAIL: $3 exports $(echo "$extra" | wc -w) symbols outside the public API: $extra"
        fail=1
    fi
    if [ -n "$missing" ]; then
        echo "FAIL: $3 lacks declared functions: $missing"
        fail=1
    fi
    [ -z "$extra" ] && [ -z "$missing" ] &&
        echo "ok: $3 exports exactly its $(wc -l <"$2") functions"
    return 0
}

# The version and the SONAME rule, from the header.
major=$(sed -n -E 's/^#define GS_VERSION_MAJOR +([0-9]+).*/\1/p' "$src/include/gridsync.h")
minor=$(sed -n -E 's/^#define GS_VERSION_MINOR +([0-9]+).*/\1/p' "$src/include/gridsync.h")
if [ "$major" = 0 ]; then soversion=0.$minor; else soversion=$major; fi
soname() { # soname LIBRARY BASENAME
    got=$(readelf -d "$1" | sed -n -E 's/.*\(SONAME\).*\[(.*)\].*/\1/p')
    if [ "$got" = "$2.so.$soversion" ]; then echo "ok: $2 SONAME $got"
    else echo "FAIL: $2 SONAME is '$got', expected $2.so.$soversion"; fail=1; fi
}

{
    declared "$src/include/gridsync.h"
    declared "$src/include/gridsync_tasks.h"
    for h in "$src"/include/gridsync/*_host.h; do declared "$h"; done # gridsync.h's parts
} >"$tmp/public"
if [ "$(wc -l <"$tmp/public")" -lt 40 ]; then
    echo "FAIL: read only $(wc -l <"$tmp/public") declarations from gridsync.h"; exit 1
fi
# the internals' names: the first word of each line that is not a comment
sed -n -E 's/^(gs__[A-Za-z0-9_]+)[[:space:]].*/\1/p' "$src/cmake/exported-internals.txt" \
    >"$tmp/internals"
sort -u "$tmp/public" "$tmp/internals" >"$tmp/expected"
check "$lib" "$tmp/expected" libgridsync.so
soname "$lib" libgridsync

if [ -n "$multi" ]; then
    declared "$src/include/gridsync_multi.h" >"$tmp/multi"
    check "$multi" "$tmp/multi" libgridsync_multi.so
    soname "$multi" libgridsync_multi
fi
[ $fail -eq 0 ] && echo "exported_symbols: ok"
exit $fail
