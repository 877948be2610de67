// The page index of a column chunk (the format's ColumnIndex and OffsetIndex): where each data
// page lies and which rows it starts at, and each page's bounds, null count and level
// histograms, so that an engine can skip pages whose values cannot match and read only the rows
// it needs. ColumnChunkWriter produces a chunk's (ChunkPageIndex, in ColumnChunkData) and
// FileWriter stores it; FileReader::ReadPageIndex reads a file's (ChunkPageIndex), and
// RowsThatMayMatch turns a filter into the rows an engine still has to read.
#ifndef PQPAGE_PAGE_INDEX_H_
#define PQPAGE_PAGE_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/column_descriptor.h"

namespace pqpage {

// The ColumnIndex's boundary_order: how the pages' bounds run, null pages left out.
enum class BoundaryOrder : int8_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

// One data page as a column chunk's page index describes it: the OffsetIndex's PageLocation and
// unencoded bytes, and the ColumnIndex's entries for the page, side by side.
struct IndexedPage {
  // From the OffsetIndex: the page's header offset in the file, its size with the header, and
  // the index (within the row group) of its first row.
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  // BYTE_ARRAY columns: the bytes of the page's values, without length prefixes.
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  // From the ColumnIndex.
  bool null_page = false;  // the page holds no value: every level is below the maximum
  // The page's bounds in the column's sort order, as PLAIN bytes (byte arrays without their
  // length); empty for a null page. A writer stores the page's statistics, except that byte
  // arrays longer than WriterOptions::page_index_truncate_length are cut there: the min to its
  // prefix, the max to its prefix with the last byte that is not 0xFF incremented (so it still
  // bounds every value; a prefix of only 0xFF bytes is left whole).
  std::string min_value;
  std::string max_value;
  // Levels below the maximum definition level; optional in the format (a writer always counts).
  std::optional<int64_t> null_count;
  // How many levels of the page have each value 0..max; empty when the column's maximum is 0 or
  // the file has none.
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;

  bool operator==(const IndexedPage&) const = default;
};

// A column chunk's page index: what ColumnChunkWriter::Finish produces for a writer to store, and
// what FileReader::ReadPageIndex reads back.
struct ChunkPageIndex {
  // Which halves there are: an OffsetIndex for every chunk with data pages; a ColumnIndex unless
  // no ColumnIndex can describe the chunk (INT96, which has no sort order, or a page with values
  // but no bounds, only NaN).
  bool has_offset_index = false;
  bool has_column_index = false;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;  // how the pages' bounds run
  // One per data page, in file order (as many as the index that has most: the two agree when
  // both are present).
  std::vector<IndexedPage> pages;

  bool operator==(const ChunkPageIndex&) const = default;
};

// The size of every bound in a page index of a column of `type`: the PLAIN size of a fixed-size
// type; 0 for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, whose bounds may be truncated.
size_t IndexBoundSize(PhysicalType type);

// A filter on one column, for RowsThatMayMatch.
struct ColumnPredicate {
  enum class Kind : int8_t {
    kValueRange,  // a value in [min, max]
    kIsNull,      // a level below the maximum definition level (a null, or an empty list)
    kIsNotNull,   // a value
  };
  Kind kind = Kind::kValueRange;
  // kValueRange's inclusive bounds as PLAIN bytes of the column's type (byte arrays without their
  // length), compared in the type's sort order; unset: unbounded on that side.
  std::optional<std::string> min;
  std::optional<std::string> max;
};

// Rows [begin, end) of a row group.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  friend bool operator==(const RowRange& a, const RowRange& b) {
    return a.begin == b.begin && a.end == b.end;
  }
};

// The rows of a row group of `num_rows` rows that may match `predicate`, as ranges in order with
// adjacent ones merged: every row of every page whose ColumnIndex entry does not prove that no
// row of it matches. A value range rules out null pages and pages whose bounds lie wholly outside
// it (truncated byte array bounds are still bounds); kIsNull rules out pages that hold no null
// (null count 0); kIsNotNull rules out null pages. Without an OffsetIndex no page can be placed in
// rows, and without a ColumnIndex none ruled out: the answer is then every row. InvalidArgument
// for a bound of the wrong size for a fixed-size type, a value range on INT96 (no order), or an
// index whose first rows pass num_rows.
absl::StatusOr<std::vector<RowRange>> RowsThatMayMatch(const ColumnDescriptor& column,
                                                       const ChunkPageIndex& index,
                                                       int64_t num_rows,
                                                       const ColumnPredicate& predicate);

}  // namespace pqpage

#endif  // PQPAGE_PAGE_INDEX_H_
