/*
 * gridsync/detail/core/memory_order.cuh - GPU-scope loads, stores, atomics and fences
 * with explicit PTX memory-model semantics (sm_70 and later).
 *
 * Why not volatile + __threadfence()? `volatile` gives no ordering, and
 * __threadfence() is fence.sc.gpu, a sequentially consistent fence that is
 * stronger (and slower) than the release/acquire patterns a barrier needs.
 * These wrappers name the exact PTX instruction so each use documents the
 * ordering it relies on:
 *   - relaxed: the access is coherent at GPU scope (it reaches L2, never a
 *     stale L1 line) but orders nothing else;
 *   - release: every memory access before it (in program order, and any the
 *     thread has observed through a barrier, by cumulativity) is visible to a
 *     thread that acquires the value it wrote;
 *   - acquire: no access after it can observe memory older than what the
 *     released value carried.
 */
#ifndef GRIDSYNC_DETAIL_MEMORY_ORDER_CUH
#define GRIDSYNC_DETAIL_MEMORY_ORDER_CUH

/* Every device helper of gridsync: inline, internal linkage (a header). */
#define GS_DEVICE static __device__ __forceinline__

GS_DEVICE unsigned int gs__ld_relaxed_gpu(const unsigned int *p)
{
    unsigned int v;
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GS_DEVICE unsigned int gs__ld_acquire_gpu(const unsigned int *p)
{
    unsigned int v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

GS_DEVICE unsigned long long gs__ld_relaxed_gpu_u64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

GS_DEVICE unsigned long long gs__ld_acquire_gpu_u64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

/* Two 64-bit words at a 16-byte aligned address. PTX models a vector access
 * as one access per element in no particular order: each word is
 * single-copy atomic, the pair is not (the scan's descriptors rely only on
 * the former, gridsync/detail/scan/scan_tile_state.cuh). */
GS_DEVICE void gs__ld_relaxed_gpu_v2_u64(const unsigned long long *p, unsigned long long *a,
                                        unsigned long long *b)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*a), "=l"(*b)
                 : "l"(p)
                 : "memory");
}

GS_DEVICE void gs__st_relaxed_gpu(unsigned int *p, unsigned int v)
{
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GS_DEVICE void gs__st_relaxed_gpu_u64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GS_DEVICE void gs__st_relaxed_gpu_v2_u64(unsigned long long *p, unsigned long long a,
                                        unsigned long long b)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b)
                 : "memory");
}

