#!/usr/bin/env bash
# install_deps.sh SOURCE_DIR - scripts/install-deps against stub id, dpkg,
# sudo, apt-get and dpkg-deb, a fake system tree (GRIDSYNC_DEPS_SYSROOT) and
# a PATH that holds only basic tools and the stubs' "installed" commands:
#   - it never runs sudo in a way that could ask for a password; as a user
#     without sudo it names what is missing and the command that installs it
#     (exit 1); root installs with apt-get; sudo -n is used where it works;
#     staged packages are the fallback;
#   - it checks what the build finds, not package names: a cmake installed
#     outside dpkg counts, one older than 3.24 does not, and without dpkg it
#     works when the libraries are there;
#   - a missing optional package (gnuplot) never blocks the build;
#   - an empty staged folder is no staged packages: no claimed success, no
#     dpkg-deb error;
#   - apt-get update is bounded (GRIDSYNC_APT_TIMEOUT);
#   - --docs adds doxygen.
# The stub apt-get "installs" a package by creating its files in the fake
# tree (or its command in the PATH); the stub dpkg-deb unpacks NAME.deb the
# same way into its target.
# shellcheck disable=SC2016,SC2034 # check's conditions expand when they run
set -u
src="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
required="cmake libcmocka-dev libcjson-dev libpng-dev zlib1g-dev"

# basic tools only: no real cmake, gnuplot, doxygen, dpkg or apt-get
mkdir -p "$tmp/tools" "$tmp/bin"
for t in basename bash sh chmod env cat cp dirname find grep head ln ls mkdir readlink rm sed sleep sort \
         timeout touch tr wc; do
    ln -s "$(command -v "$t")" "$tmp/tools/$t"
done
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1"; chmod +x "$tmp/bin/$1"; }

# fake_install PKG ROOT CMDDIR: the files the build looks for
cat >"$tmp/fake_install" <<'EOF'
pkg=$1 root=$2 cmds=$3
lib=$root/usr/lib/x86_64-linux-gnu
mkdir -p "$root/usr/include/cjson" "$lib" "$cmds"
command() { printf '#!/bin/sh\necho "%s"\n' "$2" >"$cmds/$1"; chmod +x "$cmds/$1"; }
case $pkg in
    cmake) command cmake "cmake version 3.28.3" ;;
    libcmocka-dev) touch "$root/usr/include/cmocka.h" "$lib/libcmocka.so" ;;
    libcjson-dev) touch "$root/usr/include/cjson/cJSON.h" "$lib/libcjson.so" ;;
    libpng-dev) touch "$root/usr/include/png.h" "$lib/libpng16.so" ;;
    zlib1g-dev) touch "$root/usr/include/zlib.h" "$lib/libz.so" ;;
    gnuplot-nox) command gnuplot "gnuplot 5.4" ;;
    doxygen) command doxygen "1.9.8" ;;
esac
EOF
stub id 'if [ "$1" = -u ]; then echo "$STUB_UID"; else echo "uid=$STUB_UID"; fi'
stub dpkg 'echo "dpkg-query: package '"'"'$2'"'"' is not installed" >&2; exit 1'
# apt-get: logs its arguments; update fails offline, hangs with STUB_APT_HANG;
# install fails offline, before an update with STUB_APT_NEEDS_UPDATE, and for
# the packages in STUB_APT_UNAVAILABLE
stub apt-get 'echo "$*" >>"$STUB_LOG/apt"
case "$1" in
update)
    [ "${STUB_APT_HANG:-0}" = 1 ] && sleep 60
    [ "${STUB_APT_OFFLINE:-0}" = 1 ] && exit 100
    touch "$STUB_LOG/updated"; exit 0 ;;
install)
    [ "${STUB_APT_OFFLINE:-0}" = 1 ] && exit 100
    [ "${STUB_APT_NEEDS_UPDATE:-0}" = 1 ] && [ ! -e "$STUB_LOG/updated" ] && exit 100
    for p in "$@"; do
        case " ${STUB_APT_UNAVAILABLE:-} " in *" $p "*) echo "E: Unable to locate package $p" >&2; exit 100 ;; esac
    done
    for p in "$@"; do
        case "$p" in -*|install) ;; *) sh "$STUB_FAKE" "$p" "$GRIDSYNC_DEPS_SYSROOT" "$STUB_CMDS" ;; esac
    done ;;
