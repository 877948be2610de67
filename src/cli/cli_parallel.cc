#include "cli/cli_parallel.h"

#include <algorithm>
#include <atomic>
#include <mutex>
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

absl::Status RunTasks(int threads, int64_t count,
                      const std::function<absl::Status(int64_t)>& task) {
  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards first_failed and first_error
  int64_t first_failed = count;
  absl::Status first_error;
  auto work = [&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const int64_t i = next.fetch_add(1);
      if (i >= count) return;
      absl::Status status = task(i);
      if (!status.ok()) {
        stop.store(true, std::memory_order_relaxed);
        const std::lock_guard<std::mutex> lock(mutex);
        if (i < first_failed) {
          first_failed = i;
          first_error = std::move(status);
        }
      }
    }
  };
  const int64_t helpers = std::min<int64_t>(threads, count) - 1;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(std::max<int64_t>(helpers, 0)));
  for (int64_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return first_error;
}

}  // namespace pqpage::cli
