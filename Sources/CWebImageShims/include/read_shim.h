#ifndef CWI_READ_SHIM_H
#define CWI_READ_SHIM_H
#include <stddef.h>
#include <sys/types.h>

/* Reads up to `count` bytes at `offset` only if they are already in the page cache: preadv2 with
 * RWF_NOWAIT. Returns the count read (short when only part is cached), or -1 with errno EAGAIN
 * when reading would wait for the disk, and EOPNOTSUPP/ENOSYS/EINVAL where the kernel or the
 * file system cannot tell. Swift cannot see glibc's preadv2 (it needs _GNU_SOURCE). */
ssize_t cwi_pread_resident(int fd, void *buffer, size_t count, off_t offset);

#endif
