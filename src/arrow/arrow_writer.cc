// ArrowFileWriter: batches cut into row groups, each batch's leaves shredded and written side by
// side (one page builder per leaf column), row groups written as they end.
#include "pqpage/arrow_writer.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arrow/leaf_write.h"
#include "arrow/shred.h"
#include "arrow/write_field.h"
#include "file/recode_pipeline.h"
#include "file/stored_arrow_schema_write.h"
#include "pqpage/arrow_schema.h"
#include "pqpage/status_macros.h"

namespace pqpage {

using arrow_internal::LeafWriter;
using arrow_internal::ShreddedLeaf;
using arrow_internal::WritePlan;

absl::StatusOr<Schema> ParquetSchemaForArrow(const ArrowSchema& schema) {
  PQPAGE_ASSIGN_OR_RETURN(WritePlan plan, arrow_internal::PlanArrowWrite(schema));
  return std::move(plan.schema);
}

struct ArrowFileWriter::State {
  WritePlan plan;
  ArrowWriteOptions options;
  std::unique_ptr<FileWriter> file;
  // The row group being filled: one page builder per column, or none between row groups.
  std::vector<ColumnChunkWriter> chunks;
  int64_t group_rows = 0;
  std::vector<ShreddedLeaf> shredded;
  std::vector<LeafWriter> leaves;
  absl::Status failed;  // once set, every call returns it

  absl::Status WriteRows(const ArrowArray& batch, int64_t begin, int64_t end) {
    if (chunks.empty()) {
      PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
      for (const ColumnDescriptor& column : plan.schema.columns()) {
        chunks.emplace_back(column, options.writer);
      }
    }
    const std::vector<ColumnDescriptor>& columns = plan.schema.columns();
    PQPAGE_RETURN_IF_ERROR(internal::RunTasks(
        options.threads, static_cast<int64_t>(columns.size()), [&](int64_t c) -> absl::Status {
          const auto i = static_cast<size_t>(c);
          PQPAGE_RETURN_IF_ERROR(arrow_internal::ShredLeaf(
              batch, begin, end, plan.paths[i], plan.child_indices[i],
              columns[i].max_definition_level, columns[i].max_repetition_level, &shredded[i]));
          return leaves[i].Write(shredded[i], chunks[i]);
        }));
    group_rows += end - begin;
    return absl::OkStatus();
  }

  bool GroupIsFull() const {
    if (group_rows >= options.row_group_rows) return true;
    if (options.row_group_bytes <= 0) return false;
    int64_t bytes = 0;
    for (const ColumnChunkWriter& chunk : chunks) bytes += chunk.EstimatedChunkSize();
    return bytes >= options.row_group_bytes;
  }

  absl::Status EndGroup() {
    if (group_rows == 0) return absl::OkStatus();
    if (chunks.empty()) PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());  // no leaf columns
    // Finishing a chunk compresses its last page and its dictionary page, most of the work when a
    // chunk is a page or two, so the chunks are finished on the threads and then placed in order.
    std::vector<ColumnChunkData> finished(chunks.size());
    PQPAGE_RETURN_IF_ERROR(internal::RunTasks(
        options.threads, static_cast<int64_t>(chunks.size()), [&](int64_t c) -> absl::Status {
          const auto i = static_cast<size_t>(c);
          PQPAGE_ASSIGN_OR_RETURN(finished[i], chunks[i].FinishInPieces(0));
          return absl::OkStatus();
        }));
    chunks.clear();
    for (ColumnChunkData& chunk : finished) {
      PQPAGE_RETURN_IF_ERROR(MoveChunk(&chunk, file->position()));
      PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(chunk));
      RecycleChunkBuffers(&chunk);  // for the next group's pages
    }
    PQPAGE_RETURN_IF_ERROR(file->EndRowGroup(group_rows));
    group_rows = 0;
    return absl::OkStatus();
  }
};

ArrowFileWriter::ArrowFileWriter() : state_(std::make_unique<State>()) {}
ArrowFileWriter::~ArrowFileWriter() = default;

const Schema& ArrowFileWriter::schema() const { return state_->plan.schema; }

