// Uses the installed library's file layer through its public headers only, as a Parquet writer
// and an engine would: builds a schema, writes a two-row-group file with the page builder, then
// reads it back through FileReader (metadata() in pqpage's plain types), PageHeaderIterator,
// ColumnChunkReader and InspectFile. Any mismatch exits with a distinct code and says what
// differed.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/inspect.h"
#include "pqpage/metadata.h"
#include "pqpage/page_header_iterator.h"
#include "pqpage/schema.h"
#include "pqpage/types.h"

namespace {

constexpr int kRowsPerGroup = 5000;

int Fail(int code, const std::string& what) {
  std::fprintf(stderr, "file_consumer: %s\n", what.c_str());
  return code;
}

// Row r of the optional id column: null every seventh row, else r * 3.
bool IdPresent(int64_t row) { return row % 7 != 0; }
std::string City(int64_t row) {
  static const char* const kCities[] = {"Lisbon", "Oslo", "Quito", "Hanoi"};
  return kCities[row % 4];
}

absl::Status WriteFile(const std::string& path, const pqpage::Schema& schema) {
  pqpage::FileWriterOptions file_options;
  file_options.key_value_metadata.push_back({"origin", "install test"});
  absl::StatusOr<std::unique_ptr<pqpage::FileWriter>> file =
      pqpage::FileWriter::Open(path, schema, file_options);
  if (!file.ok()) return file.status();
  for (int group = 0; group < 2; ++group) {
    if (absl::Status s = (*file)->BeginRowGroup(); !s.ok()) return s;
    std::vector<int16_t> definitions;
    std::vector<int64_t> ids;
    std::vector<std::string> cities;
    for (int64_t i = 0; i < kRowsPerGroup; ++i) {
      const int64_t row = group * kRowsPerGroup + i;
      definitions.push_back(IdPresent(row) ? 1 : 0);
      if (IdPresent(row)) ids.push_back(row * 3);
      cities.push_back(City(row));
    }
    pqpage::WriterOptions options;
    options.data_page_version = 2;
    options.compression = pqpage::Compression::kZstd;
    options.write_checksums = true;
    options.data_page_row_limit = 1000;
    pqpage::ColumnChunkWriter id_writer(schema.columns()[0], options);
    if (absl::Status s = id_writer.WriteBatch<int64_t>(definitions, {}, ids); !s.ok()) return s;
    if (absl::Status s = (*file)->WriteColumnChunk(std::move(id_writer)); !s.ok()) return s;
    std::vector<pqpage::ByteArray> views;
    for (const std::string& city : cities) views.emplace_back(city);
    pqpage::ColumnChunkWriter city_writer(schema.columns()[1], options);
    if (absl::Status s = city_writer.WriteBatch<pqpage::ByteArray>({}, {}, views); !s.ok()) {
      return s;
    }
    if (absl::Status s = (*file)->WriteColumnChunk(std::move(city_writer)); !s.ok()) return s;
    if (absl::Status s = (*file)->EndRowGroup(); !s.ok()) return s;
  }
  return (*file)->Close();
}

}  // namespace

