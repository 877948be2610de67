// The checks the page builder makes before it takes anything: of a column and its options once,
// when a ColumnChunkWriter is made, and of every batch against the column. Every failure is
// InvalidArgument (or Unimplemented for a codec pqpage does not write) naming the column, and
// leaves the writer as it was.
#ifndef PQPAGE_PAGE_WRITE_WRITER_CHECKS_H_
#define PQPAGE_PAGE_WRITE_WRITER_CHECKS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/column_descriptor.h"

namespace pqpage::internal {

// InvalidArgument for options the column cannot be written with (and a column that cannot be:
// an unknown type, FIXED_LEN_BYTE_ARRAY without a length, impossible maximum levels);
// Unimplemented for LZO and Hadoop-framed LZ4.
absl::Status CheckWriterSetup(const ColumnDescriptor& column, const WriterOptions& options);

// The number of levels in a batch of `value_count` present values, or InvalidArgument for levels
// the column cannot take (level arrays of the wrong length or out of range, a value count that
// disagrees with the definition levels, a chunk's first repetition level not 0).
// `chunk_empty`: nothing was written to the chunk yet.
absl::StatusOr<int64_t> CheckLevels(const ColumnDescriptor& column, absl::Span<const int16_t> def,
                                    absl::Span<const int16_t> rep, int64_t value_count,
                                    bool chunk_empty);

// InvalidArgument for values the column cannot hold: byte arrays of a wrong or impossible length,
// or without bytes. Always OK for the other types.
template <typename T>
absl::Status CheckValues(const ColumnDescriptor& column, absl::Span<const T> values);

// CheckLevels and CheckValues of one batch: its number of levels, or the first failure.
template <typename T>
absl::StatusOr<int64_t> CheckBatch(const ColumnDescriptor& column, absl::Span<const int16_t> def,
                                   absl::Span<const int16_t> rep, absl::Span<const T> values,
                                   bool chunk_empty);

// InvalidArgument for an index at or past `num_entries`.
absl::Status CheckIndices(const ColumnDescriptor& column, absl::Span<const uint32_t> indices,
                          size_t num_entries);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_WRITER_CHECKS_H_
