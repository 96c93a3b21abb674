#ifndef CWI_RENAME_SHIM_H
#define CWI_RENAME_SHIM_H

/* Renames `from` to `to` only if `to` does not exist (renameat2 with RENAME_NOREPLACE).
 * Returns 0, or -1 with errno: EEXIST when `to` exists, EINVAL or ENOSYS when the file system
 * or kernel cannot do it (callers then stat and rename as before).
 * Swift's Glibc module does not import renameat2 (it needs _GNU_SOURCE). */
int cwi_rename_noreplace(const char *from, const char *to);

#endif
