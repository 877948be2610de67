// pqpage recode IN OUT: re-encodes every column of every row group with the chosen encoding
// policy, data page version and codec, keeping the schema, the row groups and the key-value
// metadata. It streams: each column chunk is read batch by batch into its own ColumnChunkWriter,
// which holds that chunk's finished pages until FileWriter writes them. Chunks are encoded on
// --threads threads and written in file order; the output does not depend on the thread count.
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "cli/cli_args.h"
#include "cli/cli_orc.h"
#include "cli/cli_parallel.h"
#include "cli/cli_progress.h"
#include "cli/cli_reader_options.h"
#include "cli/cli_stream_digest.h"
#include "cli/cli_values.h"
#include "cli/cli_writer_args.h"
#include "cli/commands.h"
#include "pqpage/arrow_schema.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/compression.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "recode";

constexpr char kUsage[] =
    "usage: pqpage recode IN OUT [options]\n"
    "\n"
    "Re-encodes every column of every row group of IN into OUT, keeping the schema, the row\n"
    "groups (same rows each) and the key-value metadata; created_by becomes pqpage's. The values\n"
    "and levels are unchanged: 'pqpage dump' prints the same for IN and OUT.\n"
    "\n"
    "options:\n"
    "  --encoding POLICY       auto (default), plain, dictionary, delta, delta_length_byte_array,\n"
    "                          byte_stream_split; a type the encoding does not apply to is\n"
    "                          written PLAIN. auto measures each chunk's start with every\n"
    "                          encoding and keeps the smallest after the codec (the fastest to\n"
    "                          decode among those within --tie-margin); a column that the file's\n"
    "                          Arrow schema (ARROW:schema) makes a dictionary type gets the\n"
    "                          dictionary or PLAIN, which is what Arrow can read into one\n"
    "  --auto-encodings SET    interoperable (default: what pyarrow, DuckDB and polars all read)\n"
    "                          or all (every encoding the format allows for the type)\n"
    "  --tie-margin PERCENT    auto: sizes this close to the smallest count as equal (default 2)\n"
    "  --page-version 1|2      data page version (default 1)\n"
    "  --compression CODEC     uncompressed, snappy (default), gzip, zstd, lz4_raw, brotli\n"
    "  --compression-level N   the codec's level (default: the codec's usual one)\n"
    "  --page-size BYTES       encoded size at which a data page is finished (default 1048576)\n"
    "  --column-encoding PATH=POLICY\n"
    "                          this column's policy instead of --encoding (repeatable; PATH as\n"
    "                          'pqpage inspect' prints it, e.g. tags.list.element)\n"
    "  --column-compression PATH=CODEC[:LEVEL]\n"
    "                          this column's codec and level instead of --compression and\n"
    "                          --compression-level (repeatable)\n"
    "  --column-dictionary PATH=on|off\n"
    "                          on: this column starts with a dictionary whatever the policy\n"
    "                          (falling back to the policy's encoding when it is full); off: it\n"
    "                          has none (repeatable)\n"
    "  --checksum              write a CRC in every page header\n"
    "  --no-statistics         write no statistics (pages and column chunks)\n"
    "  --no-page-index         write no page index (by default every column chunk gets an\n"
    "                          OffsetIndex, and a ColumnIndex when its type has an order)\n"
    "  --verify                decode every chunk written and compare it with its input (this\n"
    "                          keeps a chunk's values in memory while it is written), then\n"
    "                          read OUT back and compare every column with IN\n"
    "  --no-verify-checksums   do not check IN's page CRCs\n" PQPAGE_CLI_MAX_PAGE_SIZE_USAGE
        PQPAGE_CLI_THREADS_USAGE
    "\n"
    "An ORC IN (one that starts with \"ORC\") has every stripe decoded and encoded again with\n"
    "pqpage's ORC codecs; OUT keeps the schema, the stripes (same rows each), the user metadata,\n"
    "the writer timezone and the statistics (copied). Its options:\n"
    "  --rle 1|2               integer RLE version 1 (file version 0.11) or 2 (0.12, the default)\n"
    "  --compression CODEC     none, zlib, snappy, lzo, lz4 or zstd (default: IN's)\n"
    "  --block-size BYTES      the compression block size (default: IN's)\n"
    "  --compression-level N, --no-statistics, --verify (OUT read back and compared with IN,\n"
    "  stripe by stripe) and --mmap as above\n"
    "\n"
    "Exit status: 0 on success, 1 when IN cannot be read or OUT cannot be written (OUT is then\n"
    "removed), 2 for a usage error.\n";

