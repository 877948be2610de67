#include "cli/cli_reader_options.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace pqpage::cli {

std::vector<OptionSpec> WithReaderOptions(std::vector<OptionSpec> specs, bool with_checksum_flag) {
  specs.push_back({"max-page-size", true});
  specs.push_back({"mmap", false});
  if (with_checksum_flag) specs.push_back({"no-verify-checksums", false});
  return WithKeyOptions(std::move(specs));
}

absl::StatusOr<ReaderOptions> ReaderOptionsFrom(const ParsedArgs& parsed) {
  ReaderOptions options;
  options.verify_checksums = !parsed.Has("no-verify-checksums");
  options.memory_map = parsed.Has("mmap");
  if (std::optional<std::string> text = parsed.Value("max-page-size")) {
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    absl::StatusOr<int64_t> bytes = ParseByteSizeOption("max-page-size", *text, 1024, kMax);
    if (!bytes.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("option '--max-page-size' must be a size between 1K and 2G-1 (", kMax,
                       " bytes; K, M, G suffixes allowed), not '", *text, "'"));
    }
    options.max_page_bytes = *bytes;
  }
  const std::string file = parsed.positional().empty() ? std::string() : parsed.positional()[0];
  absl::StatusOr<std::shared_ptr<const FileDecryptionProperties>> keys =
      DecryptionFrom(parsed, file);
  if (!keys.ok()) return keys.status();
  options.decryption = *std::move(keys);
  return options;
}

}  // namespace pqpage::cli
