/* methods.h - the names of the reduce and dot suites' rows that their run
 * code writes and their descriptions read. */
#ifndef GS_SUITES_REDUCE_METHODS_H
#define GS_SUITES_REDUCE_METHODS_H

/* The tutorials' methods, as results files name them (docs/tutorials.md). */
#define TUTORIAL_SUM "threadfence single pass (tutorial)"
#define TUTORIAL_DOT "dot, 32 blocks + host sum (tutorial)"
/* The copy row's method: the measured bandwidth ceiling, not a method. */
#define COPY_ROW "cudaMemcpy D2D (read+write)"

#endif
