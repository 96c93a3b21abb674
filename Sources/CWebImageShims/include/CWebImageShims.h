#ifndef CWEBIMAGESHIMS_H
#define CWEBIMAGESHIMS_H
#include "jpeg_shim.h"
#include "memory_shim.h"
#include "png_shim.h"
#include "read_shim.h"
#include "rename_shim.h"
#include "stat_shim.h"
#include "tiff_shim.h"
#endif
