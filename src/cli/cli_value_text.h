// How the pqpage tool shows what a file holds to people and in JSON: names for enum ids that may
// be unknown, file text made safe for a terminal, and statistics bounds decoded per physical type
// (numbers for numeric types, text or hex for byte arrays).
#ifndef PQPAGE_CLI_CLI_VALUE_TEXT_H_
#define PQPAGE_CLI_CLI_VALUE_TEXT_H_

#include <string>
#include <string_view>

#include "pqpage/compression.h"
#include "pqpage/json_writer.h"
#include "pqpage/page.h"
#include "pqpage/types.h"

namespace pqpage::cli {

// A std::string copy: absl::StrCat takes absl::string_view, which Debian's Abseil keeps distinct
// from std::string_view.
std::string Str(std::string_view text);

// Text from the file (names, created_by, messages) for a terminal: valid UTF-8 passes, control
// characters and invalid bytes become \xNN escapes so they cannot garble the table.
std::string Printable(std::string_view text);

// The spec's name for an id read from a file, or "UNKNOWN(id)".
std::string EncodingIdName(int id);
std::string CodecIdName(int id);
std::string PageTypeIdName(int id);

// One bound (a PLAIN-encoded value, byte arrays without their length) as JSON: numbers for the
// numeric types, true/false for BOOLEAN, lowercase hex for the byte types (and for a bound whose
// length does not fit its type).
void WriteBoundJson(JsonWriter& json, PhysicalType type, std::string_view bytes);
// The same for the table: numbers as numbers, byte arrays as quoted text when they read as text
// (shortened past 64 bytes), else as 0x-prefixed hex.
std::string FormatBoundText(PhysicalType type, std::string_view bytes);

// Statistics as one JSON object: bounds decoded for `type` (hex for byte arrays and for a bound
// whose length does not fit its type), counts as numbers; absent fields are left out.
void WriteStatisticsJson(JsonWriter& json, PhysicalType type, const Statistics& stats);
// The same for the table: "min 1, max 6, null_count 0".
std::string FormatStatisticsText(PhysicalType type, const Statistics& stats);

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_VALUE_TEXT_H_
