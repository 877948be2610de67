#include "cli/cli_reader_options.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"

namespace pqpage::cli {

std::vector<OptionSpec> WithReaderOptions(std::vector<OptionSpec> specs, bool with_checksum_flag) {
  specs.push_back({"max-page-size", true});
  specs.push_back({"mmap", false});
  if (with_checksum_flag) specs.push_back({"no-verify-checksums", false});
  return specs;
}

absl::StatusOr<ReaderOptions> ReaderOptionsFrom(const ParsedArgs& parsed) {
  ReaderOptions options;
  options.verify_checksums = !parsed.Has("no-verify-checksums");
  options.memory_map = parsed.Has("mmap");
  if (std::optional<std::string> text = parsed.Value("max-page-size")) {
    int64_t unit = 1;
    std::string digits = *text;
    if (!digits.empty()) {
      switch (digits.back()) {
        case 'K':
        case 'k':
          unit = int64_t{1} << 10;
          break;
        case 'M':
        case 'm':
          unit = int64_t{1} << 20;
          break;
        case 'G':
        case 'g':
          unit = int64_t{1} << 30;
          break;
        default:
          break;
      }
      if (unit != 1) digits.pop_back();
    }
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    absl::StatusOr<int64_t> count = ParseIntegerOption("max-page-size", digits, 1, kMax);
    if (!count.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option '--max-page-size' needs a size in bytes (K, M, G suffixes allowed), not '", *text,
          "'"));
    }
    const int64_t bytes = *count > kMax / unit ? kMax + 1 : *count * unit;
    if (bytes < 1024 || bytes > kMax) {
      return absl::InvalidArgumentError(absl::StrCat(
          "option '--max-page-size' must be between 1K and 2G-1 (", kMax, " bytes), not ", *text));
    }
    options.max_page_bytes = bytes;
  }
  return options;
}

}  // namespace pqpage::cli
