/*
 * gridsync/detail/core/fault_record.h - the fault record of a call that gave up
 * waiting (internal; C and device code): 32 bytes of host-mapped memory
 * that the kernel writes and the host reads without waiting for the
 * stream. One per stream's workspace (src/runtime/workspace.c), and one
 * for the calls captured into graphs. The scans write it (their look-back
 * or a wait of the resident kernel that passed its time-out:
 * scan_record_fault in gridsync/detail/scan/scan_tile_state.cuh); gs_scan and
 * gs_scan_check report it.
 *
 * The first fault is kept until the host reports it: a call that gives up
 * while the flag is up only counts itself in GS_FAULT_LATER. Calls on one
 * stream are ordered (a scan's waits come after its launch wait, so after
 * the previous call on the stream has ended), and within a call one tile
 * writes (the one whose exchange of the abort word found another number):
 * the record has one writer at a time, and needs no atomics across the bus.
 * The device writes the details, then raises the flag with a system-scope
 * release; the host reads the flag with acquire, then the details, then
 * lowers the flag. A fault that finds the flag still up when the host has
 * already read GS_FAULT_LATER is counted in the next report, never lost.
 */
#ifndef GRIDSYNC_DETAIL_FAULT_RECORD_H
#define GRIDSYNC_DETAIL_FAULT_RECORD_H

#define GS_FAULT_FLAG 0u  /* 1: the details below describe a fault not yet reported */
#define GS_FAULT_CALL 1u  /* the call's sequence number on its workspace */
#define GS_FAULT_WHERE 2u /* what gave up: a scan's tile */
#define GS_FAULT_OF 3u    /* out of how many: a scan's tiles */
#define GS_FAULT_LATER 4u /* calls that gave up while the flag was up (wraps; the host
                           * remembers how many it has reported) */
#define GS_FAULT_WORDS 8u

#endif /* GRIDSYNC_DETAIL_FAULT_RECORD_H */
