/*
 * reading.h - how a suite's results are read: which methods are gridsync's
 * and which are the peers, which columns name a row, which figure says how
 * fast, how each column prints, and the sentences of the report's summary.
 * The report (tables, plots, summary), `gridsync bench --list` and
 * `--compare` read it; a suite describes it once (results/suite.h).
 */
#ifndef GS_BENCH_READING_H
#define GS_BENCH_READING_H

#ifdef __cplusplus
extern "C" {
#endif

/* How the report prints a column's numbers (report/format.h). */
typedef enum gs_cell_format {
    GS_CELL_AUTO = 0, /* a time (unit us, ms, s): 4 significant digits and the unit,
                       * "0.06968 us", "242.6 us"; another unit: the column's decimals
                       * and the unit, "4427.3 GB/s"; no unit: the decimals, more for a
                       * value that would print as zero ("0.0076") */
    GS_CELL_POW2,     /* a size: "2^16 = 65536" (other values whole: "3001") */
    GS_CELL_PERCENT,  /* a fraction of a ceiling (a copy, the datasheet, the peak) as a
                       * percentage: 0.0522 -> "5.22%"; the report flags one above 100% */
    GS_CELL_RATIO     /* a speedup or ratio: "1.23x" */
} gs_cell_format;

/* A column's header and format in the report (columns not listed: their
 * name with spaces for underscores, GS_CELL_AUTO). */
typedef struct gs_column_style {
    const char *column;
    const char *label;
    gs_cell_format format;
} gs_column_style;

/*
 * A sentence of the report's summary: "gridsync's tree is up to 13.59x
 * faster than cg grid.sync (threads 256, blocks 1); over the 7 grids
 * measured, from 1.01x to 13.59x." Rows with the same values in `group_by`
 * are compared on `metric`: the peer's row against the best of ours in the
 * group, or against each of ours (`each`: when ours differ by a column the
 * peer's row does not have, like the grid of a cross-GPU barrier).
 */
typedef struct gs_headline {
    const char *peer;                   /* the method compared with */
    const char *metric;                 /* the column compared */
    int higher_is_better;               /* 0: a time; 1: a rate (GB/s, TFLOP/s) */
    const char *const *group_by;        /* NULL-ended */
    const char *const *describe;        /* the columns that say where (NULL-ended) */
    const char *filter;                 /* keep rows whose `filter` column is one of */
    const char *const *filter_values;   /* these (NULL-ended); NULL: every row */
    const char *noun;                   /* what a group is ("sizes"); NULL: "configurations" */
    int each;                           /* compare each of ours, not the best of a group */
    const char *const *ours;            /* the methods compared; NULL: the reading's */
    const char *blocks;                 /* the column counting a grid's blocks: rows of a
                                         * grid of one block (where a grid barrier is a
                                         * block's barrier) are left out; NULL: none */
} gs_headline;

/*
 * A table of the report's: which method was fastest. Rows with the same
 * values in `group_by` (among those that pass the filter) are a group, one
 * line of the table; each pick names the method with the best `metric` of
 * the reading (smallest; largest where higher_is_better) among its
 * candidates in the group, with that figure: "relaunch graph + PDL
 * (0.8300 us)". Derived from the rows measured, never written by hand.
 */
typedef struct gs_pick {
    const char *header;          /* the table's column: "fastest", "best kernel boundary" */
    const char *const *among;    /* the candidates (NULL-ended); NULL: every method the
                                  * group has */
} gs_pick;

typedef struct gs_winners {
    const char *title;                  /* the sentence above the table */
    const char *const *group_by;        /* NULL-ended */
    const char *filter;                 /* keep rows whose `filter` column is one of */
    const char *const *filter_values;   /* these (NULL-ended); NULL: every row */
    const gs_pick *picks;
    int npicks;
} gs_winners;

typedef struct gs_reading {
    const char *method;               /* the column naming the method */
    const char *const *ours;          /* gridsync's methods (NULL-ended); the rest are peers */
    const char *const *peers;         /* the peers, as --list names them (NULL-ended) */
    const char *const *key;           /* the columns that name a row, the method's
                                       * included (NULL-ended): --compare matches on them */
    const char *metric;               /* the figure --compare compares */
    int higher_is_better;             /* for `metric` */
    const gs_headline *headlines;
    int nheadlines;
    const gs_column_style *styles;
    int nstyles;
    const gs_winners *winners;        /* the report's tables of the fastest method per group */
    int nwinners;
} gs_reading;

#ifdef __cplusplus
}
#endif

#endif
