/*
 * scan_kernels_added.cu - the scan's kernels of u32, u64, f16 and bf16:
 * every row of sum, min and max (scan_kernels.cuh says why they are apart
 * from scan.cu's: the two units compile in parallel).
 */
#include "scan_kernels.cuh"

#define GS__NOTHING
GS__SCAN_ADDED_TYPES(GS__SCAN_KERNELS_OF, GS__NOTHING)
