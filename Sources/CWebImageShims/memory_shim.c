/* memory shim: the service's periodic malloc_trim. */
#include "memory_shim.h"

#include <stdlib.h> /* defines __GLIBC__ with glibc */

#ifdef __GLIBC__
#include <malloc.h>
#endif

int cwi_release_free_memory(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}
