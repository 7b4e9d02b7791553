/* help.c - help texts of gridsync and its commands (report's:
 * help_report.c); the lists of suites, demos and checks come from the
 * tools' registries. */
#include <string.h>

#include "results/registry.h"
#include "check/check.h"
#include "demo/demo.h"
#include "commands.h"
#include "help.h"

static const char main_help[] =
    "usage: gridsync [--help | --version] <command> [options]\n"
    "\n"
    "Grid barriers, fences and reductions for NVIDIA GPUs.\n"
    "\n"
    "commands:\n"
    "  info     describe the GPU: SMs, clocks, memory, co-resident blocks\n"
    "  bench    measure synchronization methods against their peers\n"
    "  report   rebuild a report with plots from a saved results file\n"
    "  demo     show a failure the tutorials warn about, next to the fix\n"
    "  check    self-test this GPU and driver (under a minute)\n"
    "  help     show help for a command: gridsync help <command>\n"
    "\n"
    "exit codes: 0 ok, 1 runtime failure, 2 bad usage, 3 no usable GPU\n";

static const char info_help[] =
    "usage: gridsync info [--device N] [--json]\n"
    "\n"
    "Print the GPU's name, compute capability, SM count, clocks, L2 size, shared\n"
    "memory per SM and per block, memory size and theoretical bandwidth, and how\n"
    "many blocks of 128/256/512/1024 threads of a grid-barrier kernel can be\n"
    "resident at once.\n"
    "\n"
    "  -d, --device N   GPU ordinal (default 0)\n"
    "  -j, --json       print JSON instead of text\n";

static const char bench_usage[] =
    "usage: gridsync bench [SUITE...] [options]\n"
    "\n"
    "Measure each synchronization method next to the peers a CUDA programmer\n"
    "would use instead, in the same run, and print a table with the ratios.\n"
    "\n"
    "suites:\n";

static const char bench_options[] =
    "(no suite: all of them; those for several GPUs only where there are)\n"
    "\n"
    "what runs:\n"
    "  -d, --devices LIST    GPUs to run on, e.g. 0 or 0,1 or all (default 0): the\n"
    "                        suites of one GPU run on each in turn, one results file\n"
    "                        each; a suite of several GPUs uses the listed ones\n"
    "                        (--device is the same option)\n"
    "      --suite LIST      the suites to run, e.g. reduce,dot (as naming them)\n"
    "      --list            print the suites (sizes, gridsync's methods, the peers)\n"
    "                        and the GPUs, and run nothing\n"
    "  -t, --threads LIST    block sizes, e.g. 256,1024 (default 256,1024)\n"
    "  -b, --blocks LIST     grid sizes (default 1, 1/SM, 2/SM, co-resident maximum;\n"
    "                        multi: blocks per GPU, default 1 and 1/SM)\n"
    "  -i, --iterations N    exchange iterations per kernel, 2 barriers each (1000)\n"
    "  -s, --sizes LIST      log2 of the sizes the suites sweep (defaults: above)\n"
    "      --quick           a short run (under 15 s): fewer iterations, samples, sizes\n"
    "      --full            every size of every suite (above)\n"
    "\n"
    "how each figure is measured (the median of its samples is reported, with\n"
    "their noise: the relative standard deviation):\n"
    "  -r, --repeat N        exactly N samples (default 15; 5 with --quick)\n"
    "      --min-samples N   NVBench's rule instead: at least N samples (10) ...\n"
    "      --min-time S      ... and S seconds of timed work (0.5) ...\n"
    "      --max-noise P     ... then until the noise is below P percent (0.5), or\n"
    "                        stops going down ...\n"
    "      --timeout S       ... or S seconds have passed (15)\n"
    "      --cold            flush the L2 cache before every sample (NVBench's cold\n"
    "                        measurement; one call per sample); default hot: the L2\n"
    "                        as the previous sample left it. Reports say which.\n"
    "  -w, --warmup N        untimed runs first (2)\n"
    "\n"
    "what is written (FILE '-' or stdout: standard output, stderr: standard error;\n"
    "with several devices FILE gets -dev<N> before its extension):\n"
    "  -j, --json FILE       the results document (fields: docs/results-schema.md,\n"
    "                        under share/doc/gridsync where gridsync is installed)\n"
    "      --csv FILE        every suite's table, one block per suite; a name not\n"
    "                        ending in .csv is a prefix: PREFIX-<suite>.csv\n"
    "      --md FILE         the report's text: summary, tables, environment\n"
    "                        (--markdown is the same option)\n"
    "  -o, --out DIR         DIR/results.json, DIR/bench-<suite>.csv and DIR/report.md\n"
    "                        with plots (see gridsync help report)\n"
    "  -q, --quiet           no progress lines on stderr\n"
    "\n"
    "  --compare OLD.json NEW.json\n"
    "                        measure nothing: NEW against OLD, row by row, as markdown\n"
    "                        on stdout (or --md FILE; --out DIR: compare.md and plots)\n"
    "\n"
    "tuning:\n"
    "      --tree-group N    tree method: blocks per arrival group\n"
    "      --tree-flat-max N tree method: largest grid that uses one counter\n";

static const char demo_usage[] =
    "usage: gridsync demo NAME [options]\n"
    "\n"
    "Run one of the tutorials' failures on this GPU next to the correct version and\n"
    "say what was observed (never invented: zero failures observed is reported as\n"
    "such). The tutorials: docs/tutorials.md (under share/doc/gridsync where\n"
    "gridsync is installed).\n"
    "\n"
    "demos:\n";

