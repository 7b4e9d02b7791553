/* cmd_report.c - `gridsync report FILE.json... [--out DIR] [--no-plots]`:
 * rebuild the report and plots from saved results (no GPU needed), each
 * suite from the last file given that has it (report/sources.h);
 * `--md FILE|-`: the report's text alone; `--compare OLD NEW`: two runs
 * side by side; `--summary` / `--readme FILE`: the README's summary tables
 * instead; `--columns [--readme FILE]`: every suite's columns. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/files.h"
#include "report/doc_block.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/schema.h"
#include "report/sources.h"
#include "report/summary.h"
#include "args.h"
#include "commands.h"

/* What a report command writes. */
enum report_mode { REPORT_FOLDER, REPORT_SUMMARY, REPORT_COLUMNS };

/* The summary tables of the `n` results files (mode REPORT_SUMMARY) or the
 * columns table (REPORT_COLUMNS): on stdout, or into the block of `readme`
 * ("results" or "columns"). Returns the exit code. */
static int write_markdown(enum report_mode mode, const gs_results_source *files, int n,
                          const char *readme)
{
    char err[1024], *text = NULL;
    size_t len = 0;
    FILE *out = readme ? open_memstream(&text, &len) : stdout;
    int rc = out ? 0 : -1;
    if (!out)
        snprintf(err, sizeof err, "out of memory");
    else if (mode == REPORT_SUMMARY)
        rc = gs_summary_write(out, files, n, err, sizeof err);
    else
        gs_schema_write(out);
    if (readme && out)
        fclose(out);
    if (rc == 0 && readme)
        rc = gs_doc_replace_block(readme, mode == REPORT_SUMMARY ? "results" : "columns", text,
                                  len, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    char shown[GS_SHOWN_SIZE], from[GS_SHOWN_SIZE];
    if (mode != REPORT_SUMMARY)
        snprintf(from, sizeof from, "the suites' descriptions");
    else if (n > 1)
        snprintf(from, sizeof from, "%d results files", n);
    else
        gs_shown(files[0].path, from, sizeof from);
    if (readme)
        printf("%s: %s from %s\n", gs_shown(readme, shown, sizeof shown),
               mode == REPORT_SUMMARY ? "results" : "columns", from);
    return GS_EXIT_OK;
}

/* The report of the `n` results files: --md FILE|- and the folder `out`
 * (without --md, the folder ./report). Returns the exit code. */
static int write_report(const gs_results_source *files, int n, const char *md, const char *out,
                        int plots)
{
    char err[1024];
    if (md && gs_output_markdown(files, n, md, err, sizeof err) != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    if (md && !out)
        return GS_EXIT_OK;
    const char *dir = out ? out : "report";
    if (gs_report_write_files(files, n, dir, plots, err, sizeof err) != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    if (!gs_output_is_stdout(md))
        printf("report: %s/report.md\n", gs_shown(dir, err, sizeof err));
    return GS_EXIT_OK;
}

int gs_cmd_report(int argc, char **argv)
{
    enum { O_SUMMARY = 256, O_README, O_COLUMNS, O_MD, O_COMPARE };
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"no-plots", no_argument, 0, 'n'},
                                         {"summary", no_argument, 0, O_SUMMARY},
                                         {"readme", required_argument, 0, O_README},
                                         {"columns", no_argument, 0, O_COLUMNS},
                                         {"md", required_argument, 0, O_MD},
                                         {"markdown", required_argument, 0, O_MD},
                                         {"compare", no_argument, 0, O_COMPARE},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *out = NULL, *readme = NULL, *md = NULL;
    enum report_mode mode = REPORT_FOLDER;
    int plots = 1, c, compare_mode = 0;
    char err[512];
    static const char shortopts[] = ":o:nh";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': plots = 0; break;
        case O_SUMMARY: mode = mode == REPORT_COLUMNS ? mode : REPORT_SUMMARY; break;
        case O_COLUMNS: mode = REPORT_COLUMNS; break;
        case O_README: readme = optarg; break;
        case O_MD: md = optarg; break;
        case O_COMPARE: compare_mode = 1; break;
        case 'h': return gs_help_only("report", gs_help_report, argc);
        default:
            return gs_option_usage_error("report", c, argv, shortopts);
        }
    }
    if (readme && mode == REPORT_FOLDER)
        mode = REPORT_SUMMARY;
    int folder_options = out != NULL || !plots;
    if (compare_mode && (mode != REPORT_FOLDER || readme))
        return gs_usage_error("report", "--compare goes without --summary, --readme and "
                                        "--columns");
    if (mode != REPORT_FOLDER && (folder_options || md))
        return gs_usage_error("report", "--out, --no-plots and --md write a report, not "
                                        "--summary, --readme or --columns");
    if (readme && !readme[0])
        return gs_usage_error("report", "--readme needs a file name");
    if (md && !md[0])
        return gs_usage_error("report", "--md needs a file name or '-'");
    if (out && !out[0])
        return gs_usage_error("report", "--out needs a folder name");
    if (mode == REPORT_COLUMNS)
        return optind == argc ? write_markdown(mode, NULL, 0, readme)
                              : gs_usage_error("report", "--columns takes no results file");
    if (compare_mode)
        return optind == argc - 2
                   ? gs_run_compare("report", argv[optind], argv[optind + 1], out, plots, md)
                   : gs_usage_error("report", "--compare needs two results files: OLD.json "
                                              "NEW.json");
    if (optind == argc)
        return gs_usage_error("report", "expected one or more results files");
    /* every file read and checked before anything is written */
    int n = argc - optind;
    gs_sources_failure why;
    gs_results_source *files = gs_sources_load(argv + optind, n, &why, err, sizeof err);
    if (!files) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return why == GS_SOURCES_NOT_RESULTS ? GS_EXIT_FAILURE : GS_EXIT_USAGE;
    }
    int rc = mode == REPORT_SUMMARY ? write_markdown(mode, files, n, readme)
                                    : write_report(files, n, md, out, plots);
    gs_sources_free(files, n);
    return rc;
}
