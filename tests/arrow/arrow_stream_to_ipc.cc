// Reads a Parquet file through pqpage's Arrow stream (pqpage/arrow_reader.h), imports it into
// Arrow C++ (pyarrow's libarrow, through the C Data Interface), validates every batch fully and
// writes the batches as an Arrow IPC stream, for tests/interop/arrow_read_test.py to compare with
// what pyarrow reads from the same file. Linked with pqpage and libarrow only: pyarrow's
// libparquet exports its bundled Thrift's symbols, which must not meet Debian's inside pqpage.
//
// Usage: arrow_stream_to_ipc IN.parquet OUT.arrows [--columns a,b.c] [--rows BEGIN:END]
//                            [--batch-rows N] [--read-dictionary a,b.c]
// Exit status: 0 when every batch was written; 1 when pqpage reports an error (opening the file or
// the stream, or a batch), with its message on stderr; 2 for a usage error; 3 when what pqpage
// produced is wrong for Arrow (it cannot be imported, or a batch fails ValidateFull) or the output
// cannot be written.
#include <arrow/c/bridge.h>
#include <arrow/io/file.h>
#include <arrow/ipc/writer.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/file.h"

namespace {

constexpr char kUsage[] =
    "usage: arrow_stream_to_ipc IN.parquet OUT.arrows [--columns a,b.c] [--rows BEGIN:END] "
    "[--batch-rows N] [--read-dictionary a,b.c]\n";

bool ParseInt(std::string_view text, int64_t* out) {
  const char* end = text.data() + text.size();
  auto [at, error] = std::from_chars(text.data(), end, *out);
  return error == std::errc() && at == end && !text.empty();
}

// A stream that forwards to pqpage's and remembers whether pqpage itself reported an error, so
// that an error of the producer (exit 1) is told apart from arrays Arrow cannot import (exit 3):
// Arrow turns both into a failed Status, EINVAL even into the same status code.
struct Forwarding {
  ArrowArrayStream inner{};
  bool producer_failed = false;
};

Forwarding* Inner(ArrowArrayStream* stream) {
  return static_cast<Forwarding*>(stream->private_data);
}

int ForwardGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  Forwarding* f = Inner(stream);
  const int status = f->inner.get_schema(&f->inner, out);
  if (status != 0) f->producer_failed = true;
  return status;
}

int ForwardGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  Forwarding* f = Inner(stream);
  const int status = f->inner.get_next(&f->inner, out);
  if (status != 0) f->producer_failed = true;
  return status;
}

const char* ForwardGetLastError(ArrowArrayStream* stream) {
  Forwarding* f = Inner(stream);
  return f->inner.get_last_error(&f->inner);
}

void ForwardRelease(ArrowArrayStream* stream) {
  Forwarding* f = Inner(stream);
  if (f->inner.release != nullptr) f->inner.release(&f->inner);
  stream->release = nullptr;
}

int Fail(int status, const std::string& message) {
  std::fprintf(stderr, "arrow_stream_to_ipc: %s\n", message.c_str());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  pqpage::ArrowReadOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if ((arg == "--columns" || arg == "--read-dictionary") && has_value) {
      std::vector<std::string>& paths =
          arg == "--columns" ? options.columns : options.read_dictionary;
      const std::string list = argv[++i];
      size_t start = 0;
      while (start <= list.size()) {
        const size_t comma = std::min(list.find(',', start), list.size());
        paths.push_back(list.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (arg == "--rows" && has_value) {
      const std::string_view range = argv[++i];
      const size_t colon = range.find(':');
      pqpage::RowRange rows;
      if (colon == std::string_view::npos || !ParseInt(range.substr(0, colon), &rows.begin) ||
          !ParseInt(range.substr(colon + 1), &rows.end)) {
        return Fail(2, "--rows takes BEGIN:END\n" + std::string(kUsage));
      }
      options.rows = rows;
    } else if (arg == "--batch-rows" && has_value) {
      if (!ParseInt(argv[++i], &options.batch_rows)) {
        return Fail(2, "--batch-rows takes a whole number\n" + std::string(kUsage));
      }
    } else if (arg.starts_with("--")) {
      return Fail(2, "unknown or incomplete option " + arg + "\n" + kUsage);
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.size() != 2) return Fail(2, kUsage);

  absl::StatusOr<std::unique_ptr<pqpage::FileReader>> opened =
      pqpage::FileReader::Open(positional[0]);
  if (!opened.ok()) return Fail(1, std::string(opened.status().message()));
  Forwarding forwarding;
  const absl::Status status = pqpage::OpenArrowStream(
      std::shared_ptr<const pqpage::FileReader>(*std::move(opened)), options, &forwarding.inner);
  if (!status.ok()) return Fail(1, std::string(status.message()));
  if (forwarding.inner.release == nullptr) return Fail(3, "OpenArrowStream gave a released stream");

  ArrowArrayStream stream{};
  stream.get_schema = ForwardGetSchema;
  stream.get_next = ForwardGetNext;
  stream.get_last_error = ForwardGetLastError;
  stream.release = ForwardRelease;
  stream.private_data = &forwarding;
  // Arrow's ArrowArrayStream is the same ABI structure (abi.h shares the interface's guard).
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> reader =
      arrow::ImportRecordBatchReader(&stream);
  const auto failure = [&](const std::string& what, const arrow::Status& error) {
    return forwarding.producer_failed ? Fail(1, error.message())
                                      : Fail(3, what + ": " + error.ToString());
  };
  if (!reader.ok()) return failure("importing the stream", reader.status());

  arrow::Result<std::shared_ptr<arrow::io::FileOutputStream>> sink =
      arrow::io::FileOutputStream::Open(positional[1]);
  if (!sink.ok()) return Fail(3, sink.status().ToString());
  arrow::Result<std::shared_ptr<arrow::ipc::RecordBatchWriter>> writer =
      arrow::ipc::MakeStreamWriter(*sink, (*reader)->schema());
  if (!writer.ok()) return Fail(3, writer.status().ToString());
  int64_t batches = 0;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    const arrow::Status read = (*reader)->ReadNext(&batch);
    if (!read.ok()) return failure("batch " + std::to_string(batches), read);
    if (batch == nullptr) break;
    const arrow::Status valid = batch->ValidateFull();
    if (!valid.ok()) {
      return Fail(3, "batch " + std::to_string(batches) + " is invalid: " + valid.ToString());
    }
    const arrow::Status written = (*writer)->WriteRecordBatch(*batch);
    if (!written.ok()) return Fail(3, written.ToString());
    ++batches;
  }
  // The reader releases the stream (and through it pqpage's) before the output is closed.
  reader->reset();
  if (const arrow::Status closed = (*writer)->Close(); !closed.ok()) {
    return Fail(3, closed.ToString());
  }
  if (const arrow::Status closed = (*sink)->Close(); !closed.ok()) {
    return Fail(3, closed.ToString());
  }
  return 0;
}
