// FreeType's headers are named through macros from ft2build.h; this header is what the module map
// can point at.
#include <ft2build.h>
#include FT_FREETYPE_H