esac
exit 0'
stub dpkg-deb '[ "$1" = -x ] || exit 2
[ -s "$2" ] || { echo "dpkg-deb: error: $2: not a Debian archive" >&2; exit 2; }
sh "$STUB_FAKE" "$(basename "$2" .deb)" "$3" "$STUB_CMDS"'
# sudo -n runs the command only when STUB_SUDO_NOPASSWD=1; sudo without -n
# would prompt: recorded, and it fails
stub sudo 'echo "$*" >>"$STUB_LOG/sudo"
if [ "$1" != -n ]; then echo "interactive sudo" >>"$STUB_LOG/interactive"; exit 1; fi
shift
[ "$STUB_SUDO_NOPASSWD" = 1 ] || { echo "sudo: a password is required" >&2; exit 1; }
exec "$@"'

fail=0
# run NAME UID NOPASSWD [SETUP...]: a fresh tree and fake system; the SETUP
# words: staged (a .deb of every staged package), staged-empty (.deps/debs
# without files), has:PKG (PKG installed beforehand), old-cmake, no-dpkg.
# Extra environment through ENV_EXTRA (words VAR=VALUE); ARGS: the
# script's arguments. Sets rc, out (stdout and stderr), elapsed (s).
run() {
    name=$1 uid=$2 nopasswd=$3
    shift 3
    rm -rf "$tmp/repo" "$tmp/log" "$tmp/sys" "$tmp/cmds" "$tmp/bin-run"
    mkdir -p "$tmp/repo/scripts" "$tmp/log" "$tmp/sys" "$tmp/cmds"
    cp -r "$tmp/bin" "$tmp/bin-run"
    cp "$src/scripts/install-deps" "$tmp/repo/scripts/"
    for w in "$@"; do
        case $w in
            staged) mkdir -p "$tmp/repo/.deps/debs"
                    for p in libcmocka-dev libcjson-dev libpng-dev zlib1g-dev; do
                        echo deb >"$tmp/repo/.deps/debs/$p.deb"
                    done ;;
            staged-empty) mkdir -p "$tmp/repo/.deps/debs" ;;
            has:*) sh "$tmp/fake_install" "${w#has:}" "$tmp/sys" "$tmp/cmds" ;;
            old-cmake) printf '#!/bin/sh\necho "cmake version 3.16.3"\n' >"$tmp/cmds/cmake"
                       chmod +x "$tmp/cmds/cmake" ;;
            no-dpkg) rm -f "$tmp/bin-run/dpkg" "$tmp/bin-run/dpkg-deb" ;;
        esac
    done
    start=$(date +%s)
    # shellcheck disable=SC2086 # ENV_EXTRA and ARGS are word lists
    out=$(env -i PATH="$tmp/bin-run:$tmp/cmds:$tmp/tools" HOME="$tmp" STUB_UID="$uid" \
          STUB_SUDO_NOPASSWD="$nopasswd" STUB_LOG="$tmp/log" STUB_FAKE="$tmp/fake_install" \
          STUB_CMDS="$tmp/cmds" GRIDSYNC_DEPS_SYSROOT="$tmp/sys" ${ENV_EXTRA:-} \
          "$tmp/tools/timeout" 30 "$tmp/repo/scripts/install-deps" ${ARGS:-} </dev/null 2>&1)
    rc=$?
    elapsed=$(( $(date +%s) - start ))
    if [ -e "$tmp/log/interactive" ]; then
        echo "FAIL: $name: sudo ran without -n (could ask for a password): $(cat "$tmp/log/sudo")"
        fail=1
    fi
}
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1 (exit $rc): $out"; fail=1; fi; }
# shellcheck disable=SC2317 # called from check's conditions
installed_with() { grep -qs -- "^install -y -qq --no-install-recommends $1\$" "$tmp/log/apt"; }
libraries=(has:libcmocka-dev has:libcjson-dev has:libpng-dev has:zlib1g-dev)
everything=(has:cmake "${libraries[@]}" has:gnuplot-nox)

run "user without sudo" 1000 0
check "user without sudo: exit 1" '[ $rc -eq 1 ]'
check "user without sudo: one line" '[ "$(printf "%s\n" "$out" | wc -l)" -eq 1 ]'
check "user without sudo: names the packages and the command" \
      '[[ "$out" == *"sudo apt-get install -y --no-install-recommends $required"* ]]'
check "user without sudo: names the staged route" '[[ "$out" == *"--stage"* ]]'
check "user without sudo: apt-get not run" '[ ! -e "$tmp/log/apt" ]'

