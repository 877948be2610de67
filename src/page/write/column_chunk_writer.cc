// ColumnChunkWriter: checks each batch and hands it to the chunk's builder (page/chunk_builder.h),
// and keeps the writer unusable after a failure that left the chunk incomplete.
#include "pqpage/column_chunk_writer.h"

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/buffer_pool.h"
#include "page/write/bloom_filter_builder.h"
#include "page/write/chunk_builder.h"
#include "page/write/writer_checks.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage {

using internal::ChunkBuilderBase;
using internal::TypedChunkBuilder;

namespace {

// The builder of a writer whose column holds T, or InvalidArgument naming `call`.
template <typename T>
absl::StatusOr<TypedChunkBuilder<T>*> BuilderFor(const ColumnDescriptor& column,
                                                 ChunkBuilderBase* builder, const char* call) {
  if (!ValueTypeMatches<T>(column.type)) {
    return absl::InvalidArgumentError(absl::StrCat("column '", column.PathString(), "' is ",
                                                   PhysicalTypeName(column.type).data(), ": ", call,
                                                   " was called with another value type"));
  }
  return static_cast<TypedChunkBuilder<T>*>(builder);
}

}  // namespace

struct ColumnChunkWriter::State {
  ColumnDescriptor column;
  WriterOptions options;
  // The first error that left the writer unusable: a bad setup found by the constructor, or a
  // failure after a batch had been checked (the chunk is then incomplete).
  absl::Status status;
  bool finished = false;
  std::unique_ptr<ChunkBuilderBase> builder;
  std::optional<internal::BloomFilterBuilder> bloom;  // when the options ask for a filter

  absl::Status Usable() const {
    if (finished) return absl::FailedPreconditionError("the column chunk writer is spent");
    return status;
  }
};

ColumnChunkWriter::ColumnChunkWriter(ColumnDescriptor column, const WriterOptions& all_columns)
    : state_(std::make_unique<State>()) {
  const WriterOptions options = all_columns.ForColumn(column.PathString());
  state_->column = std::move(column);
  state_->options = options;
  state_->status = internal::CheckWriterSetup(state_->column, options);
  if (state_->status.ok()) {
    auto builder = internal::MakeChunkBuilder(state_->column, options);
    if (builder.ok()) {
      state_->builder = std::move(builder).value();
      if (options.bloom_filter.enabled && state_->column.type != PhysicalType::kBoolean) {
        state_->bloom.emplace(options.bloom_filter);
      }
    } else {
      state_->status = builder.status();
    }
  }
}

ColumnChunkWriter::~ColumnChunkWriter() = default;
ColumnChunkWriter::ColumnChunkWriter(ColumnChunkWriter&&) noexcept = default;
ColumnChunkWriter& ColumnChunkWriter::operator=(ColumnChunkWriter&&) noexcept = default;

const ColumnDescriptor& ColumnChunkWriter::column() const {
  static const ColumnDescriptor kNone;  // a moved-from writer's
  if (state_ == nullptr) return kNone;
  return state_->column;
}

template <typename T>
absl::Status ColumnChunkWriter::WriteBatch(absl::Span<const int16_t> definition_levels,
                                           absl::Span<const int16_t> repetition_levels,
                                           absl::Span<const T> values) {
  if (state_ == nullptr) return absl::FailedPreconditionError("moved-from column chunk writer");
  PQPAGE_RETURN_IF_ERROR(state_->Usable());
  PQPAGE_ASSIGN_OR_RETURN(TypedChunkBuilder<T> * builder,
                          BuilderFor<T>(state_->column, state_->builder.get(), "WriteBatch"));
  // A rejected batch leaves the writer as it was; a failure past the checks does not.
  PQPAGE_ASSIGN_OR_RETURN(const int64_t levels,
                          builder->Check(definition_levels, repetition_levels, values));
  state_->status = builder->Write(definition_levels, repetition_levels, values, levels);
  if constexpr (!std::is_same_v<T, bool>) {
    if (state_->status.ok() && state_->bloom.has_value()) state_->bloom->Add(values);
  }
  return state_->status;
}

template <typename T>
absl::Status ColumnChunkWriter::WriteIndexedBatch(absl::Span<const int16_t> definition_levels,
                                                  absl::Span<const int16_t> repetition_levels,
                                                  absl::Span<const uint32_t> indices,
                                                  absl::Span<const T> entries) {
  if (state_ == nullptr) return absl::FailedPreconditionError("moved-from column chunk writer");
  PQPAGE_RETURN_IF_ERROR(state_->Usable());
  PQPAGE_ASSIGN_OR_RETURN(
      TypedChunkBuilder<T> * builder,
      BuilderFor<T>(state_->column, state_->builder.get(), "WriteIndexedBatch"));
  PQPAGE_ASSIGN_OR_RETURN(
      const int64_t levels,
      builder->CheckIndexed(definition_levels, repetition_levels, indices, entries));
  state_->status =
      builder->WriteIndexed(definition_levels, repetition_levels, indices, entries, levels);
  if (state_->status.ok() && state_->bloom.has_value()) state_->bloom->AddIndexed(indices, entries);
  return state_->status;
}

