/* stat shim: statx birth time for the disk cache's creation-date expiry. */
#define _GNU_SOURCE
#include "stat_shim.h"

#include <fcntl.h>
#include <sys/stat.h>

int cwi_birth_time(const char *path, int64_t *seconds, int64_t *nanoseconds) {
#if defined(__linux__) && defined(STATX_BTIME)
    struct statx sx;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) != 0) return -1;
    if (!(sx.stx_mask & STATX_BTIME)) return -1;
    *seconds = (int64_t)sx.stx_btime.tv_sec;
    *nanoseconds = (int64_t)sx.stx_btime.tv_nsec;
    return 0;
#else
    (void)path;
    (void)seconds;
    (void)nanoseconds;
    return -1;
#endif
}
