// libFuzzer itself comes from -sanitize=fuzzer.
