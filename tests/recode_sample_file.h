// Files for the Recode and Advise tests: written with pqpage's FileWriter, so the tests need no
// reference files, and read back level by level so that two files' contents can be compared
// whatever their encodings.
#ifndef PQPAGE_TESTS_RECODE_SAMPLE_FILE_H_
#define PQPAGE_TESTS_RECODE_SAMPLE_FILE_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "arrow_schema_sample.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::testing {

inline constexpr int kSampleRowsPerGroup = 6000;

// id: optional INT64 (every seventh row null, else 3 x row: delta suits it); city: required
// STRING of four values (written as a dictionary, so a recode passes indices on); price: required
// DOUBLE; flag: required BOOLEAN; tags: an optional list of optional strings (nulls, empty lists
// and up to three elements).
inline absl::StatusOr<Schema> SampleSchema() {
  return Schema::Builder()
      .AddPrimitive("id", Repetition::kOptional, PhysicalType::kInt64)
      .AddPrimitive("city", Repetition::kRequired, PhysicalType::kByteArray, 0, "STRING")
      .AddPrimitive("price", Repetition::kRequired, PhysicalType::kDouble)
      .AddPrimitive("flag", Repetition::kRequired, PhysicalType::kBoolean)
      .BeginGroup("tags", Repetition::kOptional, "LIST")
      .BeginGroup("list", Repetition::kRepeated)
      .AddPrimitive("element", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .EndGroup()
      .EndGroup()
      .Build();
}

// Writes the sample with `groups` row groups, every column under `options` but city, which is
// dictionary-encoded.
inline absl::Status WriteSampleFile(const std::string& path, int groups,
                                    const WriterOptions& options = {}) {
  PQPAGE_ASSIGN_OR_RETURN(Schema schema, SampleSchema());
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file, FileWriter::Open(path, schema));
  static const char* const kCities[] = {"Lisbon", "Oslo", "Quito", "Hanoi"};
  for (int group = 0; group < groups; ++group) {
    PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
    std::vector<int16_t> id_def;
    std::vector<int64_t> ids;
    std::vector<ByteArray> cities;
    std::vector<double> prices;
    std::unique_ptr<bool[]> flags = std::make_unique<bool[]>(kSampleRowsPerGroup);
    std::vector<int16_t> tag_def;
    std::vector<int16_t> tag_rep;
    std::vector<std::string> tag_text;
    for (int i = 0; i < kSampleRowsPerGroup; ++i) {
      const int64_t row = int64_t{group} * kSampleRowsPerGroup + i;
      id_def.push_back(row % 7 == 0 ? 0 : 1);
      if (row % 7 != 0) ids.push_back(row * 3);
      cities.emplace_back(std::string_view(kCities[(row / 3) % 4]));
      prices.push_back(static_cast<double>(row % 1000) * 0.25);
      flags[i] = row % 3 == 0;
      switch (row % 5) {
        case 0:  // a null list
          tag_def.push_back(0);
          tag_rep.push_back(0);
          break;
        case 1:  // an empty list
          tag_def.push_back(1);
          tag_rep.push_back(0);
          break;
        default:
          for (int e = 0; e < row % 5 - 1; ++e) {
            const bool null_element = (row + e) % 11 == 0;
            tag_def.push_back(null_element ? 2 : 3);
            tag_rep.push_back(e == 0 ? 0 : 1);
            if (!null_element) tag_text.push_back(absl::StrCat("tag-", (row * 7 + e) % 97));
          }
      }
    }
    std::vector<ByteArray> tags;
    for (const std::string& text : tag_text) tags.emplace_back(text);
    const std::vector<ColumnDescriptor>& columns = schema.columns();
    ColumnChunkWriter id_writer(columns[0], options);
    PQPAGE_RETURN_IF_ERROR(id_writer.WriteBatch<int64_t>(id_def, {}, ids));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(id_writer)));
    WriterOptions dictionary = options;
    dictionary.encoding = EncodingPolicy::kDictionary;
    ColumnChunkWriter city_writer(columns[1], dictionary);
    PQPAGE_RETURN_IF_ERROR(city_writer.WriteBatch<ByteArray>({}, {}, cities));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(city_writer)));
    ColumnChunkWriter price_writer(columns[2], options);
    PQPAGE_RETURN_IF_ERROR(price_writer.WriteBatch<double>({}, {}, prices));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(price_writer)));
    ColumnChunkWriter flag_writer(columns[3], options);
    PQPAGE_RETURN_IF_ERROR(flag_writer.WriteBatch<bool>(
        {}, {}, absl::MakeConstSpan(flags.get(), kSampleRowsPerGroup)));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(flag_writer)));
    ColumnChunkWriter tag_writer(columns[4], options);
    PQPAGE_RETURN_IF_ERROR(tag_writer.WriteBatch<ByteArray>(tag_def, tag_rep, tags));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(tag_writer)));
    PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  }
  return file->Close();
}

