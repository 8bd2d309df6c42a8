// CPrefetch is one inline function in include/CPrefetch.h; a C target needs a source file.
#include "CPrefetch.h"
