#!/bin/sh
# library_layers.sh SOURCE_DIR - the library's components (src/barrier,
# reduce, scan, gemm, multi) include their own files and the floor's
# (src/core, src/runtime, internal/), never another component's internals;
# the floor includes no component. Checked on every quoted #include of
# src/ (docs/architecture.md, "Rules that hold across the tree").
# The device internals (include/gridsync/detail/<component>/) include their
# own component's and the ones below it in the table `below` (core under
# everything), nothing else; and every function they define is named as an
# internal (gs__name, or inside namespace gs::detail), never gs_name, which
# is the public API's. And the library (src/, include/) includes nothing of
# tools/, tests/ or cli/.
cd "$1" || exit 1
bad=""
for dir in src/*/; do
    comp=$(basename "$dir")
    for f in "$dir"*; do
        [ -f "$f" ] || continue
        # every "../X/..." a file of this component includes
        for other in $(sed -n 's@^[[:space:]]*#[[:space:]]*include[[:space:]]*"\.\./\([A-Za-z0-9_]*\)/.*@\1@p' "$f"); do
            case "$other" in
            core | runtime | .. ) ;;  # the floor; ../../internal is the internal API
            "$comp") ;;
            *) bad="$bad
$f includes src/$other (another component's internals)" ;;
            esac
            case "$comp/$other" in
            core/runtime) bad="$bad
$f: the core includes the runtime (the floor's order is core, then runtime)" ;;
            esac
        done
    done
done
# detail/<component>: what each may include besides itself
below() {
    case "$1" in
    core) echo "" ;;
    barrier | reduce | gemm) echo "core" ;;
    scan) echo "core reduce" ;;
    tasks) echo "core barrier" ;;
    scoped) echo "core barrier reduce scan" ;;
    multi) echo "core barrier reduce scoped" ;;
    *) echo "?" ;;
    esac
}
for dir in include/gridsync/detail/*/; do
    comp=$(basename "$dir")
    allowed=$(below "$comp")
    if [ "$allowed" = "?" ]; then
        bad="$bad
$dir: a component the table in tests/host/library_layers.sh does not list"
        continue
    fi
    for f in "$dir"*; do
        [ -f "$f" ] || continue
        for other in $(sed -n 's@^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]gridsync/detail/\([A-Za-z0-9_]*\)/.*@\1@p' "$f"); do
            ok=0
            for a in "$comp" $allowed; do [ "$other" = "$a" ] && ok=1; done
            [ $ok = 1 ] || bad="$bad
$f includes detail/$other (allowed: $comp $allowed)"
        done
        # a function defined at the start of a line with a public-looking name
        defs=$(grep -nE '^[A-Za-z_][A-Za-z0-9_ *]*[ *]gs_[a-z][A-Za-z0-9_]*[[:space:]]*\(' "$f" |
               grep -vE '^[0-9]+:[[:space:]]*(return|typedef|#)' || true)
        [ -z "$defs" ] || bad="$bad
$f defines a public-looking name (internals are gs__name or gs::detail): $defs"
    done
done
for f in include/gridsync/detail/*.h include/gridsync/detail/*.cuh; do
    [ -f "$f" ] && bad="$bad
$f: directly in detail/ (each internal header belongs to a component folder)"
done
# the library (src/, include/) never includes a tool, a test or the CLI
for f in $(find src include -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \)); do
    hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([.][.]/)*(tools|tests|cli|suites|harness|results|report|testing|common)/' "$f" || true)
    [ -z "$hits" ] || bad="$bad
$f includes a tool, a test or the CLI: $hits"
done
if [ -n "$bad" ]; then
    printf 'FAIL: library layering:%s\n' "$bad"
    exit 1
fi
echo "ok: every library component includes only its own files, src/core and src/runtime; every detail/ component only those below it, and names its functions as internals; the library includes no tool"
