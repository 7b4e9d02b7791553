/* cmd_info.c - `gridsync info`: what the GPU offers for synchronization. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/device.h"
#include "common/files.h"
#include "args.h"
#include "commands.h"
#include "failure.h"

static const int probe_sizes[] = {128, 256, 512, 1024};
enum { NPROBES = 4 };

static void print_text(const gs_device_info *d, const int *fit)
{
    printf("device %d: %s\n", d->ordinal, d->name);
    printf("  compute capability     %d.%d\n", d->cc_major, d->cc_minor);
    printf("  SMs                    %d\n", d->sm_count);
    printf("  SM clock (max)         %.0f MHz\n", d->sm_clock_khz / 1e3);
    printf("  memory clock (peak)    %.0f MHz, %d-bit bus\n", d->mem_clock_khz / 1e3,
           d->mem_bus_width_bits);
    printf("  memory                 %.1f GiB, %.0f GB/s theoretical\n",
           d->global_mem_bytes / 1073741824.0, d->mem_bandwidth_gbs);
    printf("  L2 cache               %.1f MiB\n", d->l2_bytes / 1048576.0);
    printf("  shared memory          %zu KiB per SM, %zu KiB per block (%zu KiB opt-in)\n",
           d->smem_per_sm_bytes / 1024, d->smem_per_block_bytes / 1024,
           d->smem_per_block_optin_bytes / 1024);
    printf("  threads                %d per SM, %d per block; %d blocks per SM at most\n",
           d->max_threads_per_sm, d->max_threads_per_block, d->max_blocks_per_sm);
    printf("  cooperative launch     %s\n", d->cooperative_launch ? "yes" : "no");
    printf("  driver / runtime       CUDA %d.%d / %d.%d\n", d->driver_version / 1000,
           d->driver_version % 1000 / 10, d->runtime_version / 1000,
           d->runtime_version % 1000 / 10);
    printf("  co-resident blocks (grid barrier kernel):\n");
    for (int i = 0; i < NPROBES; ++i)
        printf("    %4d threads/block   %5d blocks (%d per SM)\n", probe_sizes[i], fit[i],
               fit[i] / d->sm_count);
}

/* Print the JSON object `o` on stdout and free it. */
static int put_json(cJSON *o)
{
    char *text = cJSON_Print(o);
    int ok = text != NULL;
    if (ok)
        puts(text);
    cJSON_free(text);
    cJSON_Delete(o);
    return ok ? GS_EXIT_OK : GS_EXIT_FAILURE;
}

/* info --json without a GPU: {"devices": 0, "error": "..."} on stdout too. */
static void print_json_no_gpu(void)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "devices", 0);
    cJSON_AddStringToObject(o, "error", gs_last_error_detail());
    put_json(o);
}

static int print_json(const gs_device_info *d, const int *fit)
{
    cJSON *o = cJSON_CreateObject();
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddNumberToObject(o, "device", d->ordinal);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "sms", d->sm_count);
    cJSON_AddNumberToObject(o, "sm_clock_mhz", d->sm_clock_khz / 1e3);
    cJSON_AddNumberToObject(o, "memory_clock_mhz", d->mem_clock_khz / 1e3);
    cJSON_AddNumberToObject(o, "memory_bus_bits", d->mem_bus_width_bits);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)d->global_mem_bytes);
    cJSON_AddNumberToObject(o, "memory_bandwidth_gbs", d->mem_bandwidth_gbs);
    cJSON_AddNumberToObject(o, "l2_bytes", d->l2_bytes);
    cJSON_AddNumberToObject(o, "smem_per_sm_bytes", (double)d->smem_per_sm_bytes);
    cJSON_AddNumberToObject(o, "smem_per_block_bytes", (double)d->smem_per_block_bytes);
    cJSON_AddNumberToObject(o, "smem_per_block_optin_bytes",
                            (double)d->smem_per_block_optin_bytes);
    cJSON_AddNumberToObject(o, "max_threads_per_sm", d->max_threads_per_sm);
    cJSON_AddNumberToObject(o, "max_blocks_per_sm", d->max_blocks_per_sm);
    cJSON_AddBoolToObject(o, "cooperative_launch", d->cooperative_launch);
    cJSON_AddNumberToObject(o, "driver_version", d->driver_version);
    cJSON_AddNumberToObject(o, "runtime_version", d->runtime_version);
    cJSON *co = cJSON_AddObjectToObject(o, "coresident_blocks");
    for (int i = 0; i < NPROBES; ++i) {
        char key[16];
        snprintf(key, sizeof key, "%d", probe_sizes[i]);
        cJSON_AddNumberToObject(co, key, fit[i]);
    }
    return put_json(o);
}

int gs_cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"device", required_argument, 0, 'd'},
                                         {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long device = 0;
    int json = 0, c;
    char err[256];
    static const char shortopts[] = ":d:jh";
    optind = 0; /* a fresh start: glibc keeps its place in a group otherwise */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (gs_parse_long(optarg, "--device", 0, 1024, &device, err, sizeof err) != 0)
                return gs_usage_error("info", err);
            break;
        case 'j': json = 1; break;
        case 'h': return gs_help_only("info", gs_help_info, argc);
        default:
            return gs_option_usage_error("info", c, argv, shortopts);
        }
    }
    if (optind < argc) {
        char shown[GS_SHOWN_SIZE];
        snprintf(err, sizeof err, "unexpected argument '%s'",
                 gs_shown(argv[optind], shown, sizeof shown));
        return gs_usage_error("info", err);
    }
    gs_device_info d;
    gs_status st = gs_select_device((int)device, &d);
    if (st == GS_ERR_NO_DEVICE && json)
        print_json_no_gpu();
    if (st != GS_SUCCESS)
        return gs_report_failure("info", st);
    int fit[NPROBES];
    for (int i = 0; i < NPROBES; ++i)
        if ((st = gs_probe_coresident(probe_sizes[i], &fit[i])) != GS_SUCCESS)
            return gs_report_failure("info", st);
    if (json)
        return print_json(&d, fit);
    print_text(&d, fit);
    return GS_EXIT_OK;
}
