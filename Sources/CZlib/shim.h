#include <zlib.h>

// inflateInit2 is a macro (it passes zlib's version and the stream's size), which Swift cannot call.
static inline int webimage_inflate_init2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
