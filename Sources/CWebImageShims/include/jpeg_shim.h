#ifndef CWI_JPEG_SHIM_H
#define CWI_JPEG_SHIM_H
/* jpeg: setjmp-guarded entry points (filled in by the jpeg coder). */
#endif
