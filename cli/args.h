/* args.h - strict parsing of command-line values, with one-line errors. */
#ifndef GS_CLI_ARGS_H
#define GS_CLI_ARGS_H

#include <stddef.h>

/* Exit codes of the gridsync command (documented in README.md). */
enum gs_exit {
    GS_EXIT_OK = 0,      /* success */
    GS_EXIT_FAILURE = 1, /* a runtime failure (CUDA error, wrong result, time-out) */
    GS_EXIT_USAGE = 2,   /* bad command line */
    GS_EXIT_NO_GPU = 3   /* no usable GPU */
};

/* Parse a whole decimal integer (digits, optionally after '-') in [min, max]
 * for option `name`. On error
 * returns -1 and writes e.g. "--repeat: 'abc' is not a whole number" into
 * err. */
int gs_parse_long(const char *text, const char *name, long min, long max, long *out, char *err,
                  size_t errlen);

/* Parse a plain decimal number (digits with at most one '.', like "0.5",
 * "15", ".25"; no sign, exponent or space) in [min, max] for option `name`.
 * On error returns -1 with e.g. "--min-time: 'x' is not a number" in err. */
int gs_parse_double(const char *text, const char *name, double min, double max, double *out,
                    char *err, size_t errlen);

/* Called by gs_for_each_item for each item; 0, or -1 with a message in err. */
typedef int (*gs_item_fn)(const char *item, void *ctx, char *err, size_t errlen);

/* Call fn for each item of the comma-separated `text` (any length). An
 * empty `text` or item ("a,,b", "a,", ",a") is an error naming `name`.
 * Returns 0, or -1 with a message in err. */
int gs_for_each_item(const char *text, const char *name, gs_item_fn fn, void *ctx, char *err,
                     size_t errlen);

/* Parse "a,b,c" (each in [min, max], at most `cap` values; no empty item). */
int gs_parse_long_list(const char *text, const char *name, long min, long max, int *out,
                       int cap, int *count, char *err, size_t errlen);

/* Parse a device list for option `name`: "all" (*all = 1, *count = 0), or
 * ordinals "0,2" (each in [0, 1023], none twice, at most `cap`). */
int gs_parse_devices(const char *text, const char *name, int *out, int cap, int *count,
                     int *all, char *err, size_t errlen);

/* The message for getopt_long's return `c`: ':' (an option without its
 * value) or '?' (an unknown option, or a value for a long option that takes
 * none). `opt` is getopt's optopt, `element` the argument it was reading
 * (argv[optind - 1]; not the option's own inside a group like -Zj), and
 * `shortopts` the short options it was given. Short options are named by
 * their letter ('-Z'), long ones as written, without a value ('--bogus'). */
void gs_option_error(int c, int opt, const char *element, const char *shortopts, char *err,
                     size_t errlen);

#endif
