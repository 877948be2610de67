// Recodes and advises a file through the installed library alone, as a writer that embeds pqpage
// would: writes a small two-column file, asks Advise for each column's encoding, gives
// AdvisedOptions to Recode (on two threads, verified), and reads the output back, comparing every
// value and checking that each column was written in the encodings its advice measured. Any
// mismatch exits with a distinct code and says what differed.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/advise.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/recode.h"
#include "pqpage/schema.h"
#include "pqpage/types.h"

namespace {

constexpr int kRows = 8000;

int Fail(int code, const std::string& what) {
  std::fprintf(stderr, "recode_consumer: %s\n", what.c_str());
  return code;
}

int64_t Id(int64_t row) { return 1000 + row * 5; }
std::string Color(int64_t row) {
  static const char* const kColors[] = {"red", "green", "blue"};
  return kColors[row % 3];
}

absl::Status WriteInput(const std::string& path, const pqpage::Schema& schema) {
  absl::StatusOr<std::unique_ptr<pqpage::FileWriter>> file = pqpage::FileWriter::Open(path, schema);
  if (!file.ok()) return file.status();
  if (absl::Status s = (*file)->BeginRowGroup(); !s.ok()) return s;
  std::vector<int64_t> ids;
  std::vector<std::string> colors;
  for (int64_t row = 0; row < kRows; ++row) {
    ids.push_back(Id(row));
    colors.push_back(Color(row));
  }
  std::vector<pqpage::ByteArray> views(colors.begin(), colors.end());
  pqpage::WriterOptions plain;
  plain.encoding = pqpage::EncodingPolicy::kPlain;
  pqpage::ColumnChunkWriter id_writer(schema.columns()[0], plain);
  if (absl::Status s = id_writer.WriteBatch<int64_t>({}, {}, ids); !s.ok()) return s;
  if (absl::Status s = (*file)->WriteColumnChunk(std::move(id_writer)); !s.ok()) return s;
  pqpage::ColumnChunkWriter color_writer(schema.columns()[1], plain);
  if (absl::Status s = color_writer.WriteBatch<pqpage::ByteArray>({}, {}, views); !s.ok()) {
    return s;
  }
  if (absl::Status s = (*file)->WriteColumnChunk(std::move(color_writer)); !s.ok()) return s;
  if (absl::Status s = (*file)->EndRowGroup(); !s.ok()) return s;
  return (*file)->Close();
}

}  // namespace

int main() {
  absl::StatusOr<pqpage::Schema> schema =
      pqpage::Schema::Builder()
          .AddPrimitive("id", pqpage::Repetition::kRequired, pqpage::PhysicalType::kInt64)
          .AddPrimitive("color", pqpage::Repetition::kRequired, pqpage::PhysicalType::kByteArray, 0,
                        "STRING")
          .Build();
  if (!schema.ok()) return Fail(10, std::string(schema.status().message()));
  const std::string in_path = "recode_consumer_input.parquet";
  const std::string out_path = "recode_consumer_output.parquet";
  if (absl::Status s = WriteInput(in_path, *schema); !s.ok()) {
    return Fail(11, std::string(s.message()));
  }
  absl::StatusOr<std::unique_ptr<pqpage::FileReader>> input = pqpage::FileReader::Open(in_path);
  if (!input.ok()) return Fail(12, std::string(input.status().message()));

  absl::StatusOr<pqpage::FileAdvice> advice = pqpage::Advise(**input, pqpage::AdviseOptions{});
  if (!advice.ok()) return Fail(13, std::string(advice.status().message()));
  if (advice->columns.size() != 2) return Fail(14, "advice for two columns");
  // Sequential ids and three colours: PLAIN is the worst choice for both.
  for (const pqpage::ColumnAdvice& column : advice->columns) {
    if (column.advised().policy == pqpage::EncodingPolicy::kPlain) {
      return Fail(15, "PLAIN advised for " + column.path);
    }
  }

  pqpage::RecodeOptions options;
  options.writer = pqpage::AdvisedOptions(*advice);
  options.threads = 2;
  options.verify = true;
  absl::StatusOr<pqpage::RecodeReport> report = pqpage::Recode(**input, out_path, options);
  if (!report.ok()) return Fail(16, std::string(report.status().message()));
  if (!report->verified || report->output_bytes >= report->input_bytes) {
    return Fail(17, "the recode's report");
  }
  for (size_t c = 0; c < 2; ++c) {
    std::set<std::string> want;
    for (const std::string& joined : advice->columns[c].advised().encodings) {
      size_t start = 0;
      while (start <= joined.size()) {
        const size_t plus = joined.find('+', start);
        want.insert(
            joined.substr(start, plus == std::string::npos ? std::string::npos : plus - start));
        if (plus == std::string::npos) break;
        start = plus + 1;
      }
    }
    std::set<std::string> got;
    for (const pqpage::Encoding encoding : report->columns[c].encodings) {
      got.insert(std::string(pqpage::EncodingName(encoding)));
    }
    if (got != want) return Fail(18, "column " + report->columns[c].path + " not as advised");
  }

  absl::StatusOr<std::unique_ptr<pqpage::FileReader>> output = pqpage::FileReader::Open(out_path);
  if (!output.ok()) return Fail(19, std::string(output.status().message()));
  absl::StatusOr<pqpage::ColumnChunkReader> ids = (*output)->OpenColumnChunk(0, 0);
  absl::StatusOr<pqpage::ColumnChunkReader> colors = (*output)->OpenColumnChunk(0, 1);
  if (!ids.ok() || !colors.ok()) return Fail(20, "opening the output's chunks");
  std::vector<int64_t> id_values(kRows);
  std::vector<pqpage::ByteArray> color_values(kRows);
  int64_t row = 0;
  while (true) {
    absl::StatusOr<pqpage::BatchCounts> got =
        ids->ReadBatch<int64_t>({}, {}, absl::MakeSpan(id_values));
    if (!got.ok()) return Fail(21, std::string(got.status().message()));
    if (got->levels == 0) break;
    absl::StatusOr<pqpage::BatchCounts> got_colors = colors->ReadBatch<pqpage::ByteArray>(
        {}, {}, absl::MakeSpan(color_values).first(static_cast<size_t>(got->levels)));
    if (!got_colors.ok() || got_colors->levels != got->levels) {
      return Fail(22, "color batches out of step with id batches");
    }
    for (int64_t i = 0; i < got->levels; ++i, ++row) {
      if (id_values[i] != Id(row)) return Fail(23, "an id");
      if (color_values[i].AsStringView() != Color(row)) return Fail(24, "a color");
    }
  }
  if (row != kRows) return Fail(25, "rows read");
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
  return 0;
}
