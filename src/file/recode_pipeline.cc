// Chunks are encoded and finished (last page and dictionary page compressed, statistics and page
// index built) in parallel, at file offset 0, and written in file order: a finished chunk waits,
// with its bytes in memory, until every chunk before it is written; then only its offsets are
// moved to the output's position (MoveChunk), under the pipeline's lock. (Finishing under the lock
// serialised most of the work of files whose chunks are a page or two.)
//
// The memory of waiting chunks is bounded by bytes: a chunk starts while those waiting hold under
// kWaitingBytesPerThread x threads bytes (and number under kWaitingChunksPerThread x threads), and
// the next chunk to write always starts. A bound by count alone (2 x threads chunks) left a thread
// idle behind every large chunk of a file with a few large columns among many small ones.
//
// With one thread each chunk is written as soon as it is encoded. Errors are kept per chunk and the
// first in file order is returned, so the outcome does not depend on the thread count.
#include "file/recode_pipeline.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_context.h"
#include "file/located_chunks.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

constexpr int64_t kWaitingBytesPerThread = int64_t{32} << 20;
constexpr int64_t kWaitingChunksPerThread = 64;

}  // namespace

absl::Status RunTasks(int threads, int64_t count,
                      const std::function<absl::Status(int64_t)>& task) {
  std::atomic<int64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards first_failed and first_error
  int64_t first_failed = count;
  absl::Status first_error;
  auto work = [&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const int64_t i = next.fetch_add(1);
      if (i >= count) return;
      absl::Status status = task(i);
      if (!status.ok()) {
        stop.store(true, std::memory_order_relaxed);
        const std::lock_guard<std::mutex> lock(mutex);
        if (i < first_failed) {
          first_failed = i;
          first_error = std::move(status);
        }
      }
    }
  };
  const int64_t helpers = std::min<int64_t>(threads, count) - 1;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(std::max<int64_t>(helpers, 0)));
  for (int64_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  return first_error;
}

