/* methods.h - the names `gridsync bench decode` gives its methods (the
 * results' "method" column), shared by its description and its run code. */
#ifndef GS_SUITES_DECODE_METHODS_H
#define GS_SUITES_DECODE_METHODS_H

#define TASKS "gridsync tasks"
#define TAGGED "gridsync tasks, tagged activations"
#define BARRIER "persistent + grid barrier"
#define GRAPH "per-step kernels, graph"
#define GRAPH_PDL "per-step kernels, graph + PDL"
#define CUBLAS "cuBLAS GemmEx, graph"
#define READ "read (ceiling)"

#endif
