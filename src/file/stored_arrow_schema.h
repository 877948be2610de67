// The Arrow schema that Arrow writers (pyarrow, Arrow C++, arrow-rs) store in a Parquet file's
// key-value metadata under "ARROW:schema", parsed whole into a tree of fields whose types are
// spelled as Arrow C Data Interface format strings. The Arrow layer lets these types win over the
// ones it would derive from the Parquet schema where they are compatible (as pyarrow does), and
// ArrowDictionaryColumns finds its dictionary-typed columns in the same tree.
#ifndef PQPAGE_FILE_STORED_ARROW_SCHEMA_H_
#define PQPAGE_FILE_STORED_ARROW_SCHEMA_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/metadata.h"

namespace pqpage {

// One field of a stored Arrow schema.
struct StoredArrowField {
  std::string name;
  bool nullable = true;
  // The field's type as an Arrow C Data Interface format string
  // (https://arrow.apache.org/docs/format/CDataInterface.html#data-type-description-format-strings):
  // "n" null, "b" bool, "c"/"C" int8/uint8, "s"/"S", "i"/"I", "l"/"L", "e"/"f"/"g"
  // float16/32/64, "z"/"Z" binary/large binary, "vz" binary view, "u"/"U" utf8/large utf8, "vu"
  // utf8 view, "d:P,S" decimal128, "d:P,S,256" decimal256 (and ",32"/",64" bit widths), "w:N"
  // fixed-size binary, "tdD"/"tdm" date32/date64, "tts"/"ttm"/"ttu"/"ttn" time,
  // "tss:TZ"/"tsm:TZ"/"tsu:TZ"/"tsn:TZ" timestamps (TZ empty when none, e.g. "tsu:"),
  // "tDs"/"tDm"/"tDu"/"tDn" durations, "tiM"/"tiD"/"tin" intervals, "+l" list, "+L" large list,
  // "+vl"/"+vL" list views, "+w:N" fixed-size list, "+s" struct, "+m" map, "+ud:..."/"+us:..."
  // unions (the type ids, comma-separated), "+r" run-end encoded.
  // For a dictionary-encoded field this is the dictionary's VALUE type; see dictionary_index.
  std::string format;
  // "" unless dictionary encoded: the index type's format ("i" when the schema names none).
  std::string dictionary_index;
  bool dictionary_ordered = false;
  bool map_keys_sorted = false;  // Map.keysSorted
  // The field's custom_metadata, in order (an absent key or value reads as "").
  std::vector<std::pair<std::string, std::string>> metadata;
  // Nested types' fields: list, large list, list view and fixed-size list 1; map 1, an "entries"
  // struct of 2 (key, value); run-end encoded 2 (run ends, values); struct and union n (a union's
  // type ids as many); every other type none. These counts are checked.
  std::vector<StoredArrowField> children;

  bool operator==(const StoredArrowField&) const = default;
};

// The stored schema's top-level fields (the last ARROW:schema key that has a value), or
// std::nullopt when there is no ARROW:schema key (or it has no value).
//
// DataLoss for a value that is not base64 or not an Arrow Schema message: every offset and length
// in it is checked against its size, nesting deeper than 64 levels is refused, and so are a field
// without a type, a Type union member this parser does not know, parameters no Arrow type has (an
// Int of 12 bits, a 32-bit Time in microseconds, ...) and children counts a type cannot have. What
// the parse produces is bounded by a multiple of the message's size, so shared offsets in a hostile
// message cannot make it allocate without bound.
absl::StatusOr<std::optional<std::vector<StoredArrowField>>> ParseStoredArrowSchema(
    const std::vector<KeyValue>& key_value_metadata);

}  // namespace pqpage

#endif  // PQPAGE_FILE_STORED_ARROW_SCHEMA_H_