// Splits "PATH=SETTING" of the repeatable per-column `option`.
absl::StatusOr<std::pair<std::string, std::string>> SplitColumnSetting(const std::string& option,
                                                                       const std::string& text) {
  const size_t equals = text.rfind('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", option, " wants PATH=VALUE, not '", text, "'"));
  }
  return std::make_pair(text.substr(0, equals), text.substr(equals + 1));
}

// The --column-encoding and --column-compression settings, into options->column_overrides.
absl::Status ColumnOverridesFromArgs(const ParsedArgs& args, WriterOptions* options) {
  for (const std::string& text : args.Values("column-encoding")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-encoding", text));
    PQPAGE_ASSIGN_OR_RETURN(EncodingPolicy policy, PolicyFromText(setting.second));
    options->column_overrides[setting.first].encoding = policy;
  }
  for (const std::string& text : args.Values("column-dictionary")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-dictionary", text));
    if (setting.second != "on" && setting.second != "off") {
      return absl::InvalidArgumentError(
          absl::StrCat("--column-dictionary wants PATH=on or PATH=off, not '", text, "'"));
    }
    options->column_overrides[setting.first].dictionary = setting.second == "on";
  }
  for (const std::string& text : args.Values("column-compression")) {
    PQPAGE_ASSIGN_OR_RETURN(auto setting, SplitColumnSetting("column-compression", text));
    const size_t colon = setting.second.find(':');
    PQPAGE_ASSIGN_OR_RETURN(Compression codec, CodecFromText(setting.second.substr(0, colon)));
    int level = kDefaultCompressionLevel;
    if (colon != std::string::npos) {
      PQPAGE_ASSIGN_OR_RETURN(
          int64_t parsed, ParseIntegerOption("column-compression level",
                                             setting.second.substr(colon + 1), -1000000, 1000000));
      level = static_cast<int>(parsed);
    }
    PQPAGE_RETURN_IF_ERROR(CheckCompressionLevel(codec, level));
    ColumnWriterOverride& override = options->column_overrides[setting.first];
    override.compression = codec;
    override.compression_level = level;
  }
  return absl::OkStatus();
}

// Columns the file's Arrow schema makes dictionary types choose, under auto, between the
// dictionary and PLAIN only: Arrow reads such a column into a dictionary only from those pages.
// A schema pqpage cannot read is reported and changes nothing.
void KeepArrowDictionaries(const FileReader& file, WriterOptions* options) {
  absl::StatusOr<std::vector<std::string>> columns =
      ArrowDictionaryColumns(file.key_value_metadata(), file.schema());
  if (!columns.ok()) {
    std::fprintf(stderr, "pqpage %s: warning: %s\n", kCommand,
                 std::string(columns.status().message()).c_str());
    return;
  }
  for (const std::string& path : *columns) {
    ColumnWriterOverride& override = options->column_overrides[path];
    if (!override.auto_encodings.has_value()) {
      override.auto_encodings = AutoEncodings::kDictionaryOrPlain;
    }
  }
}

