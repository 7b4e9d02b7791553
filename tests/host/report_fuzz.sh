#!/bin/sh
# report_fuzz.sh GRIDSYNC - `gridsync report` (plots on) on hostile results
# files and --out values, in a fresh temporary folder. For every run: no file
# appears outside the --out folder, the canary command planted every way we
# know (shell quotes, gnuplot system()/backticks/pipes, newlines) never runs,
# the program exits 0, 1 or 2 (not by a signal, not hung) and report.md's
# tables keep their shape. Every results file is also summarised
# (`--summary`, the README's tables) and written as markdown (`--md -`):
# the same checks, nothing written; and compared with a plain one
# (`--compare`, plots on): nothing outside its folder.
gs="$1"
case "$gs" in /*) ;; *) gs="$PWD/$gs" ;; esac
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in" "$tmp/work/cwd/sub" && : >"$tmp/in/stderr" || exit 1
cwd="$tmp/work/cwd"
fail=0
runs=0

# Every payload (already escaped for a JSON string), one a line; @TMP@ is
# the temporary folder, for canaries and paths given absolutely.
cat >"$tmp/in/payloads" <<'EOF'
x'; system 'touch PWNED'; y='
x'\nsystem 'touch PWNED'\ny='
x\nsystem(\"touch PWNED\")\n
x'; system 'touch @TMP@/PWNED_abs'; y='
`touch PWNED`
x;touch PWNED;y
x && touch PWNED
x'.`touch PWNED`.'y
$(touch PWNED)
'; touch PWNED; '
\"; touch PWNED; \"
|touch PWNED
<touch PWNED
!touch PWNED
x\n!touch PWNED\n
x\" ; touch PWNED ; \"
\\\"\\'\\\\
../../escaped
../escaped
../../../../../../../../@TMP@/escaped_abs
@TMP@/abs_suite
a|b|c
x\r\ny\u0000z\u001b[31m
 leading space
-dash
..
.
EOF
sed "s|@TMP@|$tmp|g" "$tmp/in/payloads" >"$tmp/in/p" && mv "$tmp/in/p" "$tmp/in/payloads"
long=$(head -c 100000 /dev/zero | tr '\0' A)
printf '%s\n' "$long" >>"$tmp/in/payloads"

# A results document: $1 environment JSON, $2 suites JSON (an object's body).
doc() {
    printf '{"schema": "gridsync-results/1", "environment": %s, "suites": {%s}}\n' "$1" "$2"
}

# One suite of each known kind with `v` planted in its text cells.
suites_with() {
    v=$1
    printf '"barrier": {"title": "%s", "columns": ["threads", "blocks", "method", "us_per_barrier"],' "$v"
    printf ' "rows": [{"threads": "%s", "blocks": 4, "method": "%s", "us_per_barrier": 1},' "$v" "$v"
    printf ' {"threads": 256, "blocks": 8, "method": "lock", "us_per_barrier": 2}]},'
    printf ' "reduce": {"columns": ["op", "n", "method", "gb_per_s", "%s"],' "$v"
    printf ' "rows": [{"op": "%s", "n": 1024, "method": "%s", "gb_per_s": 3, "%s": "%s"},' "$v" "$v" "$v" "$v"
    printf ' {"op": "sum", "n": 2048, "method": "cub", "gb_per_s": 4, "%s": 1}]},' "$v"
    printf ' "dot": {"columns": ["op", "n", "method", "gb_per_s"],'
    printf ' "rows": [{"op": "%s", "n": 8, "method": "%s", "gb_per_s": 1}]},' "$v" "$v"
    printf ' "gemm": {"columns": ["m", "n", "k", "method", "tflop_s"],'
    printf ' "rows": [{"m": 64, "n": 64, "k": 64, "method": "%s", "tflop_s": 1}]},' "$v"
    printf ' "%s": {"columns": ["a"], "rows": [{"a": 1}]}' "$v"
}

# Everything under $tmp but the --out folder $1 (absolute).
listing() {
    if [ -d "$1" ]; then
        find "$tmp" -samefile "$1" -prune -o -print | sort
    else
        find "$tmp" -print | sort
    fi
}

# report.md's tables: every row of a table has its header's cell count.
tables_ok() {
    awk '/^\|/ { line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "|", line)
                 if (!intable) { want = n; intable = 1 } else if (n != want) bad = 1; next }
         { intable = 0 }
         NR == 2 && $0 != "" { bad = 1 }
         END { exit bad }' "$1"
}

# run_checked WHAT KEEP STDOUT MD ARGS...: gridsync ARGS from $cwd (memory
# and time limited), its stdout to STDOUT; then the checks: it exits 0, 1 or
# 2; nothing new under $tmp but in the folder KEEP; the canary never ran;
# when it exits 0, MD's tables keep their shape.
run_checked() {
    what=$1 keep=$2 stdout=$3 md=$4
    shift 4
    before=$(listing "$keep")
    (cd "$cwd" && ulimit -v 2000000 && exec timeout 60 "$gs" "$@") >"$stdout" 2>"$tmp/in/stderr"
    rc=$?
    runs=$((runs + 1))
    after=$(listing "$keep")
    if [ "$rc" != 0 ] && [ "$rc" != 1 ] && [ "$rc" != 2 ]; then
        echo "FAIL: $what: exit $rc ($(head -c 300 "$tmp/in/stderr"))"; fail=1
    fi
    if [ "$before" != "$after" ]; then
        echo "FAIL: $what: files outside $keep:"
        printf '%s\n' "$after" | grep -vxF -e "$before" | head -5; fail=1
    fi
    if [ -n "$(find "$tmp" -name 'PWNED*' -print)" ]; then
        echo "FAIL: $what: the canary ran"; find "$tmp" -name 'PWNED*' -exec rm -f {} +; fail=1
    fi
    if [ "$rc" = 0 ] && ! tables_ok "$md"; then
        echo "FAIL: $what: the tables of $md are broken"; fail=1
    fi
}

# run WHAT FILE OUT: gridsync report FILE --out OUT, nothing outside OUT.
run() {
    case "$3" in /*) abs=$3 ;; *) abs="$cwd/$3" ;; esac
    run_checked "$1" "$abs" /dev/null "$abs/report.md" report "$2" --out "$3"
}

# summarise WHAT FILE: gridsync report FILE --summary (the README's tables),
# nothing written.
summarise() {
    run_checked "$1, summary" "$tmp/in" "$tmp/in/summary.md" "$tmp/in/summary.md" \
        report "$2" --summary
}

# markdown WHAT FILE: gridsync report FILE --md - (the report's text on
# stdout), nothing written.
markdown() {
    run_checked "$1, markdown" "$tmp/in" "$tmp/in/report-stdout.md" "$tmp/in/report-stdout.md" \
        report "$2" --md -
}

# compare WHAT OLD NEW OUT: gridsync report --compare OLD NEW --out OUT,
# nothing outside OUT.
compare() {
    case "$4" in /*) abs=$4 ;; *) abs="$cwd/$4" ;; esac
    run_checked "$1, compare" "$abs" /dev/null "$abs/compare.md" report --compare "$2" "$3" \
        --out "$4"
}

# expect_error WHAT FILE OUT RC WORDS: exits RC with one line of error
# holding WORDS.
expect_error() {
    run "$1" "$2" "$3"
    if [ "$rc" != "$4" ] || [ "$(wc -l <"$tmp/in/stderr")" != 1 ] ||
        ! grep -q "$5" "$tmp/in/stderr"; then
        echo "FAIL: $1: exit $rc, expected $4 with one line saying '$5':"
        head -c 300 "$tmp/in/stderr"; fail=1
    fi
}

env_ok='{"gpu": "NVIDIA H200", "command": "bench"}'
i=0
while IFS= read -r v; do
    i=$((i + 1))
    f="$tmp/in/planted-$i.json"
    doc "{\"gpu\": \"$v\", \"command\": \"$v\", \"$v\": \"$v\"}" "$(suites_with "$v")" >"$f"
    run "payload $i in every text cell" "$f" "out-$i"
    summarise "payload $i in every text cell" "$f"
    markdown "payload $i in every text cell" "$f"
done <"$tmp/in/payloads"

# each planted file against a plain one, both ways (the plain one first,
# so that the suites are in common)
doc "$env_ok" "$(suites_with plain)" >"$tmp/in/plain-old.json"
i=0
while IFS= read -r v; do
    i=$((i + 1))
    compare "payload $i" "$tmp/in/plain-old.json" "$tmp/in/planted-$i.json" "cmp-$i"
    compare "payload $i, reversed" "$tmp/in/planted-$i.json" "$tmp/in/plain-old.json" "pmc-$i"
done <"$tmp/in/payloads"

# wrong types, odd numbers, empty and nested things
set -- \
    '{"schema": "gridsync-results/1", "suites": []}' \
    '{"schema": "gridsync-results/1", "suites": {"reduce": "x", "barrier": 5, "dot": null, "gemm": []}}' \
    "$(doc '[1, 2]' '"reduce": {"columns": "op", "rows": 5}')" \
    "$(doc '"x"' '"reduce": {"columns": [1, null, {"a": 1}, ["x"], "op"], "rows": [1, "x", null, [], {"op": {"a": {"b": 1}}}]}')" \
    "$(doc '{"gpu": {"x": 1}}' '"reduce": {"columns": ["op", "n", "method", "gb_per_s"], "rows": [{"op": 1e308, "n": 1e999, "method": -1e308, "gb_per_s": "NaN"}, {"op": "nan", "n": "inf", "method": "-inf", "gb_per_s": "Infinity"}]}')" \
    "$(doc '{}' '"barrier": {"columns": ["threads", "blocks", "method", "us_per_barrier"], "rows": [{"threads": 1e300, "blocks": -1e300, "method": "m", "us_per_barrier": 1e-300}]}')" \
    "$(doc '{}' '')" \
    "$(doc '{}' '"barrier": {}, "reduce": {"columns": [], "rows": []}, "dot": {"columns": ["op"]}')" \
    "$(doc '{}' '"reduce": {"columns": ["op"], "rows": []}, "reduce": {"columns": ["x"], "rows": [{"x": 1}]}')" \
    '[]' '' 'not json' '{"schema": 1}' "$(head -c 5000 /dev/zero | tr '\0' '[')"
i=0
for d in "$@"; do
    i=$((i + 1))
    printf '%s\n' "$d" >"$tmp/in/odd-$i.json"
    run "odd document $i" "$tmp/in/odd-$i.json" "odd-$i"
    summarise "odd document $i" "$tmp/in/odd-$i.json"
    markdown "odd document $i" "$tmp/in/odd-$i.json"
done

# many facets and series (more than a report plots)
{
    printf '{"schema": "gridsync-results/1", "suites": {"reduce": {"columns": ["op", "n", "method", "gb_per_s"], "rows": ['
    for k in $(seq 1 60); do printf '{"op": "op%d", "n": %d, "method": "m%d", "gb_per_s": 1},' "$k" "$k" "$k"; done
    printf '{"op": "sum", "n": 1, "method": "m", "gb_per_s": 1}]}}}\n'
} >"$tmp/in/many.json"
run "60 facets and series" "$tmp/in/many.json" out-many

# hostile --out values, with a document of every known suite
doc "$env_ok" "$(suites_with plain)" >"$tmp/in/plain.json"
for out in "q';touch PWNED;'" 'q";touch PWNED;"' 'a;touch PWNED' 'with space' '$(touch PWNED)' \
    '`touch PWNED`' "nl
touch PWNED" '-dash' '--out' 'a|b' '../up' './..//up2/.' 'sub/../down' '..' '.' \
    "$tmp/abs-out" "$long"; do
    run "--out '$(printf '%.40s' "$out")'" "$tmp/in/plain.json" "$out"
done

# what is refused: no folder name, files larger than a results file can be,
# what cannot be read
expect_error "--out ''" "$tmp/in/plain.json" "" 2 "needs a folder"
dd if=/dev/zero of="$tmp/in/big.json" bs=1 count=0 seek=67108865 2>/dev/null
expect_error "a file over 64 MiB" "$tmp/in/big.json" out-big 2 "larger than"
expect_error "/dev/zero" /dev/zero out-zero 2 "larger than"
expect_error "a folder" "$tmp/in" out-folder 2 "cannot read"

[ "$fail" = 0 ] && echo "ok: $runs runs of gridsync report on hostile input"
exit $fail
