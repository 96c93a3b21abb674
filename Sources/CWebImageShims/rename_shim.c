/* rename shim: renameat2(RENAME_NOREPLACE) for the disk cache's new entries. */
#define _GNU_SOURCE
#include "rename_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

int cwi_rename_noreplace(const char *from, const char *to) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}
