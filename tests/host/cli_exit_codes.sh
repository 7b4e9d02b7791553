#!/bin/sh
# cli_exit_codes.sh GRIDSYNC - the documented exit codes of the real program:
# 0 ok, 2 bad usage (with a one-line message), 3 no usable GPU.
gs="$1"
fail=0
expect() {
    want=$1; shift
    out=$("$gs" "$@" 2>&1 >/dev/null); got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: gridsync $* exited $got, expected $want ($out)"; fail=1
    elif [ "$want" != 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -gt 1 ] && [ "$want" != 2 ]; then
        echo "FAIL: gridsync $*: more than one line of error: $out"; fail=1
    else
        echo "ok: gridsync $* -> $got"
    fi
}
# usage_error FRAGMENT ARGS...: exit 2 with one line that contains FRAGMENT, in
# the style "gridsync CMD: MESSAGE (see 'gridsync help CMD')" (for gridsync
# itself: "gridsync: MESSAGE (see 'gridsync --help')").
usage_error() {
    frag=$1; shift
    out=$("$gs" "$@" 2>&1 >/dev/null); got=$?
    case "$1" in
        info|bench|report|demo|check) head="gridsync $1: "; tail=" (see 'gridsync help $1')" ;;
        *) head="gridsync: "; tail=" (see 'gridsync --help')" ;;
    esac
    if [ "$got" != 2 ]; then
        echo "FAIL: gridsync $* exited $got, expected 2 ($out)"; fail=1
    elif [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then
        echo "FAIL: gridsync $*: not one line: $out"; fail=1
    else
        case "$out" in
            "$head"*"$frag"*"$tail") echo "ok: gridsync $* -> 2: $out" ;;
            *) echo "FAIL: gridsync $*: expected '$head...$frag...$tail', got: $out"; fail=1 ;;
        esac
    fi
}
expect 0 --help
expect 0 --version
expect 0 help info
expect 0 help bench
expect 0 bench --list
expect 2
expect 2 frobnicate
expect 2 help frobnicate
expect 2 --bogus
expect 2 info --bogus
expect 2 info --device -1
expect 2 bench --repeat abc
expect 2 bench --threads 0
expect 2 bench nosuchsuite
expect 2 bench --suite reduce,nosuch
expect 2 bench --suite
expect 2 bench gemm --sizes 9,x
expect 2 bench reduce --sizes 40
expect 2 bench dot --sizes x
usage_error "--version takes no other arguments" --version extra
usage_error "--version takes no other arguments" -V extra
usage_error "--help takes no other arguments" --help extra
usage_error "--help takes no other arguments" -h info
for cmd in info bench report demo check; do
    expect 0 $cmd --help
    usage_error "--help takes no other arguments" $cmd --help extra
    usage_error "--help takes no other arguments" $cmd extra -h