absl::Status WriteRecodedChunks(const FileReader& input, FileWriter& output,
                                const std::string& out_path, const WriterOptions& options,
                                int threads,
                                const std::function<void(const FileProgress&)>& on_progress,
                                std::vector<StreamDigest>* digests,
                                std::vector<RecodedColumn>* columns_report) {
  const std::vector<ColumnDescriptor>& columns = input.schema().columns();
  const int num_columns = static_cast<int>(columns.size());
  const int num_row_groups = input.num_row_groups();
  // Located before any is read, in the order of the chunk indices below.
  PQPAGE_ASSIGN_OR_RETURN(const std::vector<LocatedChunk> chunks,
                          LocateChunks(input, AllIndices(num_row_groups), AllIndices(num_columns)));
  const int64_t total_bytes = TotalLength(chunks);

  const int64_t num_chunks = int64_t{num_row_groups} * num_columns;
  std::vector<std::optional<ColumnChunkData>> encoded(static_cast<size_t>(num_chunks));
  std::vector<absl::Status> errors(static_cast<size_t>(num_chunks));
  std::mutex mutex;  // guards everything below, the output and the progress calls
  std::condition_variable chunk_written;
  int64_t next_to_write = 0;
  int64_t bytes_done = 0;
  bool failed = false;
  int64_t waiting_bytes = 0;  // bytes of the finished chunks not yet written
  const int64_t max_waiting_bytes = kWaitingBytesPerThread * threads;
  const int64_t max_ahead = kWaitingChunksPerThread * int64_t{threads};

  // Writes the finished chunks that are next in file order; `mutex` is held.
  auto write_ready = [&]() -> absl::Status {
    while (next_to_write < num_chunks && encoded[static_cast<size_t>(next_to_write)]) {
      const int64_t i = next_to_write;
      const int rg = static_cast<int>(i / num_columns);
      const int c = static_cast<int>(i % num_columns);
      const std::string rg_context = absl::StrCat("row group ", rg, ": ");
      const std::string column_context =
          absl::StrCat(rg_context, "column '", columns[c].PathString(), "': ");
      absl::Status status;
      if (c == 0) status = WithFileContext(output.BeginRowGroup(), out_path, rg_context);
      if (status.ok()) {
        ColumnChunkData& chunk = *encoded[static_cast<size_t>(i)];
        status = MoveChunk(&chunk, output.position());
        if (status.ok()) status = output.WriteColumnChunk(chunk);
        status = WithFileContext(status, out_path, column_context);
        RecodedColumn& column = (*columns_report)[static_cast<size_t>(c)];
        column.output_bytes += chunk.stored_size();
        AddDataPageEncodings(chunk.metadata, &column.encodings);
      }
      waiting_bytes -= encoded[static_cast<size_t>(i)]->stored_size();
      RecycleChunkBuffers(&*encoded[static_cast<size_t>(i)]);
      encoded[static_cast<size_t>(i)].reset();
      if (status.ok() && c == num_columns - 1) {
        status = WithFileContext(output.EndRowGroup(), out_path, rg_context);
      }
      if (!status.ok()) {
        errors[static_cast<size_t>(i)] = status;
        return status;
      }
      ++next_to_write;
    }
    return absl::OkStatus();
  };

  auto encode_chunk = [&](int64_t i) -> absl::Status {
    const int rg = static_cast<int>(i / num_columns);
    const int c = static_cast<int>(i % num_columns);
    const ColumnChunkLocation& location = chunks[static_cast<size_t>(i)].location;
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, input.OpenColumnChunk(rg, c));
    ColumnChunkWriter writer(columns[c], options);
    StreamDigest* digest =
        digests != nullptr ? &(*digests)[ChunkIndex(rg, c, num_columns)] : nullptr;
    auto on_page = [&](int64_t page_offset) {
      if (!on_progress) return;
      const std::lock_guard<std::mutex> lock(mutex);
      on_progress(FileProgress{.row_group = rg,
                               .num_row_groups = num_row_groups,
                               .column = c,
                               .num_columns = num_columns,
                               .bytes_done = bytes_done + (page_offset - location.offset),
                               .total_bytes = total_bytes});
    };
    const std::string writer_context =
        absl::StrCat("row group ", rg, ": column '", columns[c].PathString(), "': ");
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return CopyChunk<typename decltype(tag)::Type>(reader, &writer, out_path, writer_context,
                                                     digest, on_page);
    }));
    absl::StatusOr<ColumnChunkData> chunk = writer.FinishInPieces(0);
    if (!chunk.ok()) return WithFileContext(chunk.status(), out_path, writer_context);
    const std::lock_guard<std::mutex> lock(mutex);
    bytes_done += location.length;
    (*columns_report)[static_cast<size_t>(c)].input_bytes += location.length;
    if (failed) return absl::OkStatus();  // nothing more is written; the error is elsewhere
    waiting_bytes += chunk->stored_size();
    encoded[static_cast<size_t>(i)] = *std::move(chunk);
    return write_ready();
  };

  absl::Status status = RunTasks(threads, num_chunks, [&](int64_t i) -> absl::Status {
    {
      // After a failure every started chunk still runs, so that the first error in file order is
      // found whatever the interleaving; only the writing stops.
      std::unique_lock<std::mutex> lock(mutex);
      chunk_written.wait(lock, [&] {
        return failed || i == next_to_write ||
               (i < next_to_write + max_ahead && waiting_bytes < max_waiting_bytes);
      });
    }
    absl::Status chunk_status = encode_chunk(i);
    const std::lock_guard<std::mutex> lock(mutex);
    if (!chunk_status.ok()) {
      if (errors[static_cast<size_t>(i)].ok()) errors[static_cast<size_t>(i)] = chunk_status;
      failed = true;
    }
    chunk_written.notify_all();
    return chunk_status;
  });
  if (!status.ok()) {
    for (const absl::Status& error : errors) {
      if (!error.ok()) return error;
    }
    return status;
  }
  // A schema without leaf columns has no chunks, but its row groups still hold rows.
  for (int rg = 0; num_columns == 0 && rg < num_row_groups; ++rg) {
    const std::string rg_context = absl::StrCat("row group ", rg, ": ");
    PQPAGE_RETURN_IF_ERROR(WithFileContext(output.BeginRowGroup(), out_path, rg_context));
    PQPAGE_RETURN_IF_ERROR(
        WithFileContext(output.EndRowGroup(input.row_group_num_rows(rg)), out_path, rg_context));
  }
  return absl::OkStatus();
}

}  // namespace pqpage::internal
