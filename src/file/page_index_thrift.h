// The page index and size statistics of a finished column chunk (ColumnChunkMetadata) in the
// footer's Thrift form: the OffsetIndex and ColumnIndex that FileWriter writes after the row
// groups, and ColumnMetaData's SizeStatistics.
#ifndef PQPAGE_FILE_PAGE_INDEX_THRIFT_H_
#define PQPAGE_FILE_PAGE_INDEX_THRIFT_H_

#include <optional>

#include "parquet_types.h"
#include "pqpage/column_chunk_writer.h"

namespace pqpage::internal {

// Whether the chunk's page_index describes its pages (one entry per data page): a chunk put
// together by a caller rather than ColumnChunkWriter may have none.
bool HasPageEntries(const ColumnChunkMetadata& meta);

// Every data page's location and first row, plus its byte array bytes for BYTE_ARRAY columns.
// Empty when the chunk has no data pages.
format::OffsetIndex OffsetIndexOf(const ColumnChunkMetadata& meta);

// The ColumnIndex, unless meta.has_column_index is false or the chunk has no page entries.
std::optional<format::ColumnIndex> ColumnIndexOf(const ColumnChunkMetadata& meta);

// The chunk's SizeStatistics, unless it has nothing to say (no histogram and not BYTE_ARRAY).
std::optional<format::SizeStatistics> SizeStatisticsOf(const ColumnChunkMetadata& meta);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_PAGE_INDEX_THRIFT_H_
