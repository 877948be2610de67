#include "cli/cli_parallel.h"

#include <algorithm>
#include <string>
#include <thread>

namespace pqpage::cli {

std::vector<OptionSpec> WithThreadsOption(std::vector<OptionSpec> specs) {
  specs.push_back({"threads", true});
  return specs;
}

absl::StatusOr<int> ThreadsFrom(const ParsedArgs& parsed) {
  constexpr int kMaxThreads = 256;
  if (std::optional<std::string> text = parsed.Value("threads")) {
    absl::StatusOr<int64_t> threads = ParseIntegerOption("threads", *text, 1, kMaxThreads);
    if (!threads.ok()) return threads.status();
    return static_cast<int>(*threads);
  }
  // hardware_concurrency may report 0 when it cannot tell.
  return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
}

}  // namespace pqpage::cli
