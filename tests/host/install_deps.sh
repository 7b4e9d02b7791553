#!/usr/bin/env bash
# install_deps.sh SOURCE_DIR - scripts/install-deps with stub id, dpkg, sudo,
# apt-get and dpkg-deb first on PATH (every package missing): it never runs
# sudo in a way that could ask for a password; as a user without sudo it
# names the missing packages and the command that installs them (exit 1);
# root installs with apt-get; sudo -n is used where it works; staged
# packages are the fallback.
set -u
src="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkgs="cmake libcmocka-dev libcjson-dev libpng-dev gnuplot-nox"
mkdir -p "$tmp/bin"
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1"; chmod +x "$tmp/bin/$1"; }
stub id 'if [ "$1" = -u ]; then echo "$STUB_UID"; else echo "uid=$STUB_UID"; fi'
stub dpkg 'echo "dpkg-query: package '"'"'$2'"'"' is not installed" >&2; exit 1'
stub apt-get 'echo "$*" >>"$STUB_LOG/apt"; exit 0'
stub dpkg-deb 'mkdir -p "$3" && touch "$3/unpacked"'
# sudo -n runs the command only when STUB_SUDO_NOPASSWD=1; sudo without -n
# would prompt: recorded, and it fails
stub sudo 'echo "$*" >>"$STUB_LOG/sudo"
if [ "$1" != -n ]; then echo "interactive sudo" >>"$STUB_LOG/interactive"; exit 1; fi
shift
[ "$STUB_SUDO_NOPASSWD" = 1 ] || { echo "sudo: a password is required" >&2; exit 1; }
exec "$@"'

fail=0
# run NAME UID NOPASSWD STAGED: a fresh tree; sets rc, out (stdout and stderr)
run() {
    name=$1
    rm -rf "$tmp/repo" "$tmp/log"; mkdir -p "$tmp/repo/scripts" "$tmp/log"
    cp "$src/scripts/install-deps" "$tmp/repo/scripts/"
    [ "$4" = 1 ] && mkdir -p "$tmp/repo/.deps/debs" && touch "$tmp/repo/.deps/debs/a.deb"
    out=$(PATH="$tmp/bin:$PATH" STUB_UID=$2 STUB_SUDO_NOPASSWD=$3 STUB_LOG="$tmp/log" \
          timeout 30 "$tmp/repo/scripts/install-deps" </dev/null 2>&1)
    rc=$?
    if [ -e "$tmp/log/interactive" ]; then
        echo "FAIL: $name: sudo ran without -n (could ask for a password): $(cat "$tmp/log/sudo")"
        fail=1
    fi
}
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1 (exit $rc): $out"; fail=1; fi; }

run "user without sudo" 1000 0 0
check "user without sudo: exit 1" '[ $rc -eq 1 ]'
check "user without sudo: one line" '[ "$(printf "%s\n" "$out" | wc -l)" -eq 1 ]'
check "user without sudo: names the packages and the command" \
      '[[ "$out" == *"sudo apt-get install -y --no-install-recommends $pkgs"* ]]'
check "user without sudo: names the staged route" '[[ "$out" == *"--stage"* ]]'
check "user without sudo: apt-get not run" '[ ! -e "$tmp/log/apt" ]'

run "user with sudo -n" 1000 1 0
check "user with sudo -n: exit 0" '[ $rc -eq 0 ]'
check "user with sudo -n: installs through it" \
      'grep -qsx -- "install -y -qq --no-install-recommends $pkgs" "$tmp/log/apt"'

run "root" 0 0 0
check "root: exit 0" '[ $rc -eq 0 ]'
check "root: installs with apt-get" \
      'grep -qsx -- "install -y -qq --no-install-recommends $pkgs" "$tmp/log/apt"'
check "root: no sudo" '[ ! -e "$tmp/log/sudo" ]'

run "user without sudo, staged packages" 1000 0 1
check "staged: exit 0" '[ $rc -eq 0 ]'
check "staged: unpacked" '[ -e "$tmp/repo/.deps/root/unpacked" ]'
exit $fail
