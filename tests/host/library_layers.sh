#!/bin/sh
# library_layers.sh SOURCE_DIR - the library's components (src/barrier,
# reduce, scan, gemm, multi) include their own files and the floor's
# (src/core, src/runtime, internal/), never another component's internals;
# the floor includes no component. Checked on every quoted #include of
# src/ (docs/architecture.md, "Rules that hold across the tree").
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
if [ -n "$bad" ]; then
    printf 'FAIL: library layering:%s\n' "$bad"
    exit 1
fi
echo "ok: every library component includes only its own files, src/core and src/runtime"
