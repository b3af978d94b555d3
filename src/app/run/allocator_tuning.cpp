#include "app/run/allocator_tuning.h"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace logitlab::app {

void keepLargeAllocations()
{
#if defined(__GLIBC__)
    // Blocks up to 32 MiB (glibc's ceiling for this setting on 64-bit) come from the heap, not
    // from mmap(), and the heap keeps up to 512 MiB of freed memory for reuse.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 512 * 1024 * 1024);
#endif
}

}  // namespace logitlab::app
