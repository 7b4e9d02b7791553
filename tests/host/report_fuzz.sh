#!/bin/sh
# report_fuzz.sh GRIDSYNC - `gridsync report` (plots on) on hostile results
# files and --out values, in a fresh temporary folder. For every run: no file
# appears outside the --out folder, the canary command planted every way we
# know (shell quotes, gnuplot system()/backticks/pipes, newlines) never runs,
# the program exits 0, 1 or 2 (not by a signal, not hung) and report.md's
# tables keep their shape. Every results file is also summarised
# (`--summary`, the README's tables) and written as markdown (`--md -`):
# the same checks, nothing written; reported and summarised with a second
# file of another suite (several runs: their paths and environments shown);
# and compared with a plain one (`--compare`, plots on): nothing outside its
# folder.
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

# several files, each giving suites: every planted file with a file of the
# Python suite whose environment holds the payload too (the runs named in
# sentences, sections and the environment), and a plain file under hostile
# names of its own
python_suite='"python": {"columns": ["op", "n", "method", "us_per_call"], "rows": [{"op": "scan", "n": 1024, "method": "torch.cumsum", "us_per_call": 2}, {"op": "scan", "n": 1024, "method": "gridsync.scan", "us_per_call": 1}]}'
several() { # WHAT OUT FILE...: report FILE... --out OUT, then --summary
    label=$1 dest=$2
    shift 2
    run_checked "$label" "$cwd/$dest" /dev/null "$cwd/$dest/report.md" report "$@" --out "$dest"
    run_checked "$label, summary" "$tmp/in" "$tmp/in/summary.md" "$tmp/in/summary.md" \
        report "$@" --summary
}
i=0
while IFS= read -r v; do
    i=$((i + 1))
    doc "{\"gpu\": \"$v\", \"date\": \"$v\", \"cuda_runtime\": \"$v\", \"$v\": \"$v\"}" \
        "$python_suite" >"$tmp/in/python-$i.json"
    several "payload $i, two files" "two-$i" "$tmp/in/planted-$i.json" "$tmp/in/python-$i.json"
done <"$tmp/in/payloads"
doc "$env_ok" "$python_suite" >"$tmp/in/python-plain.json"
k=0
for name in "q';touch PWNED;'" '`touch PWNED`' 'a|b' "nl
x" '<!-- results:end -->' '$(touch PWNED)' '-dash'; do
    k=$((k + 1))
    cp "$tmp/in/python-plain.json" "$tmp/in/$name.json" || exit 1
    several "a results file named '$name'" "named-$k" "$tmp/in/planted-1.json" \
        "$tmp/in/$name.json"
done

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
expect_error "/dev/zero" /dev/zero out-zero 2 "not a regular file"
expect_error "a folder" "$tmp/in" out-folder 2 "cannot read"
printf '%s x\n' "$(cat "$tmp/in/plain.json")" >"$tmp/in/garbage.json"
expect_error "trailing garbage" "$tmp/in/garbage.json" out-garbage 2 "not valid JSON"

# FIFOs: as the results file, as --md, planted in --out: refused at once,
# never waited on (the run's timeout would say so)
mkfifo "$tmp/in/fifo.json" "$tmp/in/fifo.md" || exit 1
expect_error "a FIFO as the results file" "$tmp/in/fifo.json" out-fifo 2 "not a regular file"
run_checked "a FIFO as --md" "$tmp/in" /dev/null /dev/null report "$tmp/in/plain.json" \
    --md "$tmp/in/fifo.md"
grep -q "not a regular file" "$tmp/in/stderr" && [ "$rc" = 1 ] ||
    { echo "FAIL: a FIFO as --md: exit $rc, $(head -c 200 "$tmp/in/stderr")"; fail=1; }

# links, hard links and FIFOs planted in --out, to a file outside it: the
# file outside keeps its bytes (what the report writes is refused, what
# gnuplot writes is cleared first)
for name in report.md plots.gp gnuplot.log barrier.csv barrier-speedup-256.dat \
    barrier-time-256.png; do
    for how in link hard fifo; do
        o="$cwd/planted-$how-$name"
        mkdir -p "$o" && printf 'precious\n' >"$tmp/in/victim" || exit 1
        case $how in
        link) ln -s "$tmp/in/victim" "$o/$name" ;;
        hard) ln "$tmp/in/victim" "$o/$name" ;;
        fifo) mkfifo "$o/$name" ;;
        esac
        run "$name planted in --out as a $how" "$tmp/in/plain.json" "planted-$how-$name"
        if [ "$(cat "$tmp/in/victim")" != precious ]; then
            echo "FAIL: $name planted in --out as a $how: the file outside was written"; fail=1
        fi
    done
