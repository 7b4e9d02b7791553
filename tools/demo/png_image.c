/* png_image.c - PNG through libpng's simplified API (png_image_*). */
#include "demo/png_image.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gs_png_write_rgb(const char *path, int width, int height, const unsigned char *rgb,
                     char *err, size_t errlen)
{
    png_image img;
    if (width <= 0 || height <= 0 || !rgb || !path) {
        snprintf(err, errlen, "png: bad image (%d x %d)", width, height);
        return -1;
    }
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)width;
    img.height = (png_uint_32)height;
    img.format = PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&img, path, 0, rgb, 0, NULL)) {
        snprintf(err, errlen, "png: cannot write %s: %s", path, img.message);
        png_image_free(&img);
        return -1;
    }
    return 0;
}

int gs_png_read_rgb(const char *path, int *width, int *height, unsigned char **rgb, char *err,
                    size_t errlen)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    *rgb = NULL;
    if (!png_image_begin_read_from_file(&img, path)) {
        snprintf(err, errlen, "png: cannot read %s: %s", path, img.message);
        return -1;
    }
    img.format = PNG_FORMAT_RGB;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf) {
        png_image_free(&img);
        snprintf(err, errlen, "png: out of memory for %s", path);
        return -1;
    }
    if (!png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        snprintf(err, errlen, "png: cannot decode %s: %s", path, img.message);
        free(buf);
        return -1;
    }
    *width = (int)img.width;
    *height = (int)img.height;
    *rgb = buf;
    return 0;
}