static const char demo_options[] =
    "\n"
    "options:\n"
    "  -d, --device N       GPU ordinal (default 0)\n"
    "  -r, --runs N         runs per version (";

static const char demo_more_options[] =
    ")\n"
    "  -o, --out DIR        bitmap: write bitmap-sync.png and bitmap-nosync.png\n"
    "      --rounds N       missing-fence: rounds per version (100000)\n"
    "      --time-limit S   divergent-barrier: seconds before the child is stopped (5)\n"
    "\n"
    "exit: 0 when the correct versions were correct (whatever the broken ones did)\n";

static const char check_usage[] =
    "usage: gridsync check [--device N]\n"
    "\n"
    "Self-test of this GPU and driver in under a minute, one line per check, PASS\n"
    "or FAIL with its figure; exit 0 only if all pass. The checks:\n";

enum { HELP_WIDTH = 79, HELP_INDENT = 12, DEMO_INDENT = 23 };

/* "  NAME      text..." with `text` wrapped at HELP_WIDTH under `indent`. */
static void print_item(FILE *out, const char *name, const char *text, int indent)
{
    int col = fprintf(out, "  %-*s", indent - 3, name);
    while (*text) {
        int word = (int)strcspn(text, " ");
        if (col + 1 + word > HELP_WIDTH && col > indent) {
            fprintf(out, "\n%*s", indent - 1, "");
            col = indent - 1;
        }
        col += fprintf(out, " %.*s", word, text);
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

/* "10,13,16" into buf; three or more consecutive values as "10..30". */
static const char *size_list(const gs_size_list *l, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->count && n < len;) {
        int j = i;
        while (j + 1 < l->count && l->log2[j + 1] == l->log2[j] + 1)
            ++j;
        if (j - i >= 2)
            n += (size_t)snprintf(buf + n, len - n, "%s%d..%d", i ? "," : "", l->log2[i],
                                  l->log2[j]);
        else
            j = i;
        if (j == i)
            n += (size_t)snprintf(buf + n, len - n, "%s%d", i ? "," : "", l->log2[i]);
        i = j + 1;
    }
    return buf;
}

/* `list` (NULL-ended) joined by " / " into buf (names may hold commas). */
static const char *joined(const char *const *list, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (; list && *list && n < len; ++list)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " / " : "", *list);
    return buf;
}

/* One suite: what it measures, its log2 sizes for each preset (for a suite
 * that sweeps sizes), gridsync's methods and the peers, the GPUs it needs. */
static void print_suite(FILE *out, const gs_bench_suite *s)
{
    char text[2048], a[128], b[128], c[128], ours[512], peers[512];
    int n = snprintf(text, sizeof text, "%s", s->help);
    if (s->sizes[GS_PRESET_DEFAULT].count && n < (int)sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "; sizes 2^k, k = %s (--quick %s; --full %s)",
                      size_list(&s->sizes[GS_PRESET_DEFAULT], a, sizeof a),
                      size_list(&s->sizes[GS_PRESET_QUICK], b, sizeof b),
                      size_list(&s->sizes[GS_PRESET_FULL], c, sizeof c));
    if (s->reading && n < (int)sizeof text)
        n += snprintf(text + n, sizeof text - (size_t)n, "; gridsync: %s; peers: %s",
                      joined(s->reading->ours, ours, sizeof ours),
                      joined(s->reading->peers, peers, sizeof peers));
    if (s->min_gpus > 1 && n < (int)sizeof text)
        snprintf(text + n, sizeof text - (size_t)n, "; needs %d or more GPUs", s->min_gpus);
    print_item(out, s->name, text, HELP_INDENT);
}

void gs_print_suites(FILE *out)
{
    for (int i = 0; i < gs_bench_suite_count(); ++i)
        print_suite(out, gs_bench_suite_at(i));
}

void gs_help_bench(FILE *out)
{
    fputs(bench_usage, out);
    gs_print_suites(out);
    fputs(bench_options, out);
}

/* The demos, and the default runs of those that have runs. */
void gs_help_demo(FILE *out)
{
    fputs(demo_usage, out);
    for (int i = 0; i < gs_demo_count(); ++i)
        print_item(out, gs_demo_at(i)->name, gs_demo_at(i)->help, DEMO_INDENT);
    fputs(demo_options, out);
    for (int i = 0, n = 0; i < gs_demo_count(); ++i)
        if (gs_demo_at(i)->default_runs)
            fprintf(out, "%s%s %ld", n++ ? ", " : "", gs_demo_at(i)->name,
                    gs_demo_at(i)->default_runs);
    fputs(demo_more_options, out);
}

void gs_help_check(FILE *out)
{
    fputs(check_usage, out);
    for (int i = 0; i < gs_check_count(); ++i)
        print_item(out, gs_check_at(i)->name, gs_check_at(i)->help, DEMO_INDENT);
}

void gs_help_main(FILE *out) { fputs(main_help, out); }

void gs_help_info(FILE *out) { fputs(info_help, out); }

int gs_print_help(FILE *out, const char *command)
{
    if (!command) {
        gs_help_main(out);
        return 0;
    }
    if (strcmp(command, "info") == 0)
        gs_help_info(out);
    else if (strcmp(command, "bench") == 0)
        gs_help_bench(out);
    else if (strcmp(command, "report") == 0)
        gs_help_report(out);
    else if (strcmp(command, "demo") == 0)
        gs_help_demo(out);
    else if (strcmp(command, "check") == 0)
        gs_help_check(out);
    else if (strcmp(command, "help") == 0)
        fputs("usage: gridsync help <command>\n", out);
    else
        return -1;
    return 0;
}