// Turns the command line into writer options; InvalidArgument with a message for the user.
absl::StatusOr<WriterOptions> WriterOptionsFromArgs(const ParsedArgs& args) {
  WriterOptions options;
  if (auto name = args.Value("encoding")) {
    PQPAGE_ASSIGN_OR_RETURN(options.encoding, PolicyFromText(*name));
  }
  if (auto version = args.Value("page-version")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed, ParseIntegerOption("page-version", *version, 1, 2));
    options.data_page_version = static_cast<int>(parsed);
  }
  if (auto name = args.Value("compression")) {
    PQPAGE_ASSIGN_OR_RETURN(options.compression, CodecFromText(*name));
  }
  if (auto level = args.Value("compression-level")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed,
                            ParseIntegerOption("compression-level", *level, -1000000, 1000000));
    options.compression_level = static_cast<int>(parsed);
  }
  if (auto set = args.Value("auto-encodings")) {
    if (*set != "interoperable" && *set != "all") {
      return absl::InvalidArgumentError(
          absl::StrCat("--auto-encodings is interoperable or all, not '", *set, "'"));
    }
    options.auto_encodings = *set == "all" ? AutoEncodings::kAll : AutoEncodings::kInteroperable;
  }
  if (auto margin = args.Value("tie-margin")) {
    PQPAGE_ASSIGN_OR_RETURN(int64_t parsed, ParseIntegerOption("tie-margin", *margin, 0, 100));
    options.auto_tie_margin = static_cast<double>(parsed) / 100.0;
  }
  if (auto size = args.Value("page-size")) {
    // Pages hold int32 sizes in their headers; an encoded page near 2 GiB could not be written.
    PQPAGE_ASSIGN_OR_RETURN(options.data_page_size,
                            ParseIntegerOption("page-size", *size, 1, int64_t{1} << 30));
  }
  PQPAGE_RETURN_IF_ERROR(CheckCompressionLevel(options.compression, options.compression_level));
  PQPAGE_RETURN_IF_ERROR(ColumnOverridesFromArgs(args, &options));
  options.write_checksums = args.Has("checksum");
  options.write_statistics = !args.Has("no-statistics");
  options.verify_pages = args.Has("verify");
  return options;
}

// Prefixes `context` (which starts with the output's path) to a writer error, unless the error
// names the file itself already (I/O errors do).
absl::Status WithContext(const absl::Status& status, const std::string& context) {
  if (status.ok()) return status;
  const size_t path_end = context.find(": ");
  const absl::string_view message = status.message();
  if (path_end != std::string::npos &&
      absl::StartsWith(message, absl::string_view(context.data(), path_end + 2))) {
    return status;
  }
  return absl::Status(status.code(), absl::StrCat(context, message));
}

// Reads `reader` to its end in batches. Each batch goes to `writer` (when given) before the next
// is read, because byte array values are views that the next read may invalidate. `digest`, when
// given, folds in every batch; `on_page(offset)` is called with each new page's file offset.
// Errors from the writer are prefixed with `writer_context`; the reader's name the input already.
template <typename T, typename OnPage>
absl::Status CopyChunk(ColumnChunkReader& reader, ColumnChunkWriter* writer,
                       const std::string& writer_context, StreamDigest* digest, OnPage&& on_page) {
  const ColumnDescriptor& column = reader.column();
  const bool has_def = column.max_definition_level > 0;
  const bool has_rep = column.max_repetition_level > 0;
  Batch<T> batch;
  const absl::Span<int16_t> def = has_def ? batch.definitions() : absl::Span<int16_t>();
  const absl::Span<int16_t> rep = has_rep ? batch.repetitions() : absl::Span<int16_t>();
  // Dictionary-encoded pages go to the writer as indices into the input's dictionary, which it
  // maps onto its own once per entry instead of hashing every value (the output is the same).
  // The digest wants values, so --verify reads them.
  constexpr bool kMayPassIndices = !std::is_same_v<T, bool>;
  std::unique_ptr<uint32_t[]> indices;
  if (kMayPassIndices && writer != nullptr && digest == nullptr) {
    indices = std::make_unique<uint32_t[]>(kBatchLevels);
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
          counts, reader.ReadIndices(def, rep, absl::MakeSpan(indices.get(), kBatchLevels)));
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
      PQPAGE_RETURN_IF_ERROR(WithContext(written, writer_context));
    }
    if (digest != nullptr) {
      digest->Add<T>(counts, has_def ? def.data() : nullptr, has_rep ? rep.data() : nullptr,
                     batch.values.get());
    }
  }
  return absl::OkStatus();
}

