#include <lcms2.h>

/* lcms2's pixel formats are function-like macros, which Swift does not import. */
static const cmsUInt32Number cwi_lcms_rgba8 = TYPE_RGBA_8;
static const cmsUInt32Number cwi_lcms_gray8 = TYPE_GRAY_8;
static const cmsUInt32Number cwi_lcms_rgb8 = TYPE_RGB_8;
/* 16-bit RGBA; gray read from (or RGB written to) such pixels, the other samples skipped. */
static const cmsUInt32Number cwi_lcms_rgba16 = TYPE_RGBA_16;
static const cmsUInt32Number cwi_lcms_gray16_in_rgba16 = (COLORSPACE_SH(PT_GRAY) | EXTRA_SH(3) | CHANNELS_SH(1) | BYTES_SH(2));
static const cmsUInt32Number cwi_lcms_rgb16_in_rgba16 = (COLORSPACE_SH(PT_RGB) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(2));
