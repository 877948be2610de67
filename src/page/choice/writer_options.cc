#include "pqpage/writer_options.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace pqpage {

std::string_view EncodingPolicyName(EncodingPolicy policy) {
  switch (policy) {
    case EncodingPolicy::kAuto:
      return "auto";
    case EncodingPolicy::kPlain:
      return "plain";
    case EncodingPolicy::kDictionary:
      return "dictionary";
    case EncodingPolicy::kDelta:
      return "delta";
    case EncodingPolicy::kDeltaLengthByteArray:
      return "delta_length_byte_array";
    case EncodingPolicy::kByteStreamSplit:
      return "byte_stream_split";
  }
  return "unknown";
}

std::optional<EncodingPolicy> ParseEncodingPolicy(std::string_view name) {
  for (EncodingPolicy policy :
       {EncodingPolicy::kAuto, EncodingPolicy::kPlain, EncodingPolicy::kDictionary,
        EncodingPolicy::kDelta, EncodingPolicy::kDeltaLengthByteArray,
        EncodingPolicy::kByteStreamSplit}) {
    if (EncodingPolicyName(policy) == name) return policy;
  }
  return std::nullopt;
}

absl::StatusOr<EncodingPolicy> EncodingPolicyFromName(std::string_view name) {
  const std::optional<EncodingPolicy> policy =
      ParseEncodingPolicy(absl::AsciiStrToLower(std::string(name)));
  if (!policy) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown encoding '", std::string(name),
        "' (auto, plain, dictionary, delta, delta_length_byte_array, byte_stream_split)"));
  }
  return *policy;
}

WriterOptions WriterOptions::ForColumn(std::string_view column_path) const {
  WriterOptions out = *this;
  out.column_overrides.clear();
  const auto found = column_overrides.find(column_path);
  if (found == column_overrides.end()) return out;
  const ColumnWriterOverride& override = found->second;
  if (override.encoding) out.encoding = *override.encoding;
  if (override.compression && *override.compression != compression) {
    out.compression = *override.compression;
    out.compression_level = kDefaultCompressionLevel;
  }
  if (override.compression_level) out.compression_level = *override.compression_level;
  if (override.dictionary_page_size_limit) {
    out.dictionary_page_size_limit = *override.dictionary_page_size_limit;
  }
  if (override.data_page_size) out.data_page_size = *override.data_page_size;
  if (override.dictionary) out.dictionary = override.dictionary;
  if (override.auto_encodings) out.auto_encodings = *override.auto_encodings;
  if (override.bloom_filter) out.bloom_filter = *override.bloom_filter;
  if (override.content_defined_chunking) {
    out.content_defined_chunking = *override.content_defined_chunking;
  }
  return out;
}

std::vector<std::string> UnknownOverrideColumns(const WriterOptions& options,
                                                const std::vector<ColumnDescriptor>& columns) {
  std::vector<std::string> unknown;
  for (const auto& entry : options.column_overrides) {
    const bool known = std::any_of(columns.begin(), columns.end(), [&](const ColumnDescriptor& c) {
      return c.PathString() == entry.first;
    });
    if (!known) unknown.push_back(entry.first);
  }
  return unknown;
}

}  // namespace pqpage
