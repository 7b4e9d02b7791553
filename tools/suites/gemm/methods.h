/* methods.h - the names of the gemm suite's rows that its run code writes
 * and its description reads (besides "gridsync" and "cublas"). */
#ifndef GS_SUITES_GEMM_METHODS_H
#define GS_SUITES_GEMM_METHODS_H

/* The tutorial's method, as results files name it (docs/tutorials.md). */
#define TUTORIAL "16x16 tiled (tutorial)"
#define UNSPLIT "gridsync unsplit"
#define SPLITK "gridsync split-k"

#endif