int64_t ColumnChunkWriter::EstimatedChunkSize() const {
  if (state_ == nullptr || state_->builder == nullptr || state_->finished) return 0;
  return state_->builder->EstimatedChunkSize();
}

absl::StatusOr<ColumnChunkData> ColumnChunkWriter::Finish(int64_t file_offset) {
  return FinishChunk(file_offset, /*in_pieces=*/false);
}

absl::StatusOr<ColumnChunkData> ColumnChunkWriter::FinishInPieces(int64_t file_offset) {
  return FinishChunk(file_offset, /*in_pieces=*/true);
}

absl::StatusOr<ColumnChunkData> ColumnChunkWriter::FinishChunk(int64_t file_offset,
                                                               bool in_pieces) {
  if (state_ == nullptr) return absl::FailedPreconditionError("moved-from column chunk writer");
  PQPAGE_RETURN_IF_ERROR(state_->Usable());
  if (file_offset < 0) {
    return absl::InvalidArgumentError(absl::StrCat("negative file offset ", file_offset));
  }
  state_->finished = true;
  auto chunk = state_->builder->Finish(file_offset, in_pieces);
  state_->builder.reset();
  if (chunk.ok() && state_->bloom.has_value()) chunk->bloom_filter = state_->bloom->Finish();
  state_->bloom.reset();
  return chunk;
}

absl::Status MoveChunk(ColumnChunkData* chunk, int64_t file_offset) {
  if (file_offset < 0) {
    return absl::InvalidArgumentError(absl::StrCat("negative file offset ", file_offset));
  }
  ColumnMetaData& meta = chunk->metadata;
  const int64_t shift = file_offset - meta.dictionary_page_offset.value_or(meta.data_page_offset);
  meta.data_page_offset += shift;
  if (meta.dictionary_page_offset.has_value()) *meta.dictionary_page_offset += shift;
  if (meta.index_page_offset.has_value()) *meta.index_page_offset += shift;
  for (IndexedPage& page : chunk->page_index.pages) page.offset += shift;
  return absl::OkStatus();
}

void ReleaseWriterBuffers() { internal::WriterBufferPool().Release(); }

int64_t ColumnChunkData::stored_size() const {
  size_t size = bytes.size();
  for (const std::vector<uint8_t>& piece : more_bytes) size += piece.size();
  return static_cast<int64_t>(size);
}

void ColumnChunkData::Flatten() {
  if (more_bytes.empty()) return;
  bytes.reserve(static_cast<size_t>(stored_size()));
  for (std::vector<uint8_t>& piece : more_bytes) {
    bytes.insert(bytes.end(), piece.begin(), piece.end());
    internal::WriterBufferPool().Give(std::move(piece));
  }
  more_bytes.clear();
}

void RecycleChunkBuffers(ColumnChunkData* chunk) {
  internal::WriterBufferPool().Give(std::move(chunk->bytes));
  chunk->bytes.clear();
  for (std::vector<uint8_t>& piece : chunk->more_bytes) {
    internal::WriterBufferPool().Give(std::move(piece));
  }
  chunk->more_bytes.clear();
}

template absl::Status ColumnChunkWriter::WriteBatch<bool>(absl::Span<const int16_t>,
                                                          absl::Span<const int16_t>,
                                                          absl::Span<const bool>);
template absl::Status ColumnChunkWriter::WriteBatch<int32_t>(absl::Span<const int16_t>,
                                                             absl::Span<const int16_t>,
                                                             absl::Span<const int32_t>);
template absl::Status ColumnChunkWriter::WriteBatch<int64_t>(absl::Span<const int16_t>,
                                                             absl::Span<const int16_t>,
                                                             absl::Span<const int64_t>);
template absl::Status ColumnChunkWriter::WriteBatch<Int96>(absl::Span<const int16_t>,
                                                           absl::Span<const int16_t>,
                                                           absl::Span<const Int96>);
template absl::Status ColumnChunkWriter::WriteBatch<float>(absl::Span<const int16_t>,
                                                           absl::Span<const int16_t>,
                                                           absl::Span<const float>);
template absl::Status ColumnChunkWriter::WriteBatch<double>(absl::Span<const int16_t>,
                                                            absl::Span<const int16_t>,
                                                            absl::Span<const double>);
template absl::Status ColumnChunkWriter::WriteBatch<ByteArray>(absl::Span<const int16_t>,
                                                               absl::Span<const int16_t>,
                                                               absl::Span<const ByteArray>);

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE(T)                                                           \
  template absl::Status ColumnChunkWriter::WriteIndexedBatch<T>(                        \
      absl::Span<const int16_t>, absl::Span<const int16_t>, absl::Span<const uint32_t>, \
      absl::Span<const T>);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_INSTANTIATE(int32_t)
PQPAGE_INSTANTIATE(int64_t)
PQPAGE_INSTANTIATE(Int96)
PQPAGE_INSTANTIATE(float)
PQPAGE_INSTANTIATE(double)
PQPAGE_INSTANTIATE(ByteArray)
#undef PQPAGE_INSTANTIATE

}  // namespace pqpage
