// Runs a libFuzzer target without libFuzzer: feeds LLVMFuzzerTestOneInput a deterministic corpus
// (the target's own seeds from PqpageFuzzSeeds, then every truncation and byte flip of each seed,
// then random mutations), so ctest exercises each harness on every build. A target signals a bug
// by aborting (the sanitizers do the same), which fails the test.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "fuzz/fuzz_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main() {
  std::vector<std::vector<uint8_t>> seeds = PqpageFuzzSeeds();
  seeds.push_back({});
  size_t runs = 0;
  auto run = [&](const std::vector<uint8_t>& input) {
    // An exact-size heap copy, so that the sanitizers see any read past the end.
    std::vector<uint8_t> copy(input);
    LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
    ++runs;
  };
  std::mt19937 rng(20261122);
  for (const std::vector<uint8_t>& seed : seeds) {
    run(seed);
    for (size_t cut = 0; cut < seed.size(); ++cut) {
      run(std::vector<uint8_t>(seed.begin(), seed.begin() + cut));
    }
    for (size_t i = 0; i < seed.size() && i < 512; ++i) {
      for (uint8_t flip : {0x01, 0x80, 0xFF}) {
        std::vector<uint8_t> mutated = seed;
        mutated[i] ^= flip;
        run(mutated);
      }
    }
    for (int k = 0; k < 2000; ++k) {
      std::vector<uint8_t> mutated = seed;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !mutated.empty(); ++e) {
        const size_t at = rng() % mutated.size();
        switch (rng() % 4) {
          case 0:
            mutated[at] = static_cast<uint8_t>(rng());
            break;
          case 1:
            mutated.erase(mutated.begin() + static_cast<std::ptrdiff_t>(at));
            break;
          case 2:
            mutated.insert(mutated.begin() + static_cast<std::ptrdiff_t>(at),
                           static_cast<uint8_t>(rng()));
            break;
          default:
            mutated.resize(at);
            break;
        }
      }
      run(mutated);
    }
  }
  std::printf("%zu inputs run, no crash\n", runs);
  return 0;
}
