/*
 * summary_spec.h - a suite's table in the README's results section: which
 * rows of the results it summarises and what each column shows. The report
 * renders it (`gridsync report FILE --readme README.md`).
 *
 * Rows of the results with the same values in `group_by` make one row of
 * the summary (a configuration, a size, a shape), in first-seen order; the
 * `pivot` column (the method) tells the rows of a group apart. Without
 * `group_by` each result row is a summary row. A value that is missing
 * prints as "-".
 */
#ifndef GS_BENCH_SUMMARY_SPEC_H
#define GS_BENCH_SUMMARY_SPEC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gs_summary_kind {
    GS_SUMMARY_FIELD, /* `column` of the group's first row */
    GS_SUMMARY_SHAPE, /* the `group_by` values joined by 'x' ("1024x1024x4096") */
    GS_SUMMARY_VALUE, /* `column` of the group's row whose method is `method` */
    GS_SUMMARY_BEST,  /* the name of the method of `best_of` (or the column's `among`) with
                       * the smallest `column` */
    GS_SUMMARY_RATIO  /* `column` of `method` divided by `column` of `over` */
} gs_summary_kind;

/* As `method` or `over` of a ratio: the method the first GS_SUMMARY_BEST
 * column without `among` picks. */
#define GS_SUMMARY_BEST_METHOD "\001best"

/* As `among` of a GS_SUMMARY_BEST column: every method the group has. */
#define GS_SUMMARY_EVERY_NAME "\001every"
#define GS_SUMMARY_EVERY ((const char *const[]){GS_SUMMARY_EVERY_NAME, NULL})

typedef struct gs_summary_column {
    const char *header;
    gs_summary_kind kind;
    const char *column;   /* the results column read */
    const char *method;   /* VALUE, RATIO: whose value */
    const char *over;     /* RATIO: the divisor's method */
    const char *format;   /* printf format of one double ("%.3f", "%.2fx"); "2^": the
                           * power of two as 2^k; NULL: text as it is, numbers "%g" */
    const char *const *among; /* BEST: the methods it chooses from (NULL-ended);
                               * NULL: the summary's best_of; GS_SUMMARY_EVERY: any */
} gs_summary_column;

typedef struct gs_summary_spec {
    const char *intro;                   /* the sentence above the table; "{run}" becomes
                                          * the GPU, CUDA version, date and results file */
    const char *const *group_by;         /* NULL-ended; NULL: one summary row per row */
    const char *pivot;                   /* the column naming the method */
    const char *filter;                  /* keep only rows whose `filter` column is one */
    const char *const *filter_values;    /* of these (NULL-ended); NULL: every row */
    const char *const *required;         /* methods a group must have, else it is left out */
    const char *const *best_of;          /* the methods GS_SUMMARY_BEST chooses from */
    const gs_summary_column *columns;
    int ncolumns;
} gs_summary_spec;

#ifdef __cplusplus
}
#endif

#endif
