// Recode's parallel, file-order pipeline over a file's column chunks, and the chunk copy that it
// and the verification share.
#ifndef PQPAGE_FILE_RECODE_PIPELINE_H_
#define PQPAGE_FILE_RECODE_PIPELINE_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "common/status_context.h"
#include "file/stream_digest.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/recode.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_batch.h"

namespace pqpage::internal {

// Calls task(i) for every i in [0, count) on up to `threads` threads (the calling thread is one of
// them), starting tasks in increasing i. Once a task fails no new task starts.
// @return OK when every task succeeded; otherwise the status of the failed task with the smallest
// i: since tasks start in order, every task before it ran to its end, so this is the error one
// thread would have stopped at.
absl::Status RunTasks(int threads, int64_t count, const std::function<absl::Status(int64_t)>& task);

// Reads `reader` to its end in batches. Each batch goes to `writer` (when given) before the next
// is read, because byte array values are views that the next read may invalidate. `digest`, when
// given, folds in every batch; `on_page(offset)` is called with each new page's file offset.
// @return OK, the reader's error, or the writer's named by `out_path` and `writer_context`
// (WithFileContext).
template <typename T, typename OnPage>
absl::Status CopyChunk(ColumnChunkReader& reader, ColumnChunkWriter* writer,
                       const std::string& out_path, const std::string& writer_context,
                       StreamDigest* digest, OnPage&& on_page) {
  const ColumnDescriptor& column = reader.column();
  const bool has_def = column.max_definition_level > 0;
  const bool has_rep = column.max_repetition_level > 0;
  ValueBatch<T> batch;
  const absl::Span<int16_t> def = has_def ? batch.definitions() : absl::Span<int16_t>();
  const absl::Span<int16_t> rep = has_rep ? batch.repetitions() : absl::Span<int16_t>();
  // Dictionary-encoded pages go to the writer as indices into the input's dictionary, which it
  // maps onto its own once per entry instead of hashing every value (the output is the same).
  // The digest wants values, so verification reads them.
  constexpr bool kMayPassIndices = !std::is_same_v<T, bool>;
  std::unique_ptr<uint32_t[]> indices;
  if (kMayPassIndices && writer != nullptr && digest == nullptr) {
    indices = std::make_unique<uint32_t[]>(kValueBatchLevels);
  }
  int64_t last_page = -1;
  while (true) {
    bool indexed = false;
    if (indices != nullptr) {
      PQPAGE_ASSIGN_OR_RETURN(indexed, reader.NextBatchIsDictionaryEncoded());
    }
    BatchCounts counts;
    if (indexed) {
      PQPAGE_ASSIGN_OR_RETURN(
          counts, reader.ReadIndices(def, rep, absl::MakeSpan(indices.get(), kValueBatchLevels)));
    } else {
      PQPAGE_ASSIGN_OR_RETURN(counts, reader.ReadBatch<T>(def, rep, batch.value_span()));
    }
    if (counts.levels == 0) break;
    if (reader.page_index() != last_page) {
      last_page = reader.page_index();
      on_page(reader.page().offset);
    }
    if (writer != nullptr) {
      const size_t levels = static_cast<size_t>(counts.levels);
      const absl::Span<const int16_t> batch_def = def.first(std::min(levels, def.size()));
      const absl::Span<const int16_t> batch_rep = rep.first(std::min(levels, rep.size()));
      const auto values = static_cast<size_t>(counts.values);
      absl::Status written;
      if constexpr (kMayPassIndices) {
        if (indexed) {
          PQPAGE_ASSIGN_OR_RETURN(absl::Span<const T> entries, reader.Dictionary<T>());
          written = writer->WriteIndexedBatch<T>(
              batch_def, batch_rep, absl::MakeConstSpan(indices.get(), values), entries);
        }
      }
      if (!indexed) {
        written = writer->WriteBatch<T>(batch_def, batch_rep,
                                        absl::MakeConstSpan(batch.values.get(), values));
      }
      PQPAGE_RETURN_IF_ERROR(WithFileContext(written, out_path, writer_context));
    }
    if (digest != nullptr) {
      digest->Add<T>(counts, has_def ? def.data() : nullptr, has_rep ? rep.data() : nullptr,
                     batch.values.get());
    }
  }
  return absl::OkStatus();
}

// The index of chunk (row_group, column) in a row-major list of a file's chunks.
inline size_t ChunkIndex(int row_group, int column, int num_columns) {
  return static_cast<size_t>(row_group) * static_cast<size_t>(num_columns) +
         static_cast<size_t>(column);
}

// Writes every column chunk of `input`, recoded with `options`, into `output` (open, no row group
// begun; `out_path` names it in errors), on up to `threads` threads, in file order. `digests`,
// when given, holds one digest per chunk (ChunkIndex order) and receives the input's streams.
// `columns` (one per schema column) receives each column's written bytes and encodings.
// `on_progress`, when set, is called under the pipeline's lock at each new input page.
// @return OK, or the first error in file order: the input's, or the writer's with the output's
// path, row group and column before it.
absl::Status WriteRecodedChunks(const FileReader& input, FileWriter& output,
                                const std::string& out_path, const WriterOptions& options,
                                int threads,
                                const std::function<void(const FileProgress&)>& on_progress,
                                std::vector<StreamDigest>* digests,
                                std::vector<RecodedColumn>* columns);

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_RECODE_PIPELINE_H_
