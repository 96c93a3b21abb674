#ifndef CWI_MEMORY_SHIM_H
#define CWI_MEMORY_SHIM_H

/* Returns the memory glibc's allocator holds free, in every arena, to the kernel: malloc_trim(0).
 * Returns 1 if it released any, 0 if not or where the C library is not glibc. Swift's Glibc
 * module does not include <malloc.h>. */
int cwi_release_free_memory(void);

#endif
