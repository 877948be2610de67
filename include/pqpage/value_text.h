// How pqpage shows what a file holds, as text for people and in its JSON reports (pqpage/
// inspect_json.h): names for enum ids read from a file, which may be ones the format does not
// define; text from the file made safe for a terminal; and statistics bounds, which a file stores
// as PLAIN-encoded bytes, decoded for their physical type (numbers for the numeric types, text or
// hex for byte arrays). A codec id's name is CodecIdName in pqpage/compression.h.
#ifndef PQPAGE_VALUE_TEXT_H_
#define PQPAGE_VALUE_TEXT_H_

#include <string>
#include <string_view>

#include "pqpage/json_writer.h"
#include "pqpage/page.h"
#include "pqpage/types.h"

namespace pqpage {

// Text from a file (names, created_by, messages) made fit for a terminal or a table.
// @return `text` with valid UTF-8 kept and control characters and invalid bytes as \xNN escapes,
// so that they cannot garble what is printed around them.
std::string Printable(std::string_view text);

// @return the spec's name for an encoding id read from a file ("PLAIN"), or "UNKNOWN(id)".
std::string EncodingIdName(int id);
// @return the spec's name for a page type id read from a file ("DATA_PAGE"), or "UNKNOWN(id)".
std::string PageTypeIdName(int id);

// Writes one bound (a PLAIN-encoded value, a byte array without its length) as a JSON value:
// a number for the numeric types, true/false for BOOLEAN, and a string of lowercase hex for the
// byte types, INT96 and a bound whose length does not fit its type.
void WriteBoundJson(JsonWriter& json, PhysicalType type, std::string_view bytes);
// The same bound for a table.
// @return numbers as numbers; a byte array as quoted text when it reads as text (cut after 64
// bytes, with its length), else as 0x-prefixed hex (cut after 32 bytes, with its length).
std::string FormatBoundText(PhysicalType type, std::string_view bytes);

// Writes `stats` as one single-line JSON object: bounds as WriteBoundJson writes them for `type`,
// counts as numbers, absent fields left out.
void WriteStatisticsJson(JsonWriter& json, PhysicalType type, const Statistics& stats);
// The same statistics for a table.
// @return "min 1, max 6, null_count 0" (bounds as FormatBoundText writes them), or "(empty)"
// when no field is set.
std::string FormatStatisticsText(PhysicalType type, const Statistics& stats);

}  // namespace pqpage

#endif  // PQPAGE_VALUE_TEXT_H_
