/*
 * gridsync/memory_order.cuh - moved to gridsync/detail/memory_order.cuh (the
 * memory-order helpers are internals). This forwarding header is kept only
 * until the in-tree tools include the new path; it will be removed.
 */
#ifndef GRIDSYNC_MEMORY_ORDER_CUH
#define GRIDSYNC_MEMORY_ORDER_CUH
#include <gridsync/detail/memory_order.cuh>
#endif