run "user with sudo -n" 1000 1
check "user with sudo -n: exit 0" '[ $rc -eq 0 ]'
check "user with sudo -n: installs through it" 'installed_with "$required"'
check "user with sudo -n: and gnuplot" 'installed_with gnuplot-nox'

run "root" 0 0
check "root: exit 0" '[ $rc -eq 0 ]'
check "root: installs with apt-get" 'installed_with "$required"'
check "root: no sudo" '[ ! -e "$tmp/log/sudo" ]'

ENV_EXTRA="STUB_APT_NEEDS_UPDATE=1" run "root, stale package lists" 0 0
check "stale lists: updates, then installs" '[ $rc -eq 0 ] && [ -e "$tmp/log/updated" ]'

# (the stub dpkg knows none of them: cmake and the libraries found outside dpkg)
run "nothing missing" 1000 0 "${everything[@]}"
check "nothing missing: exit 0, silent, apt-get not run" \
      '[ $rc -eq 0 ] && [ -z "$out" ] && [ ! -e "$tmp/log/apt" ]'

run "user without sudo, staged packages" 1000 0 staged has:cmake has:gnuplot-nox
check "staged: exit 0" '[ $rc -eq 0 ]'
check "staged: unpacked into .deps/root" '[ -e "$tmp/repo/.deps/root/usr/include/cmocka.h" ]'
check "staged: says so" '[[ "$out" == *"unpacked staged packages"* ]]'

run "staged packages, no cmake" 1000 0 staged
check "staged without cmake: exit 1 naming cmake" '[ $rc -eq 1 ] && [[ "$out" == *"cmake >= 3.24"* ]]'
check "staged without cmake: no success claimed" '[[ "$out" != *"unpacked staged"* ]]'

run "user without sudo, empty staged folder" 1000 0 staged-empty has:cmake
check "empty staged folder, user: exit 1" '[ $rc -eq 1 ]'
check "empty staged folder, user: no success claimed" '[[ "$out" != *"unpacked"* ]]'
check "empty staged folder, user: names the packages" \
      '[[ "$out" == *"install -y --no-install-recommends libcmocka-dev"* ]]'

ENV_EXTRA="STUB_APT_OFFLINE=1" run "root offline, empty staged folder" 0 0 staged-empty
check "empty staged folder, root offline: exit 1 with the one line" \
      '[ $rc -eq 1 ] && [[ "$out" == *"the build needs"* ]]'
check "empty staged folder, root offline: no dpkg error" '[[ "$out" != *dpkg* ]]'

run "only gnuplot missing, user without sudo" 1000 0 has:cmake "${libraries[@]}"
check "gnuplot missing: exit 0" '[ $rc -eq 0 ]'
check "gnuplot missing: one note naming it" \
      '[[ "$out" == *"gnuplot-nox"* ]] && [ "$(printf "%s\n" "$out" | wc -l)" -eq 1 ]'

ENV_EXTRA="STUB_APT_UNAVAILABLE=gnuplot-nox" run "root, gnuplot not in the registry" 0 0
check "gnuplot unavailable: the build's packages installed, exit 0" \
      '[ $rc -eq 0 ] && installed_with "$required"'
check "gnuplot unavailable: a note" '[[ "$out" == *"gnuplot"*"optional"* ]]'

run "cmake too old" 1000 0 old-cmake "${libraries[@]}" has:gnuplot-nox
check "cmake 3.16: exit 1 naming cmake" \
      '[ $rc -eq 1 ] && [[ "$out" == *"cmake >= 3.24"* ]] && [[ "$out" == *"--no-install-recommends cmake"* ]]'

run "no dpkg" 1000 0 no-dpkg "${everything[@]}"
check "no dpkg, everything present: exit 0" '[ $rc -eq 0 ] && [ -z "$out" ]'

ENV_EXTRA="STUB_APT_HANG=1 STUB_APT_NEEDS_UPDATE=1 GRIDSYNC_APT_TIMEOUT=2" run "apt-get update hangs" 0 0
check "apt-get update hangs: bounded (${elapsed} s)" '[ "$elapsed" -lt 20 ] && [ $rc -ne 124 ]'
check "apt-get update hangs: says so" '[[ "$out" == *"within 2 s"* ]]'

ARGS=--docs run "--docs" 0 0 "${everything[@]}"
check "--docs: installs doxygen" '[ $rc -eq 0 ] && installed_with doxygen'
run "without --docs" 0 0 "${everything[@]}"
check "without --docs: no doxygen" '[ ! -e "$tmp/log/apt" ]'
exit $fail
