// How pqpage shows what a file holds, as text for people and in its JSON reports (pqpage/
// inspect_json.h): names for enum ids read from a file, which may be ones the format does not
// define; text from the file made safe for a terminal; and statistics bounds, which a file stores
// as PLAIN-encoded bytes, decoded for their physical type (numbers for the numeric types, text or
// hex for byte arrays), and values a person types as the bytes a file stores. A codec id's name is
// CodecIdName in pqpage/compression.h.
#ifndef PQPAGE_VALUE_TEXT_H_
#define PQPAGE_VALUE_TEXT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/json_writer.h"
#include "pqpage/metadata.h"
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

// Text from a file that may be long or binary (key metadata, an AAD prefix), for a message.
// @return `text` made Printable, cut after 64 bytes (then "..."), in double quotes.
std::string QuotedExcerpt(const std::string& text);

// How a file is encrypted, for a person.
// @return e.g. "AES_GCM_V1, encrypted footer (footer key metadata \"kf\"), AAD prefix stored
// (\"tester\")"; key metadata and prefixes made Printable and cut after 64 bytes.
std::string FileEncryptionText(const FileMetaData::Encryption& encryption);
// How a column chunk is encrypted, for a person.
// @return "" for a chunk in the clear; else "footer key" or "column key (key metadata \"kc1\")",
// followed by ", column metadata encrypted" when it is stored as a module.
std::string ColumnEncryptionText(const ColumnChunk& chunk);

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

// The reverse, for values a person gives (pqpage lookup): `text` as the PLAIN bytes of one value
// of `column` (a byte array without its length), the form statistics and the page index store
// and bloom filters hash. By the column's logical type:
//   INT32, INT64          an integer in the type's range (INTEGER(8..16) and unsigned: theirs)
//   DATE                  2026-01-31, or the day number
//   TIMESTAMP             RFC 3339 (2026-01-31T12:00:00.5Z), the same without zone as UTC, or
//                         the stored integer
//   DECIMAL               12.50 (at most `scale` places that are not zeros; at most 38 digits),
//                         as the column stores it: a scaled integer, or big-endian two's
//                         complement bytes, the fewest for BYTE_ARRAY, type_length for FLBA
//   FLOAT, DOUBLE         a number, "nan", "inf"
//   BOOLEAN               true, false, 1, 0
//   STRING, ENUM, JSON    the text's bytes
//   UUID                  8-4-4-4-12 hex digits
//   other byte arrays     the text's bytes, or 0x and hex digits
// A FIXED_LEN_BYTE_ARRAY value must come to type_length bytes.
// @return the bytes; InvalidArgument, quoting the text, for text the column cannot hold;
// Unimplemented for INT96.
absl::StatusOr<std::string> ParseValueText(const ColumnDescriptor& column, std::string_view text);
// The PLAIN bytes of one value of `column` given as hex digits (with or without 0x), as pqpage
// dump prints byte arrays: the exact stored form, for scripts.
// @return the bytes; InvalidArgument for other text, or a size that does not fit a fixed-size
// type.
absl::StatusOr<std::string> ParsePlainHex(const ColumnDescriptor& column, std::string_view hex);

}  // namespace pqpage

#endif  // PQPAGE_VALUE_TEXT_H_