/* System scope: host-mapped memory that the host reads while the kernel runs. */
GS_DEVICE void gs__st_relaxed_sys(unsigned int *p, unsigned int v)
{
    asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GS_DEVICE void gs__st_release_sys(unsigned int *p, unsigned int v)
{
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

/* System scope across GPUs (peer or CUDA IPC memory): the multi-GPU
 * barrier's flags and the all-reduce's slots. */
GS_DEVICE unsigned int gs__ld_acquire_sys(const unsigned int *p)
{
    unsigned int v;
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

/* fence.release (PTX ISA 8.6, CUDA 12.8, on sm_90): before relaxed stores
 * it completes a release pattern, as fence.acq_rel does, without the
 * acquire half, which on sm_90 is an invalidation of the SM's whole L1
 * (CCTL.IVALL): the loads after it, the caller's local memory included,
 * then go to L2. Elsewhere fence.acq_rel, which is stronger. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDACC_VER_MAJOR__) &&           \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
#define GS__HAS_FENCE_RELEASE 1
#else
#define GS__HAS_FENCE_RELEASE 0
#endif

GS_DEVICE void gs__fence_release_sys(void)
{
#if GS__HAS_FENCE_RELEASE
    asm volatile("fence.release.sys;" ::: "memory");
#else
    asm volatile("fence.acq_rel.sys;" ::: "memory");
#endif
}

/* 64-bit and paired 64-bit words at system scope (the multi-GPU
 * all-reduce's slots, which carry a tag beside their value): an aligned
 * 64-bit access is single-copy atomic; PTX models a v2 access as one access
 * per element, in no particular order, so each word is atomic and the pair
 * is not (a reader checks the tag in both). */
GS_DEVICE void gs__st_relaxed_sys_u64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GS_DEVICE void gs__st_relaxed_sys_v2_u64(unsigned long long *p, unsigned long long a,
                                        unsigned long long b)
{
    asm volatile("st.relaxed.sys.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b)
                 : "memory");
}

GS_DEVICE unsigned long long gs__ld_acquire_sys_u64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

GS_DEVICE void gs__ld_acquire_sys_v2_u64(const unsigned long long *p, unsigned long long *a,
                                        unsigned long long *b)
{
    asm volatile("ld.acquire.sys.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*a), "=l"(*b)
                 : "l"(p)
                 : "memory");
}

GS_DEVICE void gs__st_release_gpu(unsigned int *p, unsigned int v)
{
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GS_DEVICE void gs__st_release_gpu_u64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* A release at GPU scope in two halves, for code that must place the
 * release's wait early but can store the flag only later:
 * gs__release_fence_gpu() where the release should wait for the block's
 * writes, then gs__release_store_gpu_u64() of the flag. With fence.release
 * the first half is that fence and the second a relaxed store (a release
 * pattern). Without it the only stand-alone fence is fence.acq_rel, whose
 * acquire half also invalidates L1, so the first half is empty and the
 * second an st.release. */
GS_DEVICE void gs__release_fence_gpu(void)
{
#if GS__HAS_FENCE_RELEASE
    asm volatile("fence.release.gpu;" ::: "memory");
#endif
}

GS_DEVICE void gs__release_store_gpu_u64(unsigned long long *p, unsigned long long v)
{
#if GS__HAS_FENCE_RELEASE
    gs__st_relaxed_gpu_u64(p, v);
#else
    gs__st_release_gpu_u64(p, v);
#endif
}

GS_DEVICE unsigned long long gs__atom_add_relaxed_gpu_u64(unsigned long long *p,
                                                          unsigned long long v)
{
    unsigned long long old;
    asm volatile("atom.add.relaxed.gpu.global.u64 %0, [%1], %2;"
                 : "=l"(old)
                 : "l"(p), "l"(v)
                 : "memory");
    return old;
}

/* Fire-and-forget add with release semantics: no value comes back, so the
 * thread does not wait a round trip for it. */
GS_DEVICE void gs__red_add_release_gpu(unsigned int *p, unsigned int v)
{
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

GS_DEVICE unsigned int gs__atom_add_relaxed_gpu(unsigned int *p, unsigned int v)
{
    unsigned int old;
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "l"(p), "r"(v)
                 : "memory");
    return old;
}

GS_DEVICE unsigned int gs__atom_add_release_gpu(unsigned int *p, unsigned int v)
{
    unsigned int old;
    asm volatile("atom.add.release.gpu.global.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "l"(p), "r"(v)
                 : "memory");
    return old;
}

/* Add with acquire and release: the caller's earlier accesses are ordered
 * before it, and what the earlier adders released is visible after it. */
GS_DEVICE unsigned int gs__atom_add_acq_rel_gpu(unsigned int *p, unsigned int v)
{
    unsigned int old;
    asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "l"(p), "r"(v)
                 : "memory");
    return old;
}

GS_DEVICE unsigned long long gs__atom_add_release_gpu_u64(unsigned long long *p,
                                                         unsigned long long v)
{
    unsigned long long old;
    asm volatile("atom.add.release.gpu.global.u64 %0, [%1], %2;"
                 : "=l"(old)
                 : "l"(p), "l"(v)
                 : "memory");
    return old;
}

/* atom.inc with acquire and release: returns the old value and stores
 * old >= limit ? 0 : old + 1, so a counter of n arrivals with limit n - 1
 * comes back to 0 by itself at the n-th. */
GS_DEVICE unsigned int gs__atom_inc_acq_rel_gpu(unsigned int *p, unsigned int limit)
{
    unsigned int old;
    asm volatile("atom.acq_rel.gpu.global.inc.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "l"(p), "r"(limit)
                 : "memory");
    return old;
}

GS_DEVICE unsigned int gs__atom_cas_relaxed_gpu(unsigned int *p, unsigned int expected,
                                               unsigned int desired)
{
    unsigned int old;
    asm volatile("atom.relaxed.gpu.global.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old)
                 : "l"(p), "r"(expected), "r"(desired)
                 : "memory");
    return old;
}

/* Exchange: of several threads storing the same value, exactly one gets
 * back another (the scan's claim of its fault record). */
GS_DEVICE unsigned int gs__atom_exch_relaxed_gpu(unsigned int *p, unsigned int v)
{
    unsigned int old;
    asm volatile("atom.relaxed.gpu.global.exch.b32 %0, [%1], %2;"
                 : "=r"(old)
                 : "l"(p), "r"(v)
                 : "memory");
    return old;
}

/* fence.acq_rel.gpu: after relaxed loads it completes an acquire pattern,
 * before relaxed stores it completes a release pattern. */
GS_DEVICE void gs__fence_acq_rel_gpu(void)
{
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/* Nanoseconds from the GPU's global timer (coarse, but monotonic and
 * independent of the SM clock): used only to bound waits. */
GS_DEVICE unsigned long long gs__globaltimer_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

#undef GS__HAS_FENCE_RELEASE

#endif /* GRIDSYNC_DETAIL_MEMORY_ORDER_CUH */
