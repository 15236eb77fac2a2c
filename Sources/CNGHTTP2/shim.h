// Swift-importable view of nghttp2 (>= 1.52, the version on Debian 12).
#ifndef CNGHTTP2_SHIM_H
#define CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>

/// The library version this module was compiled against.
static inline int CNGHTTP2_version_num(void) { return NGHTTP2_VERSION_NUM; }

#endif
