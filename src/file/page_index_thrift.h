// A finished column chunk's page index (ColumnChunkData::page_index) in the footer's Thrift form:
// the OffsetIndex and ColumnIndex that FileWriter writes after the row groups.
#ifndef PQPAGE_FILE_PAGE_INDEX_THRIFT_H_
#define PQPAGE_FILE_PAGE_INDEX_THRIFT_H_

#include <optional>

#include "parquet_types.h"
#include "pqpage/page_index.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// Every data page's location and first row, plus its byte array bytes for BYTE_ARRAY columns;
// std::nullopt unless index.has_offset_index.
std::optional<format::OffsetIndex> OffsetIndexOf(const ChunkPageIndex& index, PhysicalType type);

// The ColumnIndex; std::nullopt unless index.has_column_index.
std::optional<format::ColumnIndex> ColumnIndexOf(const ChunkPageIndex& index);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_PAGE_INDEX_THRIFT_H_
