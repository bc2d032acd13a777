// libFuzzer's entry point for programs with their own main (the Swift @main below).
#ifndef TOUCHD_FUZZER_DRIVER_H
#define TOUCHD_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
typedef int (*touchd_fuzz_callback)(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, touchd_fuzz_callback callback);
/// libFuzzer's own mutation, for a custom mutator to fall back on.
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
#endif
