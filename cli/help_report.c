/* help_report.c - the help text of `gridsync report`, apart from the other
 * commands' so that the report links none of their registries. */
#include "help.h"

static const char report_help[] =
    "usage: gridsync report FILE.json... [--out DIR] [--no-plots]\n"
    "       gridsync report FILE.json... --md FILE|-\n"
    "       gridsync report --compare OLD.json NEW.json [--out DIR] [--md FILE|-]\n"
    "       gridsync report FILE.json... --summary | --readme README.md\n"
    "       gridsync report --columns [--readme FILE.md]\n"
    "\n"
    "Rebuild the report of a saved benchmark run (gridsync bench --json): writes\n"
    "DIR/report.md (a summary of gridsync against its peers from the data, every\n"
    "suite's plots and formatted table, the environment), DIR/<suite>.csv, and the\n"
    "plots, drawn by gnuplot (DIR/*.png; without gnuplot the report says how to get\n"
    "them). No GPU needed.\n"
    "\n"
    "Several files (runs of some suites, the Python package's rows): each suite\n"
    "comes from the last file given that has it, so give them oldest first; its\n"
    "section, and its README sentence, name that run (GPU, CUDA, date, file), and\n"
    "the environment section lists each file with the suites it gave. Every file\n"
    "is read and checked before anything is written.\n"
    "\n"
    "  -o, --out DIR       output folder (default ./report)\n"
    "  -n, --no-plots      write the plot data and script but do not run gnuplot\n"
    "      --md FILE       the report's text without plots to FILE ('-': stdout)\n"
    "      --compare       two results files, OLD then NEW: each suite's rows side by\n"
    "                      side, the ratio and whether it is beyond the noise; on\n"
    "                      stdout, or --md FILE; --out DIR: compare.md and plots\n"
    "      --summary       print each suite's summary table (the README's results)\n"
    "      --readme FILE   write them between FILE's <!-- results:begin --> and\n"
    "                      <!-- results:end --> lines instead\n"
    "      --columns       print every suite's columns, units and meanings; with\n"
    "                      --readme, between <!-- columns:begin/end --> lines\n";

void gs_help_report(FILE *out) { fputs(report_help, out); }
