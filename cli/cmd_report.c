/* cmd_report.c - `gridsync report FILE.json [--out DIR] [--no-plots]`:
 * rebuild the report and plots from saved results (no GPU needed);
 * `--md FILE|-`: the report's text alone; `--compare OLD NEW`: two runs
 * side by side; `--summary` / `--readme FILE`: the README's summary tables
 * instead; `--columns [--readme FILE]`: every suite's columns. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/doc_block.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/schema.h"
#include "report/summary.h"
#include "args.h"
#include "commands.h"

/* What a report command writes. */
enum report_mode { REPORT_FOLDER, REPORT_SUMMARY, REPORT_COLUMNS };

/* The summary tables of `file` (mode REPORT_SUMMARY) or the columns table
 * (REPORT_COLUMNS): on stdout, or into the block of `readme` ("results" or
 * "columns"). Returns the exit code. */
static int write_markdown(enum report_mode mode, const char *file, const char *readme)
{
    char err[1024], *text = NULL;
    size_t len = 0;
    cJSON *doc = NULL;
    if (mode == REPORT_SUMMARY && !(doc = gs_results_load(file, err, sizeof err))) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_USAGE;
    }
    FILE *out = readme ? open_memstream(&text, &len) : stdout;
    int rc = out ? 0 : -1;
    if (!out)
        snprintf(err, sizeof err, "out of memory");
    else if (mode == REPORT_SUMMARY)
        rc = gs_summary_write(out, doc, file, err, sizeof err);
    else
        gs_schema_write(out);
    if (readme && out)
        fclose(out);
    if (rc == 0 && readme)
        rc = gs_doc_replace_block(readme, mode == REPORT_SUMMARY ? "results" : "columns", text,
                                  len, err, sizeof err);
    free(text);
    cJSON_Delete(doc);
    if (rc != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    if (readme)
        printf("%s: %s from %s\n", readme, mode == REPORT_SUMMARY ? "results" : "columns",
               mode == REPORT_SUMMARY ? file : "the suites' descriptions");
    return GS_EXIT_OK;
}

/* --md FILE|-: the report's text of `file`. */
static int markdown(const char *file, const char *md)
{
    char err[1024];
    cJSON *doc = gs_results_load(file, err, sizeof err);
    if (!doc) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_USAGE;
    }
    int rc = gs_output_results(doc, md, "md", err, sizeof err);
    cJSON_Delete(doc);
    if (rc != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
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
        return optind == argc ? write_markdown(mode, NULL, readme)
                              : gs_usage_error("report", "--columns takes no results file");
    if (compare_mode)
        return optind == argc - 2
                   ? gs_run_compare("report", argv[optind], argv[optind + 1], out, plots, md)
                   : gs_usage_error("report", "--compare needs two results files: OLD.json "
                                              "NEW.json");
    if (optind != argc - 1)
        return gs_usage_error("report", "expected one results file");
    if (mode == REPORT_SUMMARY)
        return write_markdown(mode, argv[optind], readme);
    if (md && !out)
        return markdown(argv[optind], md);
    if (md && markdown(argv[optind], md) != GS_EXIT_OK)
        return GS_EXIT_FAILURE;
    cJSON *doc = gs_results_load(argv[optind], err, sizeof err);
    if (!doc) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_USAGE;
    }
    const char *dir = out ? out : "report";
    int rc = gs_report_write(doc, dir, plots, err, sizeof err);
    cJSON_Delete(doc);
    if (rc != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    if (!gs_output_is_stdout(md))
        printf("report: %s/report.md\n", dir);
    return GS_EXIT_OK;
}
