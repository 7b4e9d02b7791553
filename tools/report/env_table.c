/* env_table.c - a run's environment as report.md shows it (env_table.h). */
#include "report/env_table.h"

#include <string.h>

#include "report/markdown.h"
#include "report/rows.h"

void gs_env_text(const cJSON *env, const char *key, size_t at_most, char *buf, size_t len)
{
    const cJSON *v = gs_row_field(env, key);
    snprintf(buf, len, "%.*s", (int)at_most, cJSON_IsString(v) ? v->valuestring : "?");
}

/* The GPU's state as one line: "1980 MHz SM, 2619 MHz memory, 45 C, 120 W;
 * throttle reasons: none". */
static void state_text(const cJSON *s, char *buf, size_t len)
{
    const char *keys[] = {"sm_clock_mhz", "mem_clock_mhz", "temperature_c", "power_w"};
    const char *units[] = {" MHz SM", " MHz memory", " C", " W"};
    size_t n = 0;
    buf[0] = '\0';
    if (cJSON_IsString(gs_row_field(s, "nvml"))) {
        snprintf(buf, len, "not read (NVML not available)");
        return;
    }
    for (int i = 0; i < 4 && n < len; ++i) {
        const cJSON *v = gs_row_field(s, keys[i]);
        if (cJSON_IsNumber(v))
            n += (size_t)snprintf(buf + n, len - n, "%s%.0f%s", n ? ", " : "", v->valuedouble,
                                  units[i]);
    }
    const cJSON *reasons = gs_row_field(s, "throttle_reasons"), *r;
    if (cJSON_IsArray(reasons) && n < len) {
        n += (size_t)snprintf(buf + n, len - n, "%sthrottle reasons: ", n ? "; " : "");
        int k = 0;
        cJSON_ArrayForEach(r, reasons) if (cJSON_IsString(r) && n < len) n +=
            (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "", r->valuestring);
        if (!k && n < len)
            snprintf(buf + n, len - n, "none");
    }
}

int gs_env_slowed(const cJSON *state, char *names, size_t len)
{
    const cJSON *r;
    size_t n = 0;
    names[0] = '\0';
    cJSON_ArrayForEach(r, gs_row_field(state, "throttle_reasons"))
    {
        if (!cJSON_IsString(r) || !strcmp(r->valuestring, "gpu_idle") ||
            !strcmp(r->valuestring, "applications_clocks") ||
            !strcmp(r->valuestring, "sync_boost") || !strcmp(r->valuestring, "display_clocks"))
            continue;
        if (n < len)
            n += (size_t)snprintf(names + n, len - n, "%s%s", n ? ", " : "", r->valuestring);
    }
    return n > 0;
}

/* An environment value as a table cell. */
static void env_value(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsObject(v))
        state_text(v, buf, len);
    else if (cJSON_IsNumber(v))
        snprintf(buf, len, "%.10g", v->valuedouble);
    else if (cJSON_IsString(v))
        snprintf(buf, len, "%s", v->valuestring);
    else
        snprintf(buf, len, "-");
}

void gs_env_table(FILE *md, const cJSON *env)
{
    static const char *const known[][2] = {
        {"gpu", "GPU"},
        {"device", "device"},
        {"compute_capability", "compute capability"},
        {"sms", "SMs"},
        {"l2_bytes", "L2 cache (bytes)"},
        {"sm_clock_mhz_max", "SM clock, maximum (MHz)"},
        {"sm_clock_mhz", "SM clock when the run began (MHz; -1: not read)"},
        {"sm_clock_mhz_end", "SM clock when it ended (MHz)"},
        {"gpu_state", "GPU when the run began"},
        {"gpu_state_end", "GPU when it ended"},
        {"memory_bandwidth_gbs_theoretical", "memory bandwidth, datasheet (GB/s)"},
        {"driver_cuda_version", "driver (CUDA version)"},
        {"cuda_runtime", "CUDA runtime"},
        {"gridsync_version", "gridsync"},
        {"git_commit", "commit"},
        {"command", "command"},
        {"date", "date (UTC)"}};
    const int nknown = (int)(sizeof known / sizeof known[0]);
    const cJSON *item;
    char buf[1024];
    fputs("| property | value |\n|---|---|\n", md);
    for (int i = 0; i < nknown; ++i) {
        const cJSON *v = gs_row_field(env, known[i][0]);
        if (!v)
            continue;
        fputc('|', md);
        gs_md_cell(md, known[i][1]);
        env_value(v, buf, sizeof buf);
        gs_md_cell(md, buf);
        fputc('\n', md);
    }
    cJSON_ArrayForEach(item, env)
    {
        int listed = 0;
        for (int i = 0; i < nknown && !listed; ++i)
            listed = item->string && !strcmp(item->string, known[i][0]);
        if (listed)
            continue;
        fputc('|', md);
        gs_md_cell(md, item->string ? item->string : "?");
        env_value(item, buf, sizeof buf);
        gs_md_cell(md, buf);
        fputc('\n', md);
    }
}
