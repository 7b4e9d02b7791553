#!/bin/sh
# api_docs.sh SOURCE_DIR - the API reference (`make docs`: Doxyfile over the
# public headers, through scripts/doxygen-filter) builds without a warning
# and lists every function the public headers declare (public_api.sh).
# Skipped (77) where doxygen is not installed: make test never needs it
# (make docs installs it with scripts/install-deps --docs).
set -eu
src=$1
command -v doxygen >/dev/null 2>&1 || { echo "doxygen not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
(cd "$src" && GS_DOCS_OUT="$tmp" GS_VERSION=test doxygen Doxyfile) >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; echo "FAIL: doxygen failed"; exit 1; }
if [ -s "$tmp/doxygen-warnings.log" ]; then
    head -n 20 "$tmp/doxygen-warnings.log"
    echo "FAIL: $(wc -l <"$tmp/doxygen-warnings.log") doxygen warnings"; fail=1
fi
for h in gridsync.h gridsync_tasks.h gridsync_multi.h \
    $(cd "$src/include" && ls gridsync/*_host.h); do
    page=$tmp/api/$(basename "$h" | sed 's/_/__/g; s/\./_8/').html
    [ -e "$page" ] || { echo "FAIL: no page for $h"; fail=1; continue; }
    n=0
    for f in $("$src/tests/install/public_api.sh" "$src/include/$h"); do
        n=$((n + 1))
        grep -q ">$f<" "$page" || { echo "FAIL: $f is not in the reference of $h"; fail=1; }
    done
    echo "ok: $h: $n functions in the reference"
done
[ $fail -eq 0 ] && echo "api_docs: ok"
exit $fail
