/*
 * id_file.h - the file bootstrap's text format (internal; pure functions,
 * for the host tests). A file holds:
 *     gridsync-nccl-unique-id 1
 *     ranks <n>
 *     <the id's bytes in hexadecimal, two digits each>
 */
#ifndef GS_MULTI_ID_FILE_H
#define GS_MULTI_ID_FILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The text for `nbytes` bytes and a rank count into buf; its length, or -1
 * when it does not fit. */
int gs__id_format(char *buf, size_t len, const unsigned char *bytes, size_t nbytes, int nranks);

/* Parse such a text: exactly `nbytes` bytes and a rank count >= 1. 0, or -1
 * for anything else (another format, a short or long id, trailing text). */
int gs__id_parse(const char *text, unsigned char *bytes, size_t nbytes, int *nranks);

#ifdef __cplusplus
}
#endif

#endif /* GS_MULTI_ID_FILE_H */