size_t DigestIndex(int row_group, int column, int num_columns) {
  return static_cast<size_t>(row_group) * static_cast<size_t>(num_columns) +
         static_cast<size_t>(column);
}

// The chunk lengths of every row group and column, which the progress line needs as its total.
absl::StatusOr<int64_t> TotalChunkBytes(const FileReader& file) {
  int64_t total = 0;
  const int num_columns = static_cast<int>(file.schema().columns().size());
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    for (int c = 0; c < num_columns; ++c) {
      PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, file.ColumnChunk(rg, c));
      total += location.length;
    }
  }
  return total;
}

// Writes OUT from IN with up to `threads` column chunks encoded at once. `digests` receives one
// digest per row group and column (row-major) when verification wants them; `*created` tells
// whether OUT was created (and so is the command's to remove on failure).
//
// Chunks are encoded in parallel but written in file order: a finished chunk waits, with its
// pages in memory, until every chunk before it is written, and a chunk more than 2 x threads
// ahead of the next one to write does not start, which bounds that memory. With one thread each
// chunk is written as soon as it is encoded, as before. Errors are kept per chunk and the first
// in file order is returned, so the outcome does not depend on the thread count.
absl::Status Recode(const FileReader& input, const std::string& out_path,
                    const WriterOptions& options, bool write_page_index, int threads,
                    std::vector<StreamDigest>* digests, bool* created) {
  const std::vector<ColumnDescriptor>& columns = input.schema().columns();
  const int num_columns = static_cast<int>(columns.size());
  const int num_row_groups = input.num_row_groups();
  PQPAGE_ASSIGN_OR_RETURN(int64_t total_bytes, TotalChunkBytes(input));

  FileWriterOptions file_options;
  file_options.key_value_metadata = input.key_value_metadata();
  file_options.write_page_index = write_page_index;
  auto opened = FileWriter::Open(out_path, input.schema(), file_options);
  if (!opened.ok()) return WithContext(opened.status(), absl::StrCat(out_path, ": "));
  std::unique_ptr<FileWriter> output = *std::move(opened);
  *created = true;

  const int64_t num_chunks = int64_t{num_row_groups} * num_columns;
  std::vector<std::optional<ColumnChunkWriter>> encoded(static_cast<size_t>(num_chunks));
  std::vector<absl::Status> errors(static_cast<size_t>(num_chunks));
  Progress progress(kCommand, total_bytes);
  std::mutex mutex;  // guards everything below, the output and the progress line
  std::condition_variable chunk_written;
  int64_t next_to_write = 0;
  int64_t bytes_done = 0;
  bool failed = false;
  const int64_t max_ahead = 2 * int64_t{threads};

  // Writes the finished chunks that are next in file order; `mutex` is held.
  auto write_ready = [&]() -> absl::Status {
    while (next_to_write < num_chunks && encoded[static_cast<size_t>(next_to_write)]) {
      const int64_t i = next_to_write;
      const int rg = static_cast<int>(i / num_columns);
      const int c = static_cast<int>(i % num_columns);
      const std::string rg_context = absl::StrCat(out_path, ": row group ", rg, ": ");
      absl::Status status;
      if (c == 0) status = WithContext(output->BeginRowGroup(), rg_context);
      if (status.ok()) {
        status = WithContext(output->WriteColumnChunk(*std::move(encoded[static_cast<size_t>(i)])),
                             absl::StrCat(rg_context, "column '", columns[c].PathString(), "': "));
      }
      encoded[static_cast<size_t>(i)].reset();
      if (status.ok() && c == num_columns - 1) {
        status = WithContext(output->EndRowGroup(), rg_context);
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
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation location, input.ColumnChunk(rg, c));
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, input.OpenColumnChunk(rg, c));
    ColumnChunkWriter writer(columns[c], options);
    StreamDigest* digest =
        digests != nullptr ? &(*digests)[DigestIndex(rg, c, num_columns)] : nullptr;
    auto on_page = [&](int64_t page_offset) {
      if (!progress.enabled()) return;
      const std::lock_guard<std::mutex> lock(mutex);
      progress.Update(rg, num_row_groups, c, num_columns,
                      bytes_done + (page_offset - location.offset));
    };
    const std::string writer_context =
        absl::StrCat(out_path, ": row group ", rg, ": column '", columns[c].PathString(), "': ");
    PQPAGE_RETURN_IF_ERROR(VisitValueType(columns[c].type, [&](auto tag) {
      return CopyChunk<typename decltype(tag)::Type>(reader, &writer, writer_context, digest,
                                                     on_page);
    }));
    const std::lock_guard<std::mutex> lock(mutex);
    bytes_done += location.length;
    if (failed) return absl::OkStatus();  // nothing more is written; the error is elsewhere
    encoded[static_cast<size_t>(i)] = std::move(writer);
    return write_ready();
  };

  absl::Status status = RunTasks(threads, num_chunks, [&](int64_t i) -> absl::Status {
    {
      // After a failure every started chunk still runs, so that the first error in file order is
      // found whatever the interleaving; only the writing stops.
      std::unique_lock<std::mutex> lock(mutex);
      chunk_written.wait(lock, [&] { return failed || i < next_to_write + max_ahead; });
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
  progress.Clear();
  if (!status.ok()) {
    for (const absl::Status& error : errors) {
      if (!error.ok()) return error;
    }
    return status;
  }
  // A schema without leaf columns has no chunks, but its row groups still hold rows.
  for (int rg = 0; num_columns == 0 && rg < num_row_groups; ++rg) {
    const std::string rg_context = absl::StrCat(out_path, ": row group ", rg, ": ");
    PQPAGE_RETURN_IF_ERROR(WithContext(output->BeginRowGroup(), rg_context));
    PQPAGE_RETURN_IF_ERROR(
        WithContext(output->EndRowGroup(input.row_group_num_rows(rg)), rg_context));
  }
  return WithContext(output->Close(), absl::StrCat(out_path, ": "));
}

// Reads OUT back and compares its shape and every column's streams with IN's digests.
absl::Status VerifyOutput(const FileReader& input, const std::string& out_path,
                          const std::vector<StreamDigest>& expected) {
  auto opened = FileReader::Open(out_path);
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
      StreamDigest digest;
      PQPAGE_RETURN_IF_ERROR(VisitValueType(output.schema().columns()[c].type, [&](auto tag) {
        return CopyChunk<typename decltype(tag)::Type>(reader, nullptr, "", &digest,
                                                       [](int64_t) {});
      }));
      const StreamDigest& want = expected[DigestIndex(rg, c, num_columns)];
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

// Whether two paths name the same existing file (recoding a file onto itself would truncate the
// input before it is read).
bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa;
  struct stat sb;
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_size);
}

}  // namespace

int RunRecode(const std::vector<std::string>& args) {
  const std::vector<OptionSpec> specs =
      WithThreadsOption(WithReaderOptions({{"encoding", true},
                                           {"page-version", true},
                                           {"compression", true},
                                           {"compression-level", true},
                                           {"page-size", true},
                                           {"column-encoding", true},
                                           {"column-compression", true},
                                           {"column-dictionary", true},
                                           {"auto-encodings", true},
                                           {"tie-margin", true},
                                           {"checksum", false},
                                           {"no-statistics", false},
                                           {"no-page-index", false},
                                           {"verify", false},
                                           {"rle", true},
                                           {"block-size", true}}));
  auto parsed = ParseArgs(args, specs);
  if (!parsed.ok()) return UsageError(kCommand, parsed.status());
  if (parsed->Has("help")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  const std::vector<std::string>& positional = parsed->positional();
  if (positional.size() != 2) {
    return UsageError(kCommand, positional.size() < 2 ? "needs IN and OUT" : "too many arguments");
  }
  const std::string& in_path = positional[0];
  const std::string& out_path = positional[1];
  if (SameFile(in_path, out_path)) {
    return UsageError(kCommand, absl::StrCat("OUT is the input file '", in_path, "'"));
  }
  if (IsOrcFile(in_path)) return RecodeOrc(*parsed, specs);
  for (const char* orc_only : {"rle", "block-size"}) {
    if (parsed->Has(orc_only)) {
      return UsageError(kCommand, absl::StrCat("option '--", orc_only, "' applies to ORC files"));
    }
  }
  auto options = WriterOptionsFromArgs(*parsed);
  if (!options.ok()) return UsageError(kCommand, options.status());
  const bool verify = parsed->Has("verify");
  absl::StatusOr<ReaderOptions> reader_options = ReaderOptionsFrom(*parsed);
  if (!reader_options.ok()) return UsageError(kCommand, reader_options.status());
  absl::StatusOr<int> threads_option = ThreadsFrom(*parsed);
  if (!threads_option.ok()) return UsageError(kCommand, threads_option.status());
  const int threads = *threads_option;

  const auto start = std::chrono::steady_clock::now();
  auto input = FileReader::Open(in_path, *reader_options);
  if (!input.ok()) return FailureExit(kCommand, input.status());
  const FileReader& file = **input;
  const std::vector<std::string> unknown =
      UnknownOverrideColumns(*options, file.schema().columns());
  if (!unknown.empty()) {
    return UsageError(kCommand, absl::StrCat("no column '", absl::StrJoin(unknown, "', '"), "' in ",
                                             in_path, " (see pqpage inspect for the paths)"));
  }

  KeepArrowDictionaries(file, &*options);

  std::vector<StreamDigest> digests;
  if (verify) {
    digests.resize(static_cast<size_t>(file.num_row_groups()) * file.schema().columns().size());
  }
  bool created = false;
  absl::Status status = Recode(file, out_path, *options, !parsed->Has("no-page-index"), threads,
                               verify ? &digests : nullptr, &created);
  if (status.ok() && verify) status = VerifyOutput(file, out_path, digests);
  if (!status.ok()) {
    // A half-written (or unverified) file must not pass for a recoded one.
    if (created) std::remove(out_path.c_str());
    return FailureExit(kCommand, status);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t in_size = file.source().size();
  const int64_t out_size = FileSize(out_path);
  std::printf(
      "recoded %s (%lld bytes) -> %s (%lld bytes, %.1f%%): %d row group%s, %zu column%s, "
      "encoding %s, data page v%d, %s%s in %.3f s\n",
      in_path.c_str(), static_cast<long long>(in_size), out_path.c_str(),
      static_cast<long long>(out_size),
      in_size > 0 ? 100.0 * static_cast<double>(out_size) / static_cast<double>(in_size) : 0.0,
      file.num_row_groups(), file.num_row_groups() == 1 ? "" : "s", file.schema().columns().size(),
      file.schema().columns().size() == 1 ? "" : "s",
      std::string(EncodingPolicyName(options->encoding)).c_str(), options->data_page_version,
      std::string(CompressionName(options->compression)).c_str(), verify ? ", verified" : "",
      seconds);
  if (std::fflush(stdout) != 0) return FailureExit(kCommand, "cannot write to standard output");
  return 0;
}

}  // namespace pqpage::cli
