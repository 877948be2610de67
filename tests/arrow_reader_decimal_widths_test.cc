// The Arrow reader's decimal32 and decimal64: types a stored ARROW:schema gives a DECIMAL column of
// the same precision and scale, read as 4- and 8-byte values, and a value too wide for decimal32
// refused rather than cut to another number.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arrow_c_data_checks.h"
#include "file/stored_arrow_schema_write.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/logical_type.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::arrow_test {
namespace {

StoredArrowField Stored(const std::string& name, const std::string& format) {
  StoredArrowField field;
  field.name = name;
  field.format = format;
  field.nullable = true;
  return field;
}

// One row group: d32 INT32 DECIMAL(7,2) and d64 INT64 DECIMAL(10,2), each with a null second row,
// stored in ARROW:schema with the formats given.
absl::Status WriteFile(const std::string& path, const std::string& d32_format,
                       const std::string& d64_format, const std::vector<int64_t>& d64_values) {
  LogicalType d32;
  d32.kind = LogicalKind::kDecimal;
  d32.precision = 7;
  d32.scale = 2;
  LogicalType d64 = d32;
  d64.precision = 10;
  PQPAGE_ASSIGN_OR_RETURN(
      Schema schema, Schema::Builder()
                         .AddLogical("d32", Repetition::kOptional, PhysicalType::kInt32, 0, d32)
                         .AddLogical("d64", Repetition::kOptional, PhysicalType::kInt64, 0, d64)
                         .Build());
  FileWriterOptions options;
  PQPAGE_ASSIGN_OR_RETURN(
      std::string stored,
      SerializeStoredArrowSchema({Stored("d32", d32_format), Stored("d64", d64_format)}));
  options.key_value_metadata.push_back({"ARROW:schema", stored});
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file,
                          FileWriter::Open(path, schema, options));
  PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
  const std::vector<int16_t> definition = {1, 0, 1};
  ColumnChunkWriter first(schema.columns()[0], WriterOptions{});
  const std::vector<int32_t> d32_values = {-12345, 9999999};
  PQPAGE_RETURN_IF_ERROR(first.WriteBatch<int32_t>(definition, {}, d32_values));
  PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(first)));
  ColumnChunkWriter second(schema.columns()[1], WriterOptions{});
  PQPAGE_RETURN_IF_ERROR(second.WriteBatch<int64_t>(definition, {}, d64_values));
  PQPAGE_RETURN_IF_ERROR(file->WriteColumnChunk(std::move(second)));
  PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  return file->Close();
}

template <typename T>
T ValueOf(const ArrowArray& array, int64_t row) {
  T value;
  std::memcpy(&value, static_cast<const uint8_t*>(array.buffers[1]) + row * sizeof(T), sizeof(T));
  return value;
}

TEST(ArrowReaderDecimalWidthsTest, StoredDecimal32And64ReadAsTheirWidths) {
  const std::string path = testing::TestTempPath("stored.parquet");
  ASSERT_TRUE(WriteFile(path, "d:7,2,32", "d:10,2,64", {-1, int64_t{1} << 40}).ok());
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
  OwnedStream stream;
  ASSERT_TRUE(OpenArrowStream(file, ArrowReadOptions{}, &stream.s).ok());
  OwnedSchema schema;
  ASSERT_EQ(stream.s.get_schema(&stream.s, &schema.s), 0);
  EXPECT_EQ(std::string(schema.s.children[0]->format), "d:7,2,32");
  EXPECT_EQ(std::string(schema.s.children[1]->format), "d:10,2,64");
  std::vector<OwnedArray> batches = ReadAll(stream.s);
  ASSERT_EQ(batches.size(), 1u);
  const ArrowArray& d32 = *batches[0].a.children[0];
  const ArrowArray& d64 = *batches[0].a.children[1];
  EXPECT_EQ(d32.null_count, 1);
  EXPECT_EQ(ValueOf<int32_t>(d32, 0), -12345);
  EXPECT_EQ(ValueOf<int32_t>(d32, 2), 9999999);
  EXPECT_EQ(ValueOf<int64_t>(d64, 0), -1);
  EXPECT_EQ(ValueOf<int64_t>(d64, 2), int64_t{1} << 40);

  // Without the stored schema's say, both are decimal128.
  ArrowReadOptions own_types;
  own_types.use_stored_arrow_schema = false;
  OwnedSchema plain;
  ASSERT_TRUE(ExportArrowSchema(*file, own_types, &plain.s).ok());
  EXPECT_EQ(std::string(plain.s.children[0]->format), "d:7,2");
  EXPECT_EQ(std::string(plain.s.children[1]->format), "d:10,2");
}

TEST(ArrowReaderDecimalWidthsTest, AValueWiderThanDecimal32IsAnErrorNotAnotherNumber) {
  // A hostile file: its ARROW:schema says decimal32 over INT64 values, one past 32 bits.
  const std::string path = testing::TestTempPath("too_wide.parquet");
  ASSERT_TRUE(WriteFile(path, "d:7,2,32", "d:10,2,32", {5, int64_t{1} << 40}).ok());
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
  OwnedStream stream;
  ASSERT_TRUE(OpenArrowStream(file, ArrowReadOptions{}, &stream.s).ok());
  OwnedArray batch;
  EXPECT_EQ(stream.s.get_next(&stream.s, &batch.a), EIO);
  EXPECT_NE(std::string(stream.s.get_last_error(&stream.s)).find("does not fit"), std::string::npos)
      << stream.s.get_last_error(&stream.s);
}

}  // namespace
}  // namespace pqpage::arrow_test
