/* fault_record.h - the host side of a fault record (the words a kernel
 * writes when it finds a fault: gridsync/detail/core/fault_record.h): the
 * workspaces keep one per stream (workspace.c), and one per process serves
 * the calls captured into graphs. */
#ifndef GS_RUNTIME_FAULT_RECORD_H
#define GS_RUNTIME_FAULT_RECORD_H

#include "workspace.h"

/* A new record, host-mapped and portable (one address for every device),
 * zeroed; *host is published with release. Relaxed capture mode around the
 * allocation: a capture under way stays valid. */
gs_status gs__fault_record_new(volatile unsigned int **host, unsigned int **device);

/* Take the record's fault: the flag with acquire, then the details and the
 * count of later faults, then the flag lowered. `seen`: the later count at
 * the last take. 1 when there was one. */
int gs__fault_record_take(volatile unsigned int *rec, unsigned int *seen, gs__ws_fault *f);

/* The graph record's device address (made on first use). */
gs_status gs__fault_record_graph(unsigned int **device);

#endif
