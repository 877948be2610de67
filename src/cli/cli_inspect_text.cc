#include "cli/cli_inspect_text.h"

#include "absl/strings/str_cat.h"
#include "cli/cli_str.h"
#include "pqpage/value_text.h"

namespace pqpage::cli {

std::string MixPageType(const PageEncodingCount& entry) {
  return PageTypeIdName(entry.page_type_id);
}

std::string MixEncoding(const PageEncodingCount& entry) {
  return entry.encoding ? Str(EncodingName(*entry.encoding)) : std::string();
}

std::string EncodingSummary(const InspectedChunk& chunk) {
  std::string out;
  for (const PageEncodingCount& entry : chunk.EncodingMix()) {
    if (!out.empty()) out += ", ";
    absl::StrAppend(&out, MixPageType(entry), entry.encoding ? "/" : "", MixEncoding(entry), " x",
                    entry.count);
  }
  if (out.empty()) out = "(no pages)";
  if (chunk.DictionaryFallback()) out += " (dictionary fallback)";
  return out;
}

const char* BoundaryOrderName(BoundaryOrder order) {
  if (order == BoundaryOrder::kAscending) return "ASCENDING";
  if (order == BoundaryOrder::kDescending) return "DESCENDING";
  return "UNORDERED";
}

}  // namespace pqpage::cli
