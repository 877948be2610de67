// The ColumnIndex half of a column chunk's page index: each data page's entries as the page
// builder finishes it (bounds, null count, level histograms, byte array bytes), then the chunk's
// boundary order, whether a ColumnIndex can describe it, and its SizeStatistics. The assembler
// gives the OffsetIndex half (where the pages are).
#ifndef PQPAGE_PAGE_WRITE_PAGE_INDEX_BUILDER_H_
#define PQPAGE_PAGE_WRITE_PAGE_INDEX_BUILDER_H_

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/page.h"
#include "pqpage/page_index.h"

namespace pqpage::internal {

// The bytes of byte array values (without length prefixes); 0 for the other types.
template <typename T>
int64_t ValueBytes(absl::Span<const T> values) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    int64_t bytes = 0;
    for (const ByteArray& value : values) bytes += value.size;
    return bytes;
  } else {
    return 0;
  }
}

// A byte array bound cut to `length` bytes as IndexedPage describes; unchanged when not
// longer, and a max whose first `length` bytes are all 0xFF is kept whole.
std::string TruncatedMin(const std::string& min, size_t length);
std::string TruncatedMax(const std::string& max, size_t length);

class PageIndexBuilder {
 public:
  PageIndexBuilder(const ColumnDescriptor& column, int64_t truncate_length);

  // One finished data page: its levels (empty spans when the column's maximum is 0), how many of
  // them are values, the page's statistics (bounds when it has any) and, for BYTE_ARRAY, its
  // value bytes.
  void AddPage(absl::Span<const int16_t> definition_levels,
               absl::Span<const int16_t> repetition_levels, int64_t levels, int64_t values,
               const Statistics& statistics, int64_t value_bytes);

  // Moves the entries into the pages of chunk->page_index, which the assembler has filled with
  // the OffsetIndex half (only their byte array bytes when no ColumnIndex can describe the
  // chunk), and adds the chunk's boundary order and SizeStatistics. Internal error when the two
  // halves do not count the same pages.
  absl::Status Finish(ColumnChunkData* chunk);

 private:
  static std::vector<int64_t> Histogram(absl::Span<const int16_t> levels, int16_t max_level);
  BoundaryOrder ComputeBoundaryOrder() const;

  ColumnDescriptor column_;
  size_t truncate_length_;
  bool can_index_;  // no page so far has values without bounds, and the type has an order
  std::vector<IndexedPage> entries_;  // the ColumnIndex fields only
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_PAGE_INDEX_BUILDER_H_