namespace {

// Columns of an Arrow dictionary type keep to the encodings Arrow C++ reads into a dictionary.
void KeepDictionaryColumnsReadable(const WritePlan& plan, WriterOptions* options) {
  for (size_t i = 0; i < plan.paths.size(); ++i) {
    if (plan.paths[i].back()->dictionary_index.empty()) continue;
    ColumnWriterOverride& override =
        options->column_overrides[plan.schema.columns()[i].PathString()];
    if (!override.auto_encodings.has_value()) {
      override.auto_encodings = AutoEncodings::kDictionaryOrPlain;
    }
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<ArrowFileWriter>> ArrowFileWriter::Open(const std::string& path,
                                                                       const ArrowSchema& schema,
                                                                       ArrowWriteOptions options) {
  if (options.row_group_rows < 1 || options.threads < 1) {
    return absl::InvalidArgumentError("row_group_rows and threads must be at least 1");
  }
  std::unique_ptr<ArrowFileWriter> writer(new ArrowFileWriter());
  State& state = *writer->state_;
  PQPAGE_ASSIGN_OR_RETURN(state.plan, arrow_internal::PlanArrowWrite(schema));
  const std::vector<std::string> unknown =
      UnknownOverrideColumns(options.writer, state.plan.schema.columns());
  if (!unknown.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("column overrides name no column: ", absl::StrJoin(unknown, ", ")));
  }
  KeepDictionaryColumnsReadable(state.plan, &options.writer);
  for (const auto& [key, value] : state.plan.schema_metadata) {
    options.file.key_value_metadata.push_back({key, value});
  }
  if (options.store_arrow_schema) {
    PQPAGE_ASSIGN_OR_RETURN(
        std::string stored,
        SerializeStoredArrowSchema(state.plan.stored_fields, state.plan.schema_metadata));
    options.file.key_value_metadata.push_back({kArrowSchemaKey, std::move(stored)});
  }
  PQPAGE_ASSIGN_OR_RETURN(state.file, FileWriter::Open(path, state.plan.schema, options.file));
  const size_t columns = state.plan.paths.size();
  state.shredded.resize(columns);
  for (size_t i = 0; i < columns; ++i) state.leaves.emplace_back(*state.plan.paths[i].back());
  state.options = std::move(options);
  return writer;
}

absl::Status ArrowFileWriter::WriteBatch(const ArrowArray& batch) {
  State& state = *state_;
  PQPAGE_RETURN_IF_ERROR(state.failed);
  if (batch.release == nullptr || batch.length < 0 || batch.offset < 0 ||
      batch.n_children != static_cast<int64_t>(state.plan.fields.size()) ||
      (batch.n_children > 0 && batch.children == nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a batch that is not a struct array of the schema's ", state.plan.fields.size(),
        " fields (", batch.n_children, " children, length ", batch.length, ")"));
  }
  if (batch.length == 0) {
    // No rows to write, but the arrays must still be what the schema says.
    const std::vector<ColumnDescriptor>& columns = state.plan.schema.columns();
    for (size_t i = 0; i < columns.size(); ++i) {
      absl::Status status = arrow_internal::ShredLeaf(
          batch, 0, 0, state.plan.paths[i], state.plan.child_indices[i],
          columns[i].max_definition_level, columns[i].max_repetition_level, &state.shredded[i]);
      if (!status.ok()) {
        state.failed = status;
        return status;
      }
    }
  }
  int64_t begin = 0;
  while (begin < batch.length) {
    const int64_t end =
        begin + std::min(batch.length - begin, state.options.row_group_rows - state.group_rows);
    absl::Status status = state.WriteRows(batch, begin, end);
    if (status.ok() && state.GroupIsFull()) status = state.EndGroup();
    if (!status.ok()) {
      // Columns before the failing one may have taken their share of the rows.
      state.failed = status;
      return status;
    }
    begin = end;
  }
  return absl::OkStatus();
}

absl::Status ArrowFileWriter::FlushRowGroup() {
  PQPAGE_RETURN_IF_ERROR(state_->failed);
  absl::Status status = state_->EndGroup();
  if (!status.ok()) state_->failed = status;
  return status;
}

absl::Status ArrowFileWriter::Close() {
  PQPAGE_RETURN_IF_ERROR(FlushRowGroup());
  absl::Status status = state_->file->Close();
  if (!status.ok()) state_->failed = status;
  return status;
}

absl::Status WriteArrowStream(const std::string& path, ArrowArrayStream* stream,
                              const ArrowWriteOptions& options) {
  if (stream == nullptr || stream->release == nullptr) {
    return absl::InvalidArgumentError("a released or missing ArrowArrayStream");
  }
  auto stream_error = [stream](int code, std::string_view call) {
    const char* message = stream->get_last_error(stream);
    return absl::InternalError(absl::StrCat("the Arrow stream's ", std::string(call),
                                            " failed (errno ", code,
                                            "): ", message == nullptr ? "" : message));
  };
  ArrowSchema schema{};
  if (const int code = stream->get_schema(stream, &schema); code != 0) {
    return stream_error(code, "get_schema");
  }
  absl::StatusOr<std::unique_ptr<ArrowFileWriter>> writer =
      ArrowFileWriter::Open(path, schema, options);
  schema.release(&schema);
  if (!writer.ok()) return writer.status();
  while (true) {
    ArrowArray batch{};
    if (const int code = stream->get_next(stream, &batch); code != 0) {
      return stream_error(code, "get_next");
    }
    if (batch.release == nullptr) break;  // the end of the stream
    absl::Status status = (*writer)->WriteBatch(batch);
    batch.release(&batch);
    PQPAGE_RETURN_IF_ERROR(status);
  }
  return (*writer)->Close();
}

}  // namespace pqpage
