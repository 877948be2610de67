// Reads an Arrow IPC stream with Arrow C++ (pyarrow's libarrow), hands its batches to pqpage's
// Arrow writer (pqpage/arrow_writer.h) through the C stream interface, and writes a Parquet file,
// for tests/interop/arrow_write_test.py to read back with pyarrow, DuckDB and polars. Linked with
// pqpage and libarrow only (see arrow_stream_to_ipc.cc for why never libparquet).
//
// Usage: ipc_to_parquet IN.arrows OUT.parquet [--row-group-rows N] [--row-group-bytes N]
//                       [--compression NAME] [--encoding NAME] [--page-version 1|2]
//                       [--threads N] [--no-arrow-schema] [--repeat N]
// --repeat N (for bench/tables/time_arrow_write.py) reads every batch into memory first, writes
// the file N times and prints "write seconds: S", the best time of WriteArrowStream alone.
// Exit status: 0 when the file was written; 1 when pqpage reports an error, with its message on
// stderr; 2 for a usage error; 3 when Arrow cannot read the input.
#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/reader.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_writer.h"
#include "pqpage/compression.h"
#include "pqpage/writer_options.h"

namespace {

constexpr char kUsage[] =
    "usage: ipc_to_parquet IN.arrows OUT.parquet [--row-group-rows N] [--row-group-bytes N] "
    "[--compression NAME] [--encoding NAME] [--page-version 1|2] [--threads N] "
    "[--no-arrow-schema] [--repeat N]\n";

bool ParseInt(std::string_view text, int64_t* out) {
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, *out);
  return error == std::errc() && at == end && !text.empty();
}

int Fail(int status, const std::string& message) {
  std::fprintf(stderr, "ipc_to_parquet: %s\n", message.c_str());
  return status;
}

std::optional<pqpage::Compression> CompressionNamed(std::string_view name) {
  for (int id = 0; id < 8; ++id) {
    const auto codec = static_cast<pqpage::Compression>(id);
    if (pqpage::CompressionName(codec) == name) return codec;
  }
  return std::nullopt;
}

// Writes the batches of `reader`, all read first, `repeat` times; prints the best time.
int TimeWrites(arrow::RecordBatchReader& reader, const std::string& out,
               const pqpage::ArrowWriteOptions& options, int64_t repeat) {
  arrow::Result<arrow::RecordBatchVector> batches = reader.ToRecordBatches();
  if (!batches.ok()) return Fail(3, batches.status().ToString());
  double best = 1e300;
  for (int64_t run = 0; run < repeat; ++run) {
    arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> again =
        arrow::RecordBatchReader::Make(*batches, reader.schema());
    if (!again.ok()) return Fail(3, again.status().ToString());
    ArrowArrayStream stream{};
    if (const arrow::Status exported = arrow::ExportRecordBatchReader(*again, &stream);
        !exported.ok()) {
      return Fail(3, exported.ToString());
    }
    const auto start = std::chrono::steady_clock::now();
    const absl::Status written = pqpage::WriteArrowStream(out, &stream, options);
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    stream.release(&stream);
    if (!written.ok()) return Fail(1, written.ToString());
    best = std::min(best, seconds.count());
  }
  std::printf("write seconds: %.6f\n", best);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  pqpage::ArrowWriteOptions options;
  int64_t repeat = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    int64_t number = 0;
    if (arg == "--no-arrow-schema") {
      options.store_arrow_schema = false;
    } else if ((arg == "--row-group-rows" || arg == "--row-group-bytes" ||
                arg == "--page-version" || arg == "--threads" || arg == "--repeat") &&
               has_value) {
      if (!ParseInt(argv[++i], &number)) return Fail(2, arg + " takes a whole number");
      if (arg == "--row-group-rows") options.row_group_rows = number;
      if (arg == "--row-group-bytes") options.row_group_bytes = number;
      if (arg == "--page-version") options.writer.data_page_version = static_cast<int>(number);
      if (arg == "--threads") options.threads = static_cast<int>(number);
      if (arg == "--repeat") repeat = number;
    } else if (arg == "--compression" && has_value) {
      const std::optional<pqpage::Compression> codec = CompressionNamed(argv[++i]);
      if (!codec) return Fail(2, std::string("unknown codec ") + argv[i]);
      options.writer.compression = *codec;
    } else if (arg == "--encoding" && has_value) {
      const std::optional<pqpage::EncodingPolicy> policy = pqpage::ParseEncodingPolicy(argv[++i]);
      if (!policy) return Fail(2, std::string("unknown encoding ") + argv[i]);
      options.writer.encoding = *policy;
    } else if (arg.starts_with("--")) {
      return Fail(2, "unknown or incomplete option " + arg + "\n" + kUsage);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return Fail(2, kUsage);

  arrow::Result<std::shared_ptr<arrow::io::ReadableFile>> input =
      arrow::io::ReadableFile::Open(positional[0]);
  if (!input.ok()) return Fail(3, input.status().ToString());
  arrow::Result<std::shared_ptr<arrow::ipc::RecordBatchStreamReader>> reader =
      arrow::ipc::RecordBatchStreamReader::Open(*input);
  if (!reader.ok()) return Fail(3, reader.status().ToString());
  if (repeat > 0) return TimeWrites(**reader, positional[1], options, repeat);
  // Arrow's ArrowArrayStream is the same ABI structure (abi.h shares the interface's guard).
  ArrowArrayStream stream{};
  if (const arrow::Status exported = arrow::ExportRecordBatchReader(*reader, &stream);
      !exported.ok()) {
    return Fail(3, exported.ToString());
  }
  const absl::Status written = pqpage::WriteArrowStream(positional[1], &stream, options);
  stream.release(&stream);
  if (!written.ok()) return Fail(1, written.ToString());
  return 0;
}
