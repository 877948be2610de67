// ExportArrowSchema and OpenArrowStream (pqpage/arrow_reader.h): the selected fields mapped once,
// then each row group's selected leaves read batch by batch and assembled into a record batch.
#include "pqpage/arrow_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "arrow/assemble.h"
#include "arrow/buffer_recycler.h"
#include "arrow/c_export.h"
#include "arrow/leaf_reader.h"
#include "arrow/read_field.h"
#include "arrow/stored_types.h"
#include "common/status_context.h"
#include "file/recode_pipeline.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

using arrow_internal::ArrayData;
using arrow_internal::ArrowType;
using arrow_internal::LeafBatch;
using arrow_internal::LeafReader;
using arrow_internal::ReadField;

// What a read produces: the fields, the leaves they need, and the record batch's type.
struct ReadPlan {
  std::vector<ReadField> fields;
  std::vector<int> leaves;  // schema column indices, in schema order
  ArrowType batch_type;
};

absl::StatusOr<std::vector<bool>> SelectLeaves(const FileReader& file,
                                               const std::vector<std::string>& paths) {
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  std::vector<bool> selected(columns.size(), paths.empty());
  for (const std::string& path : paths) {
    bool found = false;
    for (size_t i = 0; i < columns.size(); ++i) {
      const std::string leaf = columns[i].PathString();
      if (leaf == path || absl::StartsWith(leaf, absl::StrCat(path, "."))) {
        selected[i] = true;
        found = true;
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(
          absl::StrCat(file.name(), ": no field '", path, "' in the schema"));
    }
  }
  return selected;
}

// The leaf field of schema column `column` among `fields`, or nullptr.
ReadField* FindLeaf(std::vector<ReadField>& fields, int column) {
  for (ReadField& field : fields) {
    if (field.kind == ReadField::Kind::kLeaf && field.leaf == column) return &field;
    if (ReadField* found = FindLeaf(field.children, column)) return found;
  }
  return nullptr;
}

absl::Status ReadAsDictionary(const FileReader& file, const std::string& path,
                              std::vector<ReadField>& fields) {
  const std::optional<int> column = file.schema().FindColumn(path);
  if (ReadField* leaf = column ? FindLeaf(fields, *column) : nullptr) {
    if (leaf->conversion != arrow_internal::ValueConversion::kBinary &&
        leaf->conversion != arrow_internal::ValueConversion::kLargeBinary) {
      return absl::InvalidArgumentError(
          absl::StrCat(file.name(), ": '", path,
                       "' is not a byte array column, which alone read as dictionaries"));
    }
    leaf->dictionary = true;
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat(file.name(), ": read_dictionary names '", path, "', no selected leaf column"));
}

absl::StatusOr<ReadPlan> MakePlan(const FileReader& file, const ArrowReadOptions& options) {
  if (options.batch_rows < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_rows must be at least 1, not ", options.batch_rows));
  }
  if (options.batch_bytes < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_bytes must be 0 or more, not ", options.batch_bytes));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be at least 1, not ", options.threads));
  }
  PQPAGE_ASSIGN_OR_RETURN(const std::vector<bool> selected, SelectLeaves(file, options.columns));
  ReadPlan plan;
  absl::StatusOr<std::vector<ReadField>> fields =
      arrow_internal::MapSchema(file.metadata().schema, file.schema().columns(), selected);
  if (!fields.ok()) return internal::WithFileContext(fields.status(), file.name());
  plan.fields = *std::move(fields);
  if (options.use_stored_arrow_schema) {
    PQPAGE_RETURN_IF_ERROR(internal::WithFileContext(
        arrow_internal::ApplyStoredTypes(file.key_value_metadata(), plan.fields), file.name()));
  }
  for (const std::string& path : options.read_dictionary) {
    PQPAGE_RETURN_IF_ERROR(ReadAsDictionary(file, path, plan.fields));
  }
  if (options.read_dictionary_all) {
    for (size_t i = 0; i < selected.size(); ++i) {
      ReadField* leaf = selected[i] ? FindLeaf(plan.fields, static_cast<int>(i)) : nullptr;
      if (leaf != nullptr && (leaf->conversion == arrow_internal::ValueConversion::kBinary ||
                              leaf->conversion == arrow_internal::ValueConversion::kLargeBinary)) {
        leaf->dictionary = true;
      }
    }
  }
  if (options.arrow_extensions) {
    arrow_internal::MarkExtensionTypes(file.schema().columns(), plan.fields);
  }
  for (size_t i = 0; i < selected.size(); ++i) {
    if (selected[i]) plan.leaves.push_back(static_cast<int>(i));
  }
  plan.batch_type.format = "+s";
  plan.batch_type.nullable = false;
  for (const ReadField& field : plan.fields) {
    plan.batch_type.children.push_back(arrow_internal::TypeOf(field));
  }
  return plan;
}

int ErrnoOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition:
      return EINVAL;
    case absl::StatusCode::kResourceExhausted:
      return ENOMEM;
    case absl::StatusCode::kUnimplemented:
      return ENOSYS;
    case absl::StatusCode::kNotFound:
      return ENOENT;
    default:
      return EIO;
  }
}

// Bytes of released batches a stream keeps for the next ones: a few batches of a wide table.
constexpr size_t kKeptBatchBytes = size_t{256} << 20;
// The most value bytes of one leaf's batch that a file's size statistics may make a reader
// reserve before it has read any.
constexpr size_t kMostGuessedBatchBytes = size_t{64} << 20;

// One row group to read, and which of its rows.
struct GroupRows {
  int row_group = 0;
  std::optional<RowRange> rows;  // rows of the group; unset: all
  int64_t count = 0;
};

class RecordBatchStream {
 public:
  RecordBatchStream(std::shared_ptr<const FileReader> file, ReadPlan plan,
                    const ArrowReadOptions& options)
      : file_(std::move(file)),
        plan_(std::move(plan)),
        batch_rows_(options.batch_rows),
        batch_bytes_(options.batch_bytes),
        threads_(options.threads) {
    const std::vector<std::optional<RowRange>> ranges =
        options.rows ? RowsPerRowGroup(*file_, *options.rows)
                     : std::vector<std::optional<RowRange>>();
    for (int group = 0; group < file_->num_row_groups(); ++group) {
      GroupRows rows{group, std::nullopt, file_->row_group_num_rows(group)};
      if (options.rows) {
        const std::optional<RowRange>& range = ranges[static_cast<size_t>(group)];
        if (!range) continue;
        rows.rows = range;
        rows.count = range->end - range->begin;
      }
      if (rows.count > 0) groups_.push_back(rows);
    }
    const size_t columns = file_->schema().columns().size();
    readers_.resize(columns);
    batches_.resize(columns);
  }

  const ArrowType& batch_type() const { return plan_.batch_type; }
  const std::string& last_error() const { return last_error_; }

  // Fills `out` with the next batch, or marks it released at the end. 0 or an errno value.
  int Next(ArrowArray* out) {
    out->release = nullptr;
    if (!failed_.ok()) return ErrnoOf(failed_);
    absl::Status status;
    const arrow_internal::BufferRecycler::Scope recycling(recycler_);
    try {
      status = NextBatch(out);
    } catch (const std::bad_alloc&) {
      status = absl::ResourceExhaustedError(
          absl::StrCat(file_->name(), ": out of memory building a record batch"));
    }
    if (status.ok()) return 0;
    failed_ = status;
    last_error_ = std::string(status.message());
    return ErrnoOf(status);
  }

 private:
  // Runs task(0..count-1) on up to threads_ threads; memory running out in a task is its error.
  absl::Status RunGuarded(int64_t count, const std::function<absl::Status(int64_t)>& task) const {
    return internal::RunTasks(threads_, count, [&](int64_t i) -> absl::Status {
      const arrow_internal::BufferRecycler::Scope recycling(recycler_);
      try {
        return task(i);
      } catch (const std::bad_alloc&) {
        return absl::ResourceExhaustedError("out of memory building a record batch");
      }
    });
  }