done

# what the user typed, echoed in an error: one short line
echo_once() { # the arguments of gridsync: exit 2, one line of error, short
    (cd "$cwd" && exec timeout 60 "$gs" "$@") >/dev/null 2>"$tmp/in/stderr"
    rc=$?
    runs=$((runs + 1))
    if [ "$rc" != 2 ] || [ "$(wc -l <"$tmp/in/stderr")" != 1 ] ||
        [ "$(wc -c <"$tmp/in/stderr")" -gt 600 ]; then
        echo "FAIL: gridsync $(printf '%.30s' "$*" | tr '\n' ' ')...: exit $rc," \
            "$(wc -l <"$tmp/in/stderr") lines, $(wc -c <"$tmp/in/stderr") bytes of error"
        fail=1
    fi
}
for arg in "$long" "a
b" "$(printf 'x\033[31my')"; do
    echo_once report "$arg"
    echo_once report "--$arg"
    echo_once bench --suite "$arg"
    echo_once bench --repeat "$arg"
    echo_once "$arg"
done

# 20,000 rows: every reading near-linear (quadratic took minutes), within a
# generous 20 s each on a loaded 2-core machine
rows20k() { # $1 suite: a results document of 20000 rows
    awk -v suite="$1" 'BEGIN {
        printf "{\"schema\": \"gridsync-results/1\", \"environment\": {\"gpu\": \"G\"}, "
        if (suite == "barrier") {
            n = split("lock,lockfree,flip,tree,cg grid.sync,relaunch,relaunch graph", m, ",")
            printf "\"suites\": {\"barrier\": {\"columns\": [\"threads\", \"blocks\", \"method\", "
            printf "\"us_per_barrier\"], \"rows\": ["
            for (i = 0; i < 20000; ++i)
                printf "%s{\"threads\": 256, \"blocks\": %d, \"method\": \"%s\", " \
                       "\"us_per_barrier\": %g, \"noise\": 0.01, \"samples\": 15}", \
                       i ? "," : "", 1 + int(i / n), m[1 + i % n], 1 + (i % 13) / 10
        } else {
            printf "\"suites\": {\"reduce\": {\"columns\": [\"op\", \"n\", \"method\", "
            printf "\"us_per_call\", \"gb_per_s\"], \"rows\": ["
            for (i = 0; i < 20000; ++i)
                printf "%s{\"op\": \"sum\", \"n\": %d, \"method\": \"%s\", " \
                       "\"us_per_call\": %g, \"gb_per_s\": %d, \"noise\": 0.01}", \
                       i ? "," : "", 1024 + int(i / 2), i % 2 ? "cub" : "gridsync", \
                       1 + (i % 17) / 10, 1 + i
        }
        printf "]}}}\n"
    }'
}
rows20k barrier >"$tmp/in/barrier20k.json" && rows20k reduce >"$tmp/in/reduce20k.json" || exit 1
for what in "report $tmp/in/barrier20k.json --summary" "report $tmp/in/barrier20k.json --md -" \
    "report $tmp/in/reduce20k.json --out big --no-plots" \
    "bench --compare $tmp/in/reduce20k.json $tmp/in/reduce20k.json" \
    "report --compare $tmp/in/barrier20k.json $tmp/in/barrier20k.json --md -"; do
    start=$(date +%s)
    # shellcheck disable=SC2086 # the words of $what (no spaces in $tmp: mktemp's)
    (cd "$cwd" && exec timeout 120 "$gs" $what) >/dev/null 2>"$tmp/in/stderr"
    rc=$? took=$(($(date +%s) - start))
    runs=$((runs + 1))
    if [ "$rc" != 0 ] || [ "$took" -gt 20 ]; then
        echo "FAIL: gridsync ${what#report } on 20000 rows: exit $rc after $took s" \
            "($(head -c 200 "$tmp/in/stderr"))"; fail=1
    fi
done

[ "$fail" = 0 ] && echo "ok: $runs runs of gridsync report on hostile input"
exit $fail
