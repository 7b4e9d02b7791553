/* png_image.h - writing and reading 8-bit RGB images as PNG (libpng). */
#ifndef GS_DEMO_PNG_IMAGE_H
#define GS_DEMO_PNG_IMAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Write `rgb` (height rows of width x 3 bytes, top row first) to `path`.
 * Returns 0, or -1 with a sentence in `err`. */
int gs_png_write_rgb(const char *path, int width, int height, const unsigned char *rgb,
                     char *err, size_t errlen);

/* Read an 8-bit RGB PNG written by gs_png_write_rgb (or any 8-bit RGB PNG):
 * *rgb receives malloc'ed pixels the caller frees. 0 or -1 with `err`. */
int gs_png_read_rgb(const char *path, int *width, int *height, unsigned char **rgb, char *err,
                    size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