  // The value bytes a row of `column` is expected to hold in `row_group`: what the row group
  // before held, else what the chunk's size statistics say of its byte arrays, else its
  // uncompressed size (about its values' bytes for PLAIN pages, less for others), at most
  // kMostGuessedBatchBytes a batch (the metadata is the file's word, not checked).
  double ValueBytesPerRow(int row_group, int column) const {
    const std::optional<LeafReader>& before = readers_[static_cast<size_t>(column)];
    if (before) return before->value_bytes_per_row();
    const RowGroup& group = file_->metadata().row_groups[static_cast<size_t>(row_group)];
    const std::optional<ColumnMetaData>& meta =
        group.columns[static_cast<size_t>(column)].meta_data;
    if (group.num_rows <= 0 || !meta) return 0;
    const bool has_byte_array_bytes =
        meta->size_statistics && meta->size_statistics->unencoded_byte_array_data_bytes;
    const auto bytes = static_cast<double>(
        has_byte_array_bytes ? *meta->size_statistics->unencoded_byte_array_data_bytes
                             : meta->total_uncompressed_size);
    const double most =
        static_cast<double>(kMostGuessedBatchBytes) / static_cast<double>(batch_rows_);
    return std::clamp(bytes / static_cast<double>(group.num_rows), 0.0, most);
  }

  // The rows of the next batch: batch_rows at most, and fewer when the selected leaves' values
  // are expected to pass batch_bytes.
  int64_t NextBatchRows() const {
    const int64_t rows = std::min(batch_rows_, rows_left_);
    if (batch_bytes_ == 0) return rows;
    double bytes_per_row = 0;
    for (const int column : plan_.leaves) {
      bytes_per_row += readers_[static_cast<size_t>(column)]->value_bytes_per_row();
    }
    const double fitting = static_cast<double>(batch_bytes_) / bytes_per_row;
    if (fitting >= static_cast<double>(rows)) return rows;  // also for 0 bytes a row
    return std::max<int64_t>(1, static_cast<int64_t>(fitting));
  }

