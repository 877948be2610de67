#include "pqpage/value_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pqpage/json_writer.h"
#include "pqpage/page.h"
#include "pqpage/types.h"
#include "pqpage/value_type.h"

namespace pqpage {

static std::string HexBytes(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 15]);
  }
  return out;
}

std::string Printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const size_t length = Utf8SequenceLength(text, i);
    if (length == 0 || byte < 0x20 || byte == 0x7f) {
      out += absl::StrFormat("\\x%02x", byte);
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

// Whether byte-array statistics read as text: valid UTF-8 without control characters.
static bool IsPrintableText(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = Utf8SequenceLength(text, i);
    const auto byte = static_cast<unsigned char>(text[i]);
    if (length == 0 || byte < 0x20 || byte == 0x7f) return false;
    i += length;
  }
  return true;
}

template <typename T>
static T LoadLittleEndian(std::string_view bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  using Unsigned = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  Unsigned bits = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    bits |= static_cast<Unsigned>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

std::string EncodingIdName(int id) {
  if (const std::optional<Encoding> encoding = EncodingFromId(id)) {
    return std::string(EncodingName(*encoding));
  }
  return absl::StrCat("UNKNOWN(", id, ")");
}

std::string PageTypeIdName(int id) {
  if (id >= 0 && id <= 3) return std::string(PageTypeName(static_cast<PageType>(id)));
  return absl::StrCat("UNKNOWN(", id, ")");
}

// Calls fn(value) with a BOOLEAN or numeric bound decoded as its value type, and returns true;
// false for the byte types, INT96, and a bound whose length does not fit its type.
template <typename Fn>
static bool VisitNumericBound(PhysicalType type, std::string_view bytes, Fn&& fn) {
  return VisitValueType(type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (std::is_same_v<T, bool>) {
      if (bytes.size() != 1) return false;
      fn(bytes[0] != 0);
      return true;
    } else if constexpr (std::is_arithmetic_v<T>) {
      if (bytes.size() != sizeof(T)) return false;
      fn(LoadLittleEndian<T>(bytes));
      return true;
    } else {
      return false;
    }
  });
}

void WriteBoundJson(JsonWriter& json, PhysicalType type, std::string_view bytes) {
  const bool numeric = VisitNumericBound(type, bytes, [&](auto value) {
    using T = decltype(value);
    if constexpr (std::is_same_v<T, bool>) {
      json.Bool(value);
    } else if constexpr (std::is_floating_point_v<T>) {
      json.Float(value);
    } else {
      json.Int(value);
    }
  });
  if (!numeric) json.String(HexBytes(bytes));
}

std::string FormatBoundText(PhysicalType type, std::string_view bytes) {
  std::string text;
  const bool numeric = VisitNumericBound(type, bytes, [&](auto value) {
    using T = decltype(value);
    if constexpr (std::is_same_v<T, bool>) {
      text = value ? "true" : "false";
    } else if constexpr (std::is_floating_point_v<T>) {
      text = FormatFloat(value);
    } else {
      text = absl::StrCat(value);
    }
  });
  if (numeric) return text;
  const bool byte_type =
      type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
  if (byte_type && IsPrintableText(bytes)) {
    constexpr size_t kMaxText = 64;
    std::string_view shown = bytes;
    if (shown.size() > kMaxText) {
      size_t cut = kMaxText;
      // Back up to a character boundary.
      while (cut > 0 && (static_cast<unsigned char>(bytes[cut]) & 0xc0) == 0x80) --cut;
      shown = bytes.substr(0, cut);
    }
    std::string quoted = "\"";
    for (char c : shown) {
      if (c == '"' || c == '\\') quoted += '\\';
      quoted += c;
    }
    quoted += '"';
    if (shown.size() < bytes.size()) absl::StrAppend(&quoted, "... (", bytes.size(), " bytes)");
    return quoted;
  }
  constexpr size_t kMaxHexBytes = 32;
  if (bytes.size() > kMaxHexBytes) {
    return absl::StrCat("0x", HexBytes(bytes.substr(0, kMaxHexBytes)), "... (", bytes.size(),
                        " bytes)");
  }
  return absl::StrCat("0x", HexBytes(bytes));
}

void WriteStatisticsJson(JsonWriter& json, PhysicalType type, const Statistics& stats) {
  json.BeginObject(/*single_line=*/true);
  const auto bound = [&](const char* key, const std::optional<std::string>& value) {
    if (!value) return;
    json.Key(key);
    WriteBoundJson(json, type, *value);
  };
  bound("min_value", stats.min_value);
  bound("max_value", stats.max_value);
  bound("legacy_min", stats.legacy_min);
  bound("legacy_max", stats.legacy_max);
  const auto count = [&](const char* key, const std::optional<int64_t>& value) {
    if (!value) return;
    json.Key(key);
    json.Int(*value);
  };
  count("null_count", stats.null_count);
  count("distinct_count", stats.distinct_count);
  count("nan_count", stats.nan_count);
  json.EndObject();
}

std::string FormatStatisticsText(PhysicalType type, const Statistics& stats) {
  std::vector<std::string> parts;
  if (stats.min_value) parts.push_back("min " + FormatBoundText(type, *stats.min_value));
  if (stats.max_value) parts.push_back("max " + FormatBoundText(type, *stats.max_value));
  if (stats.legacy_min) parts.push_back("legacy min " + FormatBoundText(type, *stats.legacy_min));
  if (stats.legacy_max) parts.push_back("legacy max " + FormatBoundText(type, *stats.legacy_max));
  if (stats.null_count) parts.push_back(absl::StrCat("null_count ", *stats.null_count));
  if (stats.distinct_count) {
    parts.push_back(absl::StrCat("distinct_count ", *stats.distinct_count));
  }
  if (stats.nan_count) parts.push_back(absl::StrCat("nan_count ", *stats.nan_count));
  if (parts.empty()) return "(empty)";
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += ", ";
    out += parts[i];
  }
  return out;
}

std::string QuotedExcerpt(const std::string& text) {
  constexpr size_t kShown = 64;
  return absl::StrCat("\"", Printable(text.substr(0, kShown)), text.size() > kShown ? "..." : "",
                      "\"");
}

std::string FileEncryptionText(const FileMetaData::Encryption& encryption) {
  std::string text = absl::StrCat(encryption.algorithm, encryption.encrypted_footer
                                                            ? ", encrypted footer"
                                                            : ", plaintext footer (signed)");
  if (!encryption.footer_key_metadata.empty()) {
    absl::StrAppend(&text, " (footer key metadata ", QuotedExcerpt(encryption.footer_key_metadata),
                    ")");
  }
  if (encryption.supply_aad_prefix) {
    absl::StrAppend(&text, ", AAD prefix supplied by the reader");
  } else if (!encryption.aad_prefix.empty()) {
    absl::StrAppend(&text, ", AAD prefix stored (", QuotedExcerpt(encryption.aad_prefix), ")");
  }
  return text;
}

std::string ColumnEncryptionText(const ColumnChunk& chunk) {
  if (!chunk.crypto_metadata) return "";
  std::string text = chunk.crypto_metadata->footer_key ? "footer key" : "column key";
  if (!chunk.crypto_metadata->footer_key && !chunk.crypto_metadata->key_metadata.empty()) {
    absl::StrAppend(&text, " (key metadata ", QuotedExcerpt(chunk.crypto_metadata->key_metadata),
                    ")");
  }
  if (chunk.encrypted_column_metadata) absl::StrAppend(&text, ", column metadata encrypted");
  return text;
}

}  // namespace pqpage
