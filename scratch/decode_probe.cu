/* decode_probe.cu - compile check and quick table of the decode workloads. */
#include "../tools/suites/decode/workload.cuh"
#include <string.h>

using namespace decode;

template <class S> static void one(int layers, int stages, int per_sm, int versions, const char *name)
{
    workload<S> wl;
    wl.o = {layers, stages, 7, per_sm, 0x1234567ull + S::D * 31 + S::B};
    if (wl.setup() != GS_SUCCESS) { printf("setup failed\n"); return; }
    double gbs = 0;
    read_ceiling(wl.w, wl.weights() * sizeof(typename S::T), wl.s, 5, &gbs);
    const double bytes = (double)wl.weights() * sizeof(typename S::T);
    for (int v = 0; v < V_COUNT; ++v) {
        if (!(versions >> v & 1)) continue;
        outcome oc = {};
        gs_status st = wl.run(v, &oc);
        printf("%s D=%d B=%d L=%d S=%dx%d %-34s %9.1f us %6.1f%% of read (%.0f GB/s) worst %.3f bad %lld %s\n",
               name, S::D, S::B, layers, stages, per_sm, version_names[v], oc.t.median_us,
               100 * bytes / (oc.t.median_us * 1e3) / gbs, gbs, oc.worst, oc.bad,
               st == GS_SUCCESS ? "" : gs_last_error_detail());
        fflush(stdout);
    }
    wl.teardown();
}

int main()
{
    const int ALL = (1 << V_COUNT) - 1;
    one<shape<__half, 2048, 2048, 1, false>>(64, 6, 1, ALL, "chain f16");
    one<shape<__half, 2048, 8192, 1, true>>(16, 6, 1, ALL, "mlp f16");
    return 0;
}
