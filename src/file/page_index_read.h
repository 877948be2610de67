// A column chunk's page index from the bytes of its ColumnIndex and OffsetIndex, checked against
// the chunk's footer entry before anything is trusted (FileReader::ReadPageIndex documents the
// rules). A function of bytes alone, so that the fuzz targets can feed it anything.
#ifndef PQPAGE_FILE_PAGE_INDEX_READ_H_
#define PQPAGE_FILE_PAGE_INDEX_READ_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/page_index.h"
#include "pqpage/schema.h"

namespace pqpage::internal {

// What the footer says of the chunk, for the index to agree with.
struct PageIndexChunk {
  int64_t begin = 0;     // the chunk's first page (dictionary page included)
  int64_t end = 0;       // one past its last byte
  int64_t num_rows = 0;  // of the row group
};

// DataLoss ("ColumnIndex: ..." / "OffsetIndex: ...") for bytes that do not parse or an index that
// contradicts itself, the other index or the chunk.
absl::StatusOr<ChunkPageIndex> ParsePageIndex(
    const ColumnDescriptor& column, const PageIndexChunk& chunk,
    std::optional<absl::Span<const uint8_t>> column_index,
    std::optional<absl::Span<const uint8_t>> offset_index);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_PAGE_INDEX_READ_H_
