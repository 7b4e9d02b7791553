/* gemm_internal.h - the matrix multiply kernels behind gs_sgemm (internal).
 * Declared in internal/gridsync_internal.h (gs__sgemm_args, gs__sgemm_tiled16,
 * gs__sgemm_fast); this header forwards to it for the library's sources. */
#ifndef GS_GEMM_INTERNAL_H
#define GS_GEMM_INTERNAL_H

#include "../../internal/gridsync_internal.h"

#endif
