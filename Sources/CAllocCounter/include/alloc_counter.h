// Counts heap allocations of the benchmark process by interposing malloc and friends (the executable's
// definitions win over libc's), forwarding to glibc's __libc_* implementations. Only touchd-bench links it.
#ifndef TOUCHD_ALLOC_COUNTER_H
#define TOUCHD_ALLOC_COUNTER_H
#include <stdint.h>
/// Allocations (malloc, calloc, realloc, memalign family) since the process started.
uint64_t touchd_allocation_count(void);
#endif
