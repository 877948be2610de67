// Runs a libFuzzer target without libFuzzer, so ctest exercises each harness on every build:
//   TARGET_replay [REGRESSION_DIR]   feeds LLVMFuzzerTestOneInput every file of REGRESSION_DIR (the
//                                    inputs that once found a bug), then the target's own seeds
//                                    from PqpageFuzzSeeds, every truncation and byte flip of each
//                                    seed, and random mutations: a deterministic corpus.
//   TARGET_replay --write-seeds DIR  writes the seeds as files into DIR, the starting corpus of the
//                                    real fuzzer (tests/fuzz/run_fuzzer.sh).
// A target signals a bug by aborting (the sanitizers do the same), which fails the test.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz/fuzz_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int WriteSeeds(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::vector<std::vector<uint8_t>> seeds = PqpageFuzzSeeds();
  for (size_t i = 0; i < seeds.size(); ++i) {
    const std::filesystem::path path = dir / ("seed-" + std::to_string(i));
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(seeds[i].data()),
              static_cast<std::streamsize>(seeds[i].size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
  }
  std::printf("%zu seeds written to %s\n", seeds.size(), dir.c_str());
  return 0;
}

std::vector<uint8_t> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write-seeds") == 0) return WriteSeeds(argv[2]);
  size_t runs = 0;
  auto run = [&](const std::vector<uint8_t>& input) {
    // An exact-size heap copy, so that the sanitizers see any read past the end.
    std::vector<uint8_t> copy(input);
    LLVMFuzzerTestOneInput(copy.empty() ? nullptr : copy.data(), copy.size());
    ++runs;
  };
  size_t regressions = 0;
  if (argc == 2 && std::filesystem::is_directory(argv[1])) {
    for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
      if (!entry.is_regular_file()) continue;
      run(ReadFile(entry.path()));
      ++regressions;
    }
  }
  std::vector<std::vector<uint8_t>> seeds = PqpageFuzzSeeds();
  seeds.push_back({});
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
  std::printf("%zu inputs run (%zu from the regression corpus), no crash\n", runs, regressions);
  return 0;
}
