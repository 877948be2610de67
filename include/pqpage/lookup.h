// Finding one value in one column of a file: which row groups, pages and rows may hold it, and
// what ruled each of the others out. A row group is tested, cheapest first, by its chunk's
// statistics (min_value / max_value in the column's order, and a chunk of nulls only), then its
// bloom filter, then its page index (pages whose bounds exclude the value); the rows left are the
// ones a reader has to look at, and FindRows looks at them. The value is the PLAIN bytes of one
// value (ParseValueText in pqpage/value_text.h makes them from text). Equality is the column's:
// for FLOAT and DOUBLE, 0.0 and -0.0 are one value (both are probed) and NaN matches NaN.
#ifndef PQPAGE_LOOKUP_H_
#define PQPAGE_LOOKUP_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/file.h"
#include "pqpage/page_index.h"

namespace pqpage {

// One test's outcome for one row group.
enum class LookupCheck : int8_t {
  kNotRun,    // an earlier test ruled the row group out
  kNone,      // the chunk has nothing to test (no bounds, no filter, no index, or a type or
              // value it cannot order, such as INT96 or NaN)
  kMayHold,   // the test could not rule the value out
  kRuledOut,  // the test proves the row group (or every page) holds no such value
};
// "not run", "none", "may hold", "ruled out".
std::string_view LookupCheckName(LookupCheck check);

struct RowGroupLookup {
  int row_group = 0;
  int64_t num_rows = 0;
  LookupCheck statistics = LookupCheck::kNotRun;
  LookupCheck bloom_filter = LookupCheck::kNotRun;
  LookupCheck page_index = LookupCheck::kNotRun;
  // Data pages the offset index lists, and of them those whose bounds may hold the value (both 0
  // when the page index was not run or the chunk has none).
  int64_t pages = 0;
  int64_t pages_may_hold = 0;
  // The rows of the group that may hold the value, in order; empty when it is ruled out.
  std::vector<RowRange> rows;
};

struct ValueLookup {
  int column = 0;
  std::string value;                       // the PLAIN bytes looked for
  std::vector<RowGroupLookup> row_groups;  // every row group, in order
};

// Tests every row group of `file` for `value` in leaf column `column`. A bloom filter or page
// index that cannot be read is told to `on_warning` (when set) and counts as absent: the answer
// stays correct, only less narrow.
// @return the lookup; InvalidArgument for a column out of range or a value whose size does not fit
// a fixed-size type; the file's errors otherwise.
absl::StatusOr<ValueLookup> LookupValue(const FileReader& file, int column, std::string_view value,
                                        const std::function<void(const std::string&)>& on_warning);

// LookupValue for several values of one column: each row group's bloom filter and page index
// are read once for all of them (and a damaged one warned of once).
// @return one lookup per value, in order; LookupValue's errors.
absl::StatusOr<std::vector<ValueLookup>> LookupValues(
    const FileReader& file, int column, const std::vector<std::string>& values,
    const std::function<void(const std::string&)>& on_warning);

// Reads the rows `lookup` left (and only those: pages outside them are skipped through the page
// index when there is one) and compares every value.
// @return the rows, counted from 0 across the file, where the column holds the value (a repeated
// column: in any element), in order; the reader's errors.
absl::StatusOr<std::vector<int64_t>> FindRows(
    const FileReader& file, const ValueLookup& lookup,
    const std::function<void(const std::string&)>& on_warning);

// `pqpage lookup --json`'s document: the file, column (index and path), the value (as
// pqpage/value_text.h writes bounds), then each row group with its three tests' outcomes
// (LookupCheckName), its pages and the row ranges that may hold the value ([begin, end) pairs),
// the rows left to read, and, when `found` is given, "found_rows": the rows FindRows returned.
// @return the document, ending in a newline.
std::string LookupJson(const FileReader& file, const ValueLookup& lookup,
                       const std::vector<int64_t>* found);
// The document for several values: a JSON array of the objects above, in order; `found`, when
// given, holds each value's rows.
std::string LookupJson(const FileReader& file, const std::vector<ValueLookup>& lookups,
                       const std::vector<std::vector<int64_t>>* found);

}  // namespace pqpage

#endif  // PQPAGE_LOOKUP_H_
