#include "cli/cli_row_selection.h"

#include <cstdint>
#include <limits>
#include <string>

#include "absl/strings/str_cat.h"

namespace pqpage::cli {

absl::StatusOr<std::optional<RowRange>> RowsFrom(const ParsedArgs& parsed) {
  const std::optional<std::string> text = parsed.Value("rows");
  if (!text) return std::nullopt;
  const size_t colon = text->find(':');
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (colon != std::string::npos) {
    absl::StatusOr<int64_t> begin = ParseIntegerOption("rows", text->substr(0, colon), 0, kMax);
    absl::StatusOr<int64_t> end = ParseIntegerOption("rows", text->substr(colon + 1), 0, kMax);
    if (begin.ok() && end.ok() && *begin <= *end) return RowRange{*begin, *end};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("option '--rows' needs A:B, two row numbers with A <= B, not '", *text, "'"));
}

}  // namespace pqpage::cli
