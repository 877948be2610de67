// Recode: the checks before any byte is written, the output's creation and removal on failure, the
// Arrow-dictionary restriction, and the verification that reads the output back. The chunks
// themselves go through the pipeline in recode_pipeline.h.
#include "pqpage/recode.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_context.h"
#include "file/arrow_dictionaries.h"
#include "file/recode_pipeline.h"
#include "file/stream_digest.h"
#include "pqpage/byte_source.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage {
namespace {

int64_t FileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_size);
}

// Reads the output back and compares its shape and every column's streams with the input's
// digests.
absl::Status VerifyOutput(const FileReader& input, const std::string& out_path,
                          const RecodeOptions& options,
                          const std::vector<internal::StreamDigest>& expected) {
  ReaderOptions reader_options;
  if (options.encryption != nullptr) {
    reader_options.decryption = std::make_shared<const FileDecryptionProperties>(
        DecryptionPropertiesFor(*options.encryption));
  }
  auto opened = FileReader::Open(out_path, reader_options);
  if (!opened.ok()) {
    return absl::DataLossError(
        absl::StrCat("verify: cannot read back ", out_path, ": ", opened.status().message()));
  }
  const FileReader& output = **opened;
  const int num_columns = static_cast<int>(input.schema().columns().size());
  // The files' num_rows may differ: some writers leave the input's at 0, and the output's is the
  // sum of its row groups, which are compared one by one.
  if (output.num_row_groups() != input.num_row_groups() ||
      static_cast<int>(output.schema().columns().size()) != num_columns) {
    return absl::DataLossError(absl::StrCat("verify: ", out_path, " has ", output.num_row_groups(),
                                            " row groups and ", output.schema().columns().size(),
                                            " columns; the input has ", input.num_row_groups(),
                                            " and ", num_columns));
  }
  for (int rg = 0; rg < output.num_row_groups(); ++rg) {
    if (output.row_group_num_rows(rg) != input.row_group_num_rows(rg)) {
      return absl::DataLossError(absl::StrCat("verify: ", out_path, ": row group ", rg, " has ",
                                              output.row_group_num_rows(rg), " rows, the input ",
                                              input.row_group_num_rows(rg)));
    }
    for (int c = 0; c < num_columns; ++c) {
      PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, output.OpenColumnChunk(rg, c));
      internal::StreamDigest digest;
      PQPAGE_RETURN_IF_ERROR(VisitValueType(output.schema().columns()[c].type, [&](auto tag) {
        return internal::CopyChunk<typename decltype(tag)::Type>(reader, nullptr, "", "", &digest,
                                                                 [](int64_t) {});
      }));
      const internal::StreamDigest& want = expected[internal::ChunkIndex(rg, c, num_columns)];
      if (!(digest == want)) {
        return absl::DataLossError(
            absl::StrCat("verify: ", out_path, ": row group ", rg, ", column '",
                         output.schema().columns()[c].PathString(), "' differs from the input (",
                         digest.Describe(), " read back, ", want.Describe(), " in the input)"));
      }
    }
  }
  return absl::OkStatus();
}

// Gives each column that `policy` gives a bloom filter and whose override does not say otherwise
// an override with writer->bloom_filter enabled (and the others one with it disabled).
void ApplyBloomFilterPolicy(const FileReader& input, BloomFilterPolicy policy,
                            WriterOptions* writer) {
  const std::vector<ColumnDescriptor>& columns = input.schema().columns();
  for (size_t c = 0; c < columns.size(); ++c) {
    ColumnWriterOverride& override = writer->column_overrides[columns[c].PathString()];
    if (override.bloom_filter.has_value()) continue;
    bool enabled = policy == BloomFilterPolicy::kAll;
    if (policy == BloomFilterPolicy::kKeep) {
      enabled = writer->bloom_filter.enabled;
      for (const RowGroup& group : input.metadata().row_groups) {
        const std::optional<ColumnMetaData>& meta = group.columns[c].meta_data;
        enabled = enabled || (meta.has_value() && meta->bloom_filter_offset.has_value());
      }
    }
    override.bloom_filter = writer->bloom_filter;
    override.bloom_filter->enabled = enabled;
  }
}

// Writes the whole output; `*created` tells whether it was created (and so is Recode's to remove
// on failure).
absl::Status WriteOutput(const FileReader& input, const std::string& out_path,
                         const RecodeOptions& options, const WriterOptions& writer_options,
                         std::vector<internal::StreamDigest>* digests, RecodeReport* report,
                         bool* created) {
  FileWriterOptions file_options;
  file_options.key_value_metadata = input.key_value_metadata();
  file_options.write_page_index = options.write_page_index;
  file_options.encryption = options.encryption;
  auto opened = FileWriter::Open(out_path, input.schema(), file_options);
  if (!opened.ok()) return internal::WithFileContext(opened.status(), out_path);
  std::unique_ptr<FileWriter> output = *std::move(opened);
  *created = true;
  PQPAGE_RETURN_IF_ERROR(internal::WriteRecodedChunks(input, *output, out_path, writer_options,
                                                      options.threads, options.on_progress, digests,
                                                      &report->columns));
  return internal::WithFileContext(output->Close(), out_path);
}

}  // namespace

absl::StatusOr<RecodeReport> Recode(const FileReader& input, const std::string& out_path,
                                    const RecodeOptions& options) {
  if (IsSameFile(input.name(), out_path)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the output '", out_path, "' is the input file"));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Recode wants at least 1 thread, not ", options.threads));
  }
  const std::vector<ColumnDescriptor>& columns = input.schema().columns();
  const std::vector<std::string> unknown = UnknownOverrideColumns(options.writer, columns);
  if (!unknown.empty()) {
    absl::Status status = absl::InvalidArgumentError(
        absl::StrCat("no column '", absl::StrJoin(unknown, "', '"), "' in ", input.name()));
    status.SetPayload(kUnknownColumnPayload, absl::Cord(absl::StrJoin(unknown, "\n")));
    return status;
  }
  const std::vector<std::string> arrow_dictionaries =
      internal::ArrowDictionaryPaths(input, options.on_warning);
  WriterOptions writer_options = options.writer;
  internal::KeepArrowDictionaries(arrow_dictionaries, &writer_options);
  ApplyBloomFilterPolicy(input, options.bloom_filters, &writer_options);

  RecodeReport report;
  report.num_row_groups = input.num_row_groups();
  for (const ColumnDescriptor& column : columns) {
    RecodedColumn recoded;
    recoded.path = column.PathString();
    recoded.arrow_dictionary = std::find(arrow_dictionaries.begin(), arrow_dictionaries.end(),
                                         recoded.path) != arrow_dictionaries.end();
    report.columns.push_back(std::move(recoded));
  }
  std::vector<internal::StreamDigest> digests;
  if (options.verify) digests.resize(static_cast<size_t>(input.num_row_groups()) * columns.size());
  bool created = false;
  absl::Status status = WriteOutput(input, out_path, options, writer_options,
                                    options.verify ? &digests : nullptr, &report, &created);
  if (status.ok() && options.verify) status = VerifyOutput(input, out_path, options, digests);
  if (!status.ok()) {
    if (created) std::remove(out_path.c_str());
    return status;
  }
  report.verified = options.verify;
  report.input_bytes = input.source().size();
  report.output_bytes = FileSize(out_path);
  return report;
}

bool IsUnknownColumnError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kInvalidArgument &&
         status.GetPayload(kUnknownColumnPayload).has_value();
}

}  // namespace pqpage