done
usage_error "--json '/nonexistent/x': folder '/nonexistent' does not exist" bench --json /nonexistent/x
usage_error "--csv '/nonexistent/p': folder '/nonexistent' does not exist" bench --csv /nonexistent/p
usage_error "--json '/dev/null/x': folder '/dev/null' is not a folder" bench reduce --json /dev/null/x
usage_error "--out '/dev/null/o': cannot create it" bench --out /dev/null/o
usage_error "--out '/dev/null/o': cannot create it" demo bitmap --out /dev/null/o
usage_error "unknown option '-Z'" info -Zj
usage_error "unknown option '-Z'" bench -qZ
usage_error "unknown option '-Z'" check -Z
usage_error "unknown option '-Z'" demo -Z bitmap
usage_error "unknown option '-Z'" report -Zn x.json
usage_error "unknown option '--bogus'" info --bogus=1
usage_error "option '--device' needs a value" info --device
usage_error "option '-d' needs a value" info -jd
usage_error "option '--json' takes no value" info --json=yes
usage_error "--suite: a value is required" bench --suite ''
usage_error "--list takes no other arguments" bench --list reduce
usage_error "--suite: empty item in 'reduce,'" bench --suite reduce,
usage_error "empty item in ',dot'" bench --suite ,dot
usage_error "suite argument: a value is required" bench ''
usage_error "empty item in 'reduce,,dot'" bench reduce,,dot
long=$(printf 'dot,%.0s' $(seq 63))dot # 255 characters: the old buffer's size
usage_error "unknown suite 'nosuch'" bench --suite "$long,nosuch"
usage_error "unknown suite 'nosuch'" bench "$long,nosuch"
usage_error "suite 'python' is not measured by gridsync bench" bench python
usage_error "suite 'python' is not measured by gridsync bench" bench --suite scan,python
usage_error "--sizes: empty item in '1,,2'" bench --sizes 1,,2
usage_error "--sizes: empty item in ',3'" bench --sizes ,3
usage_error "--threads: ' 256' is not a whole number" bench --threads ' 256'
usage_error "--threads: '+256' is not a whole number" bench --threads +256
usage_error "--repeat: '+5' is not a whole number" bench --repeat +5
usage_error "--repeat: -5 is out of range" bench --repeat -5
usage_error "--device: ' 0' is not a whole number" info --device ' 0'
# NVBench's options: numbers, device lists, stdout targets, --compare
usage_error "--min-time: 'x' is not a number" bench --min-time x
usage_error "--min-time: '1e3' is not a number" bench --min-time 1e3
usage_error "--max-noise: 200 is out of range" bench --max-noise 200
usage_error "--timeout: '-1' is not a number" bench --timeout -1
usage_error "--min-samples: 0 is out of range" bench --min-samples 0
usage_error "--repeat N takes exactly N samples" bench --repeat 5 --max-noise 1
usage_error "--devices: device 0 named twice" bench --devices 0,0
usage_error "--devices: 'x' is not a whole number" bench -d x
usage_error "only one of --json, --csv and --md can write to stdout" bench --json - --md stdout
usage_error "several devices write one file each" bench --devices all --md -
usage_error "several devices write one file each" bench --devices 0,1 --json -
usage_error "--compare needs two results files" bench --compare x.json
usage_error "--compare measures nothing" bench --compare a.json b.json --cold
usage_error "--compare needs two results files" report --compare x.json
usage_error "expected one or more results files" report --no-plots
usage_error "--md needs a file name or '-'" report x.json --md ''
usage_error "--md: a value is required" bench --md ''
usage_error "--json '/nonexistent/x': folder '/nonexistent' does not exist" bench --json /nonexistent/x --min-samples 5
# --rank-child (internal: bench multi starts itself again with it): one GPU, no outputs, the
# one suite that has a part in another process; refused before any GPU is touched
usage_error "--rank-child is internal" bench multi --rank-child /tmp/none
usage_error "--rank-child is internal" bench multi --rank-child /tmp/none --devices 0,1
usage_error "--rank-child is internal" bench multi --rank-child /tmp/none -d 1 --json -
usage_error "--rank-child is internal" bench multi --rank-child /tmp/none -d 1 --out /tmp
usage_error "--rank-child is internal" bench reduce --rank-child /tmp/none -d 1
usage_error "--rank-child is internal" bench multi,reduce --rank-child /tmp/none -d 1
# --list: every suite, its sizes, gridsync's methods and the peers
list=$("$gs" bench --list 2>/dev/null | tr "\n" " " | tr -s " ") # as one line
for want in barrier reduce dot gemm multi "peers: cg grid.sync / relaunch / relaunch graph" \
    "gridsync: lock / lockfree / flip / tree / flags" "k = 10,13,16,19,22,25,28,30" "devices:"; do
    case "$list" in
        *"$want"*) echo "ok: bench --list names '$want'" ;;
        *) echo "FAIL: bench --list does not name '$want'"; fail=1 ;;
    esac
done
# the flags are in gridsync help bench
helptext=$("$gs" help bench)
for flag in --devices --min-samples --min-time --max-noise --timeout --cold --json --csv --md \
    --list --compare --repeat --out; do
    case "$helptext" in
        *"$flag"*) ;;
        *) echo "FAIL: gridsync help bench does not mention $flag"; fail=1 ;;
    esac
done
expect 0 help demo
expect 0 help check
expect 2 demo
expect 2 demo nosuchdemo
expect 2 demo bitmap --runs 0
expect 2 demo bitmap --runs lots
expect 2 demo missing-fence --rounds -5
expect 2 demo divergent-barrier --time-limit 0
expect 2 demo bitmap extra
expect 2 check --bogus
expect 2 check extra
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    expect 0 info
    expect 0 info --json
else
    expect 3 info
    expect 3 info --json
    # a plain message, and info --json says it on stdout as JSON
    msg=$("$gs" info 2>&1 >/dev/null)
    case "$msg" in
        "gridsync info: no NVIDIA GPU or driver found"*|"gridsync info: no usable NVIDIA GPU"*) echo "ok: $msg" ;;
        *) echo "FAIL: gridsync info without a GPU says: $msg"; fail=1 ;;
    esac
    if "$gs" info --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["devices"] == 0 and d["error"].startswith("no "), d' 2>/dev/null; then
        echo "ok: gridsync info --json without a GPU prints JSON"
    else
        echo "FAIL: gridsync info --json without a GPU: no JSON on stdout"; fail=1
    fi
    expect 3 bench barrier --quiet
    expect 3 bench gemm --quiet
    expect 3 demo bitmap
    expect 3 demo divergent-barrier
    expect 3 check
    # --md -: nothing on stdout without a GPU, the reason on stderr
    out=$("$gs" bench barrier --quiet --md - 2>/dev/null); got=$?
    if [ "$got" = 3 ] && [ -z "$out" ]; then echo "ok: bench --md - without a GPU -> 3, stdout empty"
    else echo "FAIL: bench --md - without a GPU: exit $got, stdout '$out'"; fail=1; fi
    # the output paths are checked before the GPU, and nothing is left behind
    tmp=$(mktemp -d)
    expect 3 bench barrier --quiet --json "$tmp/r.json" --csv "$tmp/t"
    expect 3 bench barrier --quiet --out "$tmp/o"
    expect 3 bench barrier --quiet --md "$tmp/r.md" --csv "$tmp/r.csv" --cold --max-noise 1
    left=$(find "$tmp" -type f)
    if [ -n "$left" ]; then echo "FAIL: files left by bench without a GPU: $left"; fail=1; fi
    rm -rf "$tmp"
fi
exit $fail
