// Each fuzz target defines PqpageFuzzSeeds(): a few valid inputs for its harness, which the
// replay driver mutates and which `TARGET_replay --write-seeds DIR` writes out as the starting
// corpus of the libFuzzer build (tests/fuzz/run_fuzzer.sh).
#ifndef PQPAGE_TESTS_FUZZ_FUZZ_SEEDS_H_
#define PQPAGE_TESTS_FUZZ_FUZZ_SEEDS_H_

#include <cstdint>
#include <vector>

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds();

#endif  // PQPAGE_TESTS_FUZZ_FUZZ_SEEDS_H_
