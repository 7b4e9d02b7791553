/* cmd_report.c - `gridsync report FILE.json [--out DIR] [--no-plots]`:
 * rebuild the report and plots from saved results (no GPU needed). */
#include <getopt.h>
#include <stdio.h>

#include "report/report.h"
#include "args.h"
#include "commands.h"

int gs_cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"no-plots", no_argument, 0, 'n'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *out = "report";
    int plots = 1, c;
    char err[512];
    static const char shortopts[] = ":o:nh";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'n': plots = 0; break;
        case 'h': return gs_help_only("report", argc);
        default:
            return gs_option_usage_error("report", c, argv, shortopts);
        }
    }
    if (optind != argc - 1)
        return gs_usage_error("report", "expected one results file");
    if (!out[0])
        return gs_usage_error("report", "--out needs a folder name");
    cJSON *doc = gs_results_load(argv[optind], err, sizeof err);
    if (!doc) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_USAGE;
    }
    int rc = gs_report_write(doc, out, plots, err, sizeof err);
    cJSON_Delete(doc);
    if (rc != 0) {
        fprintf(stderr, "gridsync report: %s\n", err);
        return GS_EXIT_FAILURE;
    }
    printf("report: %s/report.md\n", out);
    return GS_EXIT_OK;
}
