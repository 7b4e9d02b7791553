/*
 * outputs.h - where `gridsync bench` and `gridsync report` write what
 * programs read, as NVBench names it: a file, or "-" (also "stdout") for
 * standard output and "stderr" for standard error. The formats: the results
 * document as JSON, every suite's table as CSV, the report's markdown.
 */
#ifndef GS_REPORT_OUTPUTS_H
#define GS_REPORT_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "report/sources.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "-", "stdout" or "stderr". */
int gs_output_is_stream(const char *target);
/* "-" or "stdout". */
int gs_output_is_stdout(const char *target);

/* `target` open for writing: the stream, or the file created or emptied
 * (a regular file: a link, a FIFO or a device is refused, see
 * gs_open_output). NULL with a sentence in `err`. */
FILE *gs_output_open(const char *target, char *err, size_t errlen);

/* Close what gs_output_open returned (a stream is flushed, not closed).
 * 0, or -1 when something could not be written. */
int gs_output_close(const char *target, FILE *f);

/* Every suite's table of `results` as CSV, full precision, one block per
 * suite (its header row first, a "suite" column first), blocks separated by
 * an empty line. 0, or -1 on a write error. */
int gs_results_csv(FILE *out, const cJSON *results);

/* Write `results` to `target` as `format`: "json", "csv" or "md". 0, or -1
 * with a sentence in `err`. */
int gs_output_results(const cJSON *results, const char *target, const char *format, char *err,
                      size_t errlen);

/* The report's markdown of several results files (report/sources.h:
 * checked documents) to `target`. 0, or -1 with a sentence in `err`. */
int gs_output_markdown(const gs_results_source *files, int n, const char *target, char *err,
                       size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