// One row group in testing::ArrowSchemaSampleColumns() with its ARROW:schema, every column PLAIN
// and holding the same strings: unique, sorted, with a long shared prefix, so that a dictionary is
// as big as PLAIN and DELTA_BYTE_ARRAY far smaller.
inline absl::Status WriteArrowSampleFile(const std::string& path) {
  const Schema schema = ArrowSchemaSampleColumns();
  FileWriterOptions file_options;
  file_options.key_value_metadata.push_back({"ARROW:schema", kArrowSchemaSample});
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file,
                          FileWriter::Open(path, schema, file_options));
  PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
  constexpr int kRows = 5000;
  std::vector<std::string> text;
  for (int i = 0; i < kRows; ++i) text.push_back(absl::StrFormat("shared/prefix/%08d", i));
  std::vector<ByteArray> values(text.begin(), text.end());
  WriterOptions plain;
  plain.encoding = EncodingPolicy::kPlain;
  for (const ColumnDescriptor& column : schema.columns()) {
    ColumnChunkWriter writer(column, plain);
    // Every level holds a value, each row one element (rep 0).
    std::vector<int16_t> def(kRows, column.max_definition_level);
    std::vector<int16_t> rep(column.max_repetition_level > 0 ? kRows : 0, 0);
    PQPAGE_RETURN_IF_ERROR(writer.WriteBatch<ByteArray>(def, rep, values));
    PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(writer)));
  }
  PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  return file->Close();
}

// Every level of chunk (row_group, column) as text, "def/rep/value" (the value's bytes for a byte
// array, its bit pattern otherwise; "-" when the level has no value): equal for two files exactly
// when the chunk holds the same levels and values.
inline absl::StatusOr<std::vector<std::string>> ChunkLevels(const FileReader& file, int row_group,
                                                            int column) {
  PQPAGE_ASSIGN_OR_RETURN(ColumnChunkReader reader, file.OpenColumnChunk(row_group, column));
  const ColumnDescriptor& descriptor = reader.column();
  std::vector<std::string> levels;
  PQPAGE_RETURN_IF_ERROR(VisitValueType(descriptor.type, [&](auto tag) -> absl::Status {
    using T = typename decltype(tag)::Type;
    constexpr size_t kBatch = 1000;
    std::vector<int16_t> def(kBatch);
    std::vector<int16_t> rep(kBatch);
    std::unique_ptr<T[]> values = std::make_unique<T[]>(kBatch);
    while (true) {
      PQPAGE_ASSIGN_OR_RETURN(BatchCounts counts,
                              reader.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                                  absl::MakeSpan(values.get(), kBatch)));
      if (counts.levels == 0) return absl::OkStatus();
      int64_t next_value = 0;
      for (int64_t i = 0; i < counts.levels; ++i) {
        const int16_t d = descriptor.max_definition_level > 0 ? def[i] : 0;
        const int16_t r = descriptor.max_repetition_level > 0 ? rep[i] : 0;
        std::string value = "-";
        if (d == descriptor.max_definition_level) {
          const T& v = values[next_value++];
          if constexpr (std::is_same_v<T, ByteArray>) {
            value = std::string(v.AsStringView());
          } else if constexpr (std::is_same_v<T, bool>) {
            value = v ? "true" : "false";
          } else {
            value.assign(reinterpret_cast<const char*>(&v), sizeof(T));
          }
        }
        levels.push_back(absl::StrCat(d, "/", r, "/", value));
      }
    }
  }));
  return levels;
}

// Writes a copy of the file at `path` to `damaged_path` with every byte of `chunk` set to 0xFF, so
// that the chunk's pages no longer decode while the footer still reads.
inline absl::Status WriteDamagedCopy(const std::string& path, const ColumnChunkLocation& chunk,
                                     const std::string& damaged_path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (chunk.offset < 0 || chunk.length < 0 ||
      chunk.offset + chunk.length > static_cast<int64_t>(bytes.size())) {
    return absl::InvalidArgumentError("the chunk is not inside the file");
  }
  std::fill_n(bytes.begin() + chunk.offset, chunk.length, static_cast<char>(0xff));
  std::ofstream out(damaged_path, std::ios::binary);
  out << bytes;
  return out ? absl::OkStatus() : absl::InternalError("cannot write " + damaged_path);
}

// A sample file written PLAIN in two row groups, opened; its output path beside it. Both are
// removed after the test.
class SampleFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WriterOptions plain;
    plain.encoding = EncodingPolicy::kPlain;
    PQPAGE_ASSERT_OK(WriteSampleFile(in_path_, 2, plain));
    PQPAGE_ASSERT_OK_AND_ASSIGN(input_, FileReader::Open(in_path_));
  }
  void TearDown() override {
    std::remove(in_path_.c_str());
    std::remove(out_path_.c_str());
  }

  const std::string in_path_ = testing::TestTempPath("in.parquet");
  const std::string out_path_ = testing::TestTempPath("out.parquet");
  std::unique_ptr<FileReader> input_;
};

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_RECODE_SAMPLE_FILE_H_
