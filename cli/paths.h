/* paths.h - output paths, checked before any work starts. */
#ifndef GS_CLI_PATHS_H
#define GS_CLI_PATHS_H

#include <stddef.h>

/* Check that `path` (the value of option `name`) can be written without
 * writing anything: its folder exists and is writable, and the path is not a
 * folder. With `prefix` nonzero `path` starts file names (PREFIX-x.csv): only
 * its folder counts. Returns 0, or -1 with a message naming the path in err. */
int gs_check_output_path(const char *path, const char *name, int prefix, char *err,
                         size_t errlen);

/* Create the folder `dir` (the value of option `name`) with its parents if
 * need be and check that it is a writable folder. 0, or -1 as above. */
int gs_prepare_output_dir(const char *dir, const char *name, char *err, size_t errlen);

/* The output `path` of the run on device `ordinal` when `n` devices run:
 * `path` itself for one, else with "-dev<ordinal>" before the extension of
 * its last component ("r.json" -> "r-dev1.json", "out/r" -> "out/r-dev1",
 * "d.x/r" -> "d.x/r-dev1"). 0, or -1 when it does not fit in `len`. */
int gs_path_for_device(const char *path, int ordinal, int n, char *buf, size_t len);

#endif
