#include <stddef.h>
#include <stdio.h>  /* jpeglib.h uses FILE and size_t without including them */
#include <jpeglib.h>
#include <jerror.h>
