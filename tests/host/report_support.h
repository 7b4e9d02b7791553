/* report_support.h - what the report's host tests share: reading a written
 * file whole, a fresh temporary folder, a command's standard error caught,
 * and the check that every markdown table keeps its shape. Include after
 * <cmocka.h>. */
#ifndef GS_TEST_REPORT_SUPPORT_H
#define GS_TEST_REPORT_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GS_SOURCE_DIR
#error "GS_SOURCE_DIR must name the source tree"
#endif
/* A frozen copy of a real run (2x H200 at commit 85451d5, with the old
 * method names of that time): the expected cells of the tests are its
 * figures, so newer results files leave the tests alone. */
#define RESULTS GS_SOURCE_DIR "/tests/host/fixtures/results-h200-85451d5.json"
/* The committed run the docs are made of (its figures are not checked). */
#define COMMITTED GS_SOURCE_DIR "/bench/results/h200-2026-11-22.json"

/* The file `path` whole, in a static buffer (one at a time), or NULL. */
static inline char *slurp(const char *path)
{
    static char buf[1 << 18];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* `name` in the folder `dir`, read whole (slurp's buffer). */
static inline char *slurp_in(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path);
}

/* A file that is there and not empty. */
static inline int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

static inline void temp_dir(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/gs_report_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* cmd(argc, argv) with what it writes on standard error caught in `said`
 * (NUL-ended, at most len - 1 bytes). */
static inline int run_stderr(int (*cmd)(int, char **), int argc, char **argv, char *said,
                             size_t len)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int rc = cmd(argc, argv);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(said, 1, len - 1, tmp);
    said[n] = '\0';
    fclose(tmp);
    return rc;
}

/* Every table line of `md` has its header's number of unescaped '|'. */
static inline void assert_tables_intact(const char *md)
{
    int want = -1;
    for (const char *line = md; *line;) {
        const char *end = strchr(line, '\n');
        int n = 0;
        for (const char *p = line; p < (end ? end : line + strlen(line)); ++p)
            n += *p == '|' && (p == line || p[-1] != '\\');
        if (*line != '|')
            want = -1;
        else if (want < 0)
            want = n;
        else
            assert_int_equal(n, want);
        line = end ? end + 1 : line + strlen(line);
    }
}

#endif
