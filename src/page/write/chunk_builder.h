// The page builder behind ColumnChunkWriter: one engine per column chunk, typed by the value type,
// made by MakeChunkBuilder after CheckWriterSetup (page/writer_checks.h) has accepted the column
// and options.
#ifndef PQPAGE_PAGE_WRITE_CHUNK_BUILDER_H_
#define PQPAGE_PAGE_WRITE_CHUNK_BUILDER_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/column_descriptor.h"

namespace pqpage::internal {

class ChunkBuilderBase {
 public:
  virtual ~ChunkBuilderBase() = default;
  // Bytes the chunk would take if finished now (pages written plus the page being filled).
  virtual int64_t EstimatedChunkSize() const = 0;
  // Finishes the last page and the dictionary and assembles the chunk at `file_offset`: in one
  // buffer, or with `in_pieces` as ColumnChunkWriter::FinishInPieces describes.
  virtual absl::StatusOr<ColumnChunkData> Finish(int64_t file_offset, bool in_pieces) = 0;
};

// The typed calls, made once per batch.
template <typename T>
class TypedChunkBuilder : public ChunkBuilderBase {
 public:
  // The number of levels in the batch, or InvalidArgument for a batch the column cannot take;
  // nothing is written either way.
  virtual absl::StatusOr<int64_t> Check(absl::Span<const int16_t> def,
                                        absl::Span<const int16_t> rep,
                                        absl::Span<const T> values) const = 0;
  // Writes a batch Check accepted (`levels` is what Check returned). An error leaves the chunk
  // incomplete.
  virtual absl::Status Write(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                             absl::Span<const T> values, int64_t levels) = 0;

  // The same two steps for values given as indices into `entries` (value i is
  // entries[indices[i]]); the output is what Write of those values gives.
  virtual absl::StatusOr<int64_t> CheckIndexed(absl::Span<const int16_t> def,
                                               absl::Span<const int16_t> rep,
                                               absl::Span<const uint32_t> indices,
                                               absl::Span<const T> entries) const = 0;
  virtual absl::Status WriteIndexed(absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
                                    absl::Span<const uint32_t> indices, absl::Span<const T> entries,
                                    int64_t levels) = 0;
};

// The builder for the column's value type.
absl::StatusOr<std::unique_ptr<ChunkBuilderBase>> MakeChunkBuilder(const ColumnDescriptor& column,
                                                                   const WriterOptions& options);

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_CHUNK_BUILDER_H_