  absl::Status OpenGroup(const GroupRows& group) {
    // A top-level leaf's levels make only its own validity: they are read as bits.
    std::vector<bool> top_level(file_->schema().columns().size(), false);
    for (const ReadField& field : plan_.fields) {
      if (field.kind == ReadField::Kind::kLeaf && field.leaf >= 0) {
        top_level[static_cast<size_t>(field.leaf)] = true;
      }
    }
    for (const int column : plan_.leaves) {
      const double bytes_per_row = ValueBytesPerRow(group.row_group, column);
      const bool validity_bits = top_level[static_cast<size_t>(column)];
      auto& reader = readers_[static_cast<size_t>(column)];
      if (group.rows) {
        PQPAGE_ASSIGN_OR_RETURN(
            ColumnChunkReader chunk,
            OpenColumnChunkRows(*file_, group.row_group, column, *group.rows, nullptr));
        reader.emplace(std::move(chunk), bytes_per_row, validity_bits);
      } else {
        PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader chunk,
                                file_->OpenColumnChunk(group.row_group, column));
        reader.emplace(std::move(chunk), bytes_per_row, validity_bits);
      }
    }
    return absl::OkStatus();
  }

  absl::Status NextBatch(ArrowArray* out) {
    while (rows_left_ == 0) {
      if (next_group_ >= groups_.size()) return absl::OkStatus();  // the end: out stays released
      current_ = groups_[next_group_++];
      PQPAGE_RETURN_IF_ERROR(
          internal::WithFileContext(OpenGroup(current_), file_->name(),
                                    absl::StrCat("row group ", current_.row_group, ": ")));
      rows_left_ = current_.count;
    }
    const int64_t rows = NextBatchRows();
    const std::string context = absl::StrCat("row group ", current_.row_group, ": ");
    // Each task touches only its own leaves (a field's leaves are its own), so tasks run side by
    // side; the first error in column order is the one returned, whatever the thread count.
    PQPAGE_RETURN_IF_ERROR(internal::WithFileContext(
        RunGuarded(static_cast<int64_t>(plan_.leaves.size()),
                   [&](int64_t i) {
                     const auto index = static_cast<size_t>(plan_.leaves[static_cast<size_t>(i)]);
                     return readers_[index]->ReadRows(rows, batches_[index]);
                   }),
        file_->name(), context));
    ArrayData batch;
    batch.length = rows;
    batch.buffers.emplace_back();  // no validity: a record batch has no null rows
    batch.children.resize(plan_.fields.size());
    PQPAGE_RETURN_IF_ERROR(internal::WithFileContext(
        RunGuarded(static_cast<int64_t>(plan_.fields.size()),
                   [&](int64_t i) -> absl::Status {
                     const ReadField& field = plan_.fields[static_cast<size_t>(i)];
                     PQPAGE_ASSIGN_OR_RETURN(ArrayData array,
                                             arrow_internal::AssembleField(
                                                 field, batches_, file_->schema().columns(), rows));
                     if (array.length != rows) {
                       return absl::DataLossError(
                           absl::StrCat("field '", field.type.name, "' has ", array.length,
                                        " rows where the row group has ", rows));
                     }
                     batch.children[static_cast<size_t>(i)] = std::move(array);
                     return absl::OkStatus();
                   }),
        file_->name(), context));
    rows_left_ -= rows;
    arrow_internal::ExportArray(std::move(batch), out);
    return absl::OkStatus();
  }

  std::shared_ptr<const FileReader> file_;
  ReadPlan plan_;
  int64_t batch_rows_;
  int64_t batch_bytes_;
  int threads_;
  // The blocks of released batches, for the next ones (shared with the arrays, which may outlive
  // the stream).
  std::shared_ptr<arrow_internal::BufferRecycler> recycler_ =
      std::make_shared<arrow_internal::BufferRecycler>(kKeptBatchBytes);
  std::vector<GroupRows> groups_;
  size_t next_group_ = 0;
  GroupRows current_;
  int64_t rows_left_ = 0;
  std::vector<std::optional<LeafReader>> readers_;  // by schema column
  std::vector<LeafBatch> batches_;                  // by schema column
  absl::Status failed_;
  std::string last_error_;
};

RecordBatchStream* StreamOf(ArrowArrayStream* stream) {
  return static_cast<RecordBatchStream*>(stream->private_data);
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  try {
    arrow_internal::ExportType(StreamOf(stream)->batch_type(), out);
  } catch (const std::bad_alloc&) {
    return ENOMEM;
  }
  return 0;
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) { return StreamOf(stream)->Next(out); }

const char* GetLastError(ArrowArrayStream* stream) {
  const std::string& error = StreamOf(stream)->last_error();
  return error.empty() ? nullptr : error.c_str();
}

void ReleaseStream(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return;
  delete StreamOf(stream);
  stream->release = nullptr;
}

}  // namespace

absl::Status ExportArrowSchema(const FileReader& file, const ArrowReadOptions& options,
                               ArrowSchema* out) {
  PQPAGE_ASSIGN_OR_RETURN(const ReadPlan plan, MakePlan(file, options));
  arrow_internal::ExportType(plan.batch_type, out);
  return absl::OkStatus();
}

absl::Status OpenArrowStream(std::shared_ptr<const FileReader> file,
                             const ArrowReadOptions& options, ArrowArrayStream* out) {
  out->release = nullptr;
  if (file == nullptr) return absl::InvalidArgumentError("OpenArrowStream needs a file");
  PQPAGE_ASSIGN_OR_RETURN(ReadPlan plan, MakePlan(*file, options));
  out->get_schema = &GetSchema;
  out->get_next = &GetNext;
  out->get_last_error = &GetLastError;
  out->release = &ReleaseStream;
  out->private_data = new RecordBatchStream(std::move(file), std::move(plan), options);
  return absl::OkStatus();
}

}  // namespace pqpage
