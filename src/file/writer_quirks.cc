#include "file/writer_quirks.h"

#include <array>
#include <cctype>

namespace pqpage::internal {
namespace {

// Reads "x.y.z" (missing parts are 0); false when no digit follows "version ".
bool ParseVersion(std::string_view text, std::array<int, 3>* version) {
  const size_t at = text.find("version ");
  if (at == std::string_view::npos) return false;
  text.remove_prefix(at + 8);
  *version = {0, 0, 0};
  size_t part = 0;
  bool any_digit = false;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any_digit = true;
      if ((*version)[part] < 100000) (*version)[part] = (*version)[part] * 10 + (c - '0');
    } else if (c == '.' && part < 2) {
      ++part;
    } else {
      break;
    }
  }
  return any_digit;
}

}  // namespace

bool UndercountsDictionaryHeader(std::string_view created_by) {
  if (created_by.substr(0, 10) != "parquet-mr") return false;
  std::array<int, 3> version;
  if (!ParseVersion(created_by, &version)) return true;
  constexpr std::array<int, 3> kFixed = {1, 2, 9};
  return version < kFixed;
}

bool CarriesDeltaByteArrayPrefixAcrossPages(std::string_view created_by) {
  if (created_by.substr(0, 10) != "parquet-mr") return false;
  std::array<int, 3> version;
  if (!ParseVersion(created_by, &version)) return false;
  constexpr std::array<int, 3> kFixed = {1, 8, 0};
  return version < kFixed;
}

bool PacksBitPackedLevelsLsbFirst(std::string_view created_by) {
  // Matched on the application name only: "parquet-cpp" also covers "parquet-cpp-arrow".
  for (std::string_view writer : {"impala", "parquet-cpp", "parquet-rs"}) {
    if (created_by.substr(0, writer.size()) == writer) return true;
  }
  return false;
}

}  // namespace pqpage::internal
