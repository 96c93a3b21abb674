/* read shim: reads that never wait for the disk, for cache hits read on a CPU thread. */
#define _GNU_SOURCE
#include "read_shim.h"

#include <errno.h>
#include <sys/uio.h>

ssize_t cwi_pread_resident(int fd, void *buffer, size_t count, off_t offset) {
#if defined(__linux__) && defined(RWF_NOWAIT)
    struct iovec vector = {.iov_base = buffer, .iov_len = count};
    return preadv2(fd, &vector, 1, offset, RWF_NOWAIT);
#else
    (void)fd;
    (void)buffer;
    (void)count;
    (void)offset;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
