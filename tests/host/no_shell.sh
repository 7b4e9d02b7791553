#!/bin/sh
# no_shell.sh SOURCE_DIR - the library and the tools start programs only
# from an argument vector (tools/common/spawn.h): no system(), popen() or
# "sh -c" anywhere in src/, tools/, cli/, internal/ or include/.
cd "$1" || exit 1
found=$(grep -rnE '(^|[^A-Za-z0-9_.>])(system|popen)[[:space:]]*\(|"(/bin/)?sh",[[:space:]]*"-c"' \
    src tools cli internal include)
if [ -n "$found" ]; then
    printf 'FAIL: a shell is used to run programs:\n%s\n' "$found"
    exit 1
fi
echo "ok: no system(), popen() or sh -c in src/, tools/, cli/, internal/, include/"