int main() {
  absl::StatusOr<pqpage::Schema> schema =
      pqpage::Schema::Builder()
          .AddPrimitive("id", pqpage::Repetition::kOptional, pqpage::PhysicalType::kInt64)
          .AddPrimitive("city", pqpage::Repetition::kRequired, pqpage::PhysicalType::kByteArray, 0,
                        "STRING")
          .Build();
  if (!schema.ok()) return Fail(10, std::string(schema.status().message()));
  const std::string path = "file_consumer_output.parquet";
  if (absl::Status s = WriteFile(path, *schema); !s.ok()) {
    return Fail(11, std::string(s.message()));
  }

  absl::StatusOr<std::unique_ptr<pqpage::FileReader>> opened = pqpage::FileReader::Open(path);
  if (!opened.ok()) return Fail(12, std::string(opened.status().message()));
  const pqpage::FileReader& file = **opened;

  // The footer, in plain types.
  const pqpage::FileMetaData& metadata = file.metadata();
  if (metadata.num_rows != 2 * kRowsPerGroup || metadata.row_groups.size() != 2) {
    return Fail(13, "row counts in the footer");
  }
  if (metadata.schema.size() != 3 || metadata.schema[2].name != "city" ||
      metadata.schema[2].logical_type != "STRING" || metadata.schema[0].num_children != 2) {
    return Fail(14, "schema nodes in the footer");
  }
  if (!metadata.created_by || metadata.created_by->rfind("pqpage version ", 0) != 0 ||
      metadata.key_value_metadata.size() != 1 ||
      metadata.key_value_metadata[0].value != std::optional<std::string>("install test")) {
    return Fail(15, "created_by or key-value metadata");
  }
  const pqpage::ColumnChunk& id_chunk = metadata.row_groups[1].columns[0];
  int64_t nulls = 0;
  for (int64_t row = kRowsPerGroup; row < 2 * kRowsPerGroup; ++row) nulls += IdPresent(row) ? 0 : 1;
  if (!id_chunk.meta_data ||
      id_chunk.meta_data->codec_id != static_cast<int32_t>(pqpage::Compression::kZstd) ||
      id_chunk.meta_data->num_values != kRowsPerGroup || !id_chunk.meta_data->statistics ||
      id_chunk.meta_data->statistics->null_count != nulls || !id_chunk.meta_data->encoding_stats) {
    return Fail(16, "the id chunk's metadata");
  }

  // Page headers, CRCs checked.
  absl::StatusOr<pqpage::ColumnChunkLocation> location = file.LocateColumnChunk(1, 0);
  if (!location.ok()) return Fail(17, std::string(location.status().message()));
  pqpage::PageHeaderIterator pages(&file.source(), *location, "id");
  int64_t data_pages = 0;
  int64_t levels = 0;
  while (true) {
    absl::StatusOr<bool> next = pages.Next();
    if (!next.ok()) return Fail(18, std::string(next.status().message()));
    if (!*next) break;
    const pqpage::PageInfo& page = pages.page();
    if (!page.crc_checked || !page.crc_valid) return Fail(19, "a page CRC");
    if (page.type == pqpage::PageType::kDataPageV2) {
      ++data_pages;
      levels += page.num_values;
    }
  }
  if (data_pages != 5 || levels != kRowsPerGroup) return Fail(20, "the page walk");

  // Values, through the page decoder.
  for (int group = 0; group < 2; ++group) {
    absl::StatusOr<pqpage::ColumnChunkReader> ids = file.OpenColumnChunk(group, 0);
    absl::StatusOr<pqpage::ColumnChunkReader> cities = file.OpenColumnChunk(group, 1);
    if (!ids.ok() || !cities.ok()) return Fail(21, "opening a column chunk");
    std::vector<int16_t> definitions(kRowsPerGroup);
    std::vector<int64_t> id_values(kRowsPerGroup);
    std::vector<pqpage::ByteArray> city_values(kRowsPerGroup);
    int64_t row = group * kRowsPerGroup;
    while (true) {
      absl::StatusOr<pqpage::BatchCounts> got =
          ids->ReadBatch<int64_t>(absl::MakeSpan(definitions), {}, absl::MakeSpan(id_values));
      if (!got.ok()) return Fail(22, std::string(got.status().message()));
      if (got->levels == 0) break;
      absl::StatusOr<pqpage::BatchCounts> got_cities = cities->ReadBatch<pqpage::ByteArray>(
          {}, {}, absl::MakeSpan(city_values).first(static_cast<size_t>(got->levels)));
      if (!got_cities.ok() || got_cities->levels != got->levels) {
        return Fail(23, "city batches out of step with id batches");
      }
      int64_t next_value = 0;
      for (int64_t i = 0; i < got->levels; ++i, ++row) {
        if ((definitions[i] == 1) != IdPresent(row)) return Fail(24, "a null in the wrong row");
        if (IdPresent(row) && id_values[next_value++] != row * 3) return Fail(25, "an id");
        if (city_values[i].AsStringView() != City(row)) return Fail(26, "a city");
      }
    }
    if (row != (group + 1) * kRowsPerGroup) return Fail(27, "rows read");
  }

  // The inspect report: every chunk's pages walked and decoded, none with a problem.
  absl::StatusOr<std::vector<pqpage::InspectedChunk>> inspected = pqpage::InspectFile(file);
  if (!inspected.ok() || inspected->size() != 4) return Fail(28, "inspecting the file");
  for (const pqpage::InspectedChunk& chunk : *inspected) {
    if (chunk.problems() != 0 || !chunk.page_index_problems.empty()) {
      return Fail(29, "a problem in an inspect report");
    }
  }
  if ((*inspected)[2].DataPageNumbers().size() != 5) return Fail(30, "the inspected pages");
  std::remove(path.c_str());
  return 0;
}
