#include "page/write/content_defined_chunker.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pqpage::internal {
namespace {

constexpr std::array<uint64_t, 256> MakeGearTable() {
  std::array<uint64_t, 256> table{};
  uint64_t state = 0x7071706167654344;  // "pqpageCD": any fixed seed does
  for (uint64_t& entry : table) {
    // splitmix64
    state += 0x9E3779B97F4A7C15;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
    entry = z ^ (z >> 31);
  }
  return table;
}

// The bytes until the first match (that byte included) among the next `bytes`, each a match with
// probability `p`, or `bytes` when none matches: the sum of (1 - p)^j for j below `bytes`.
double ExpectedRun(double p, double bytes) {
  if (p <= 0) return bytes;
  if (p >= 1) return std::min(1.0, bytes);
  return -std::expm1(bytes * std::log1p(-p)) / p;
}

double Survival(double p, double bytes) {
  if (p >= 1) return bytes > 0 ? 0.0 : 1.0;
  return std::exp(bytes * std::log1p(-p));
}

double Probability(uint64_t threshold) { return std::ldexp(static_cast<double>(threshold), -64); }

uint64_t Threshold(double p) {
  const double scaled = std::ldexp(p, 64);
  if (!(scaled < std::ldexp(1.0, 64))) return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(scaled);
}

}  // namespace

const std::array<uint64_t, 256> kGearTable = MakeGearTable();

double ExpectedPageBytes(const ChunkingPlan& plan) {
  const double early = Probability(plan.early_threshold);
  const double late = Probability(plan.late_threshold);
  const auto early_bytes = static_cast<double>(plan.average_bytes - plan.min_bytes);
  const auto late_bytes = static_cast<double>(plan.max_bytes - plan.average_bytes);
  return static_cast<double>(plan.min_bytes) + ExpectedRun(early, early_bytes) +
         Survival(early, early_bytes) * ExpectedRun(late, late_bytes);
}

absl::StatusOr<ChunkingPlan> PlanChunking(const ContentDefinedChunking& options,
                                          int64_t data_page_size) {
  constexpr int64_t kMostBytes = int64_t{1} << 30;  // pages hold int32 sizes
  ChunkingPlan plan;
  plan.min_bytes = options.min_page_bytes.value_or(std::max<int64_t>(1, data_page_size / 4));
  plan.max_bytes = options.max_page_bytes.value_or(
      std::min(kMostBytes, std::max(plan.min_bytes + 1, data_page_size * 2)));
  if (plan.min_bytes < 1 || plan.max_bytes <= plan.min_bytes || plan.max_bytes > kMostBytes ||
      options.norm_level < 0 || options.norm_level > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "content-defined chunking options out of range (min_page_bytes ", plan.min_bytes,
        " must be at least 1, max_page_bytes ", plan.max_bytes, " above it and at most ",
        kMostBytes, ", norm_level ", options.norm_level, " in 0..3)"));
  }
  plan.average_bytes = data_page_size > plan.min_bytes && data_page_size < plan.max_bytes
                           ? data_page_size
                           : plan.min_bytes + (plan.max_bytes - plan.min_bytes) / 2;
  // ExpectedPageBytes falls as the base rate p rises: bisect on log2(p) until it gives the
  // average (or the nearest the range allows).
  const double skew = std::ldexp(1.0, options.norm_level);
  auto plan_for = [&](double log2_p) {
    const double p = std::exp2(log2_p);
    ChunkingPlan out = plan;
    out.early_threshold = Threshold(p / skew);
    out.late_threshold = Threshold(std::min(1.0, p * skew));
    return out;
  };
  double low = -63;  // rarest matches: the largest pages
  double high = 0;
  for (int step = 0; step < 80; ++step) {
    const double mid = (low + high) / 2;
    if (ExpectedPageBytes(plan_for(mid)) > static_cast<double>(plan.average_bytes)) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return plan_for((low + high) / 2);
}

}  // namespace pqpage::internal
