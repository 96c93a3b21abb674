#ifndef CWI_PNG_SHIM_H
#define CWI_PNG_SHIM_H
/* png: setjmp-guarded entry points (filled in by the png coder). */
#endif
