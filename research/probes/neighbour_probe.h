// neighbour_probe.h - what the neighbour probes share (neighbour_variants.cu,
// neighbour_library.cu): the table of each variant's microseconds per step
// at 2 blocks, 1, 2 and 4 blocks per SM and `per` per SM, every grid timed
// twice (20000 steps a run), then the count of wrong exchanges.
#ifndef GS_NEIGHBOUR_PROBE_H
#define GS_NEIGHBOUR_PROBE_H
#include <cstdio>

typedef float (*neighbour_run)(int blocks, int iters, unsigned long long *epochs, unsigned *slots,
                               unsigned *errors);

static void neighbour_table(const char *const *names, const neighbour_run *runs, int count, int sms,
                            int per, unsigned long long *epochs, unsigned *slots, unsigned *errors)
{
    const int sizes[] = {2, sms, 2 * sms, 4 * sms, per * sms};
    printf("blocks");
    for (int v = 0; v < count; ++v)
        printf(" | %s", names[v]);
    printf("\n");
    for (int s : sizes) {
        printf("%d", s);
        for (int rep = 0; rep < 2; ++rep) {
            printf(rep ? "  rerun:" : "");
            for (int v = 0; v < count; ++v)
                printf(" %.3f", runs[v](s, 20000, epochs, slots, errors));
        }
        printf("\n");
    }
    unsigned e = 0;
    cudaMemcpy(&e, errors, 4, cudaMemcpyDeviceToHost);
    printf("errors %u\n", e);
}

#endif
