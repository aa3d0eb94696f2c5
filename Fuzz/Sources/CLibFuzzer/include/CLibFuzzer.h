#ifndef AWAREBENCH_CLIBFUZZER_H
#define AWAREBENCH_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs that have their own main (compiler-rt
// FuzzerDriver.cpp). SwiftPM gives every executable a main of its own on Linux, so the
// fuzz targets call this instead of linking libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
