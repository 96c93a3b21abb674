#include <lcms2.h>

/* lcms2's pixel formats are function-like macros, which Swift does not import. */
static const cmsUInt32Number cwi_lcms_rgba8 = TYPE_RGBA_8;
static const cmsUInt32Number cwi_lcms_gray8 = TYPE_GRAY_8;
static const cmsUInt32Number cwi_lcms_rgb8 = TYPE_RGB_8;
