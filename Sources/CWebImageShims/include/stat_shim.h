#ifndef CWI_STAT_SHIM_H
#define CWI_STAT_SHIM_H
#include <stdint.h>

/* The birth (creation) time of a file, from statx where the kernel and file system record it.
 * Returns 0 and fills seconds/nanoseconds, or -1 when unavailable (callers fall back to mtime).
 * Swift cannot see glibc's statx (it needs _GNU_SOURCE and clashes with the struct's name). */
int cwi_birth_time(const char *path, int64_t *seconds, int64_t *nanoseconds);

#endif
