// The Arrow writer (pqpage/arrow_writer.h) checked through pqpage's own Arrow reader, with no
// Arrow library and no Python, so that it runs under the sanitizers: the project's Parquet files
// read, written and read back to the same schema and values; hand-built arrays (offsets, nulls,
// lists, structs, maps, dictionaries, bools) read back exactly; malformed schemas and arrays
// refused (arrow_writer_errors_test.cc); the Parquet schema of a few Arrow types; the stored
// ARROW:schema. tests/interop/arrow_write_test.py reads the same writer's files in the
// peers (pyarrow, DuckDB, polars).
#include "pqpage/arrow_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arrow_c_data_builders.h"
#include "arrow_c_data_checks.h"
#include "arrow_writer_checks.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/arrow_schema.h"
#include "pqpage/file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using namespace arrow_test;  // the C structures: owners, builders, comparison

constexpr int64_t kNullable = ARROW_FLAG_NULLABLE;

// ---------------------------------------------------------------- 1. the project's files

std::vector<std::string> ProjectFiles() {
  std::vector<std::string> paths;
  for (const char* dir : {"", "/peers"}) {
    std::error_code error;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(PQPAGE_TESTFILES_DIR) + dir, error)) {
      if (entry.path().extension() == ".parquet") paths.push_back(entry.path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// The file, and whether to write with small row groups, v2 pages, zstd and two threads.
class RoundTripTest : public ::testing::TestWithParam<std::tuple<std::string, bool>> {};

// Reads `original` (skipped when the reader refuses it), writes what it read with
// WriteArrowStream, and reads that back: the same schema and the same rows.
void ExpectRoundTrip(const std::string& original, const std::string& written, bool small_groups) {
  OwnedSchema schema;
  std::vector<OwnedArray> batches;
  if (const absl::Status read = ReadFile(original, schema, batches); !read.ok()) {
    GTEST_SKIP() << "the Arrow reader refuses " << original << ": " << read;
  }
  ArrowWriteOptions options;
  if (small_groups) {
    options.row_group_rows = 7;
    options.writer.data_page_version = 2;
    options.writer.compression = Compression::kZstd;
    options.threads = 2;
  }
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> input, OpenShared(original));
    OwnedStream stream;
    PQPAGE_ASSERT_OK(OpenArrowStream(input, {}, &stream.s));
    PQPAGE_ASSERT_OK(WriteArrowStream(written, &stream.s, options));
  }
  OwnedSchema schema_back;
  std::vector<OwnedArray> batches_back;
  PQPAGE_ASSERT_OK(ReadFile(written, schema_back, batches_back));
  const std::string diff = SchemaDiff(schema.s, schema_back.s, "");
  ASSERT_EQ(diff, "");
  // The rows are compared one by one: the two sides cut batches differently.
  ExpectSameRows(schema.s, batches, batches_back);

  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(written));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> source, OpenShared(original));
  EXPECT_EQ(file->num_rows(), source->num_rows());
  if (small_groups) EXPECT_EQ(file->num_row_groups(), (source->num_rows() + 6) / 7);
}

TEST_P(RoundTripTest, SameSchemaAndValues) {
  const auto& [original, small_groups] = GetParam();
  ExpectRoundTrip(original, TempPath(""), small_groups);
}

std::string RoundTripName(const ::testing::TestParamInfo<RoundTripTest::ParamType>& info) {
  std::string name = std::filesystem::path(std::get<0>(info.param)).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return absl::StrCat(name, std::get<1>(info.param) ? "_groups_of_7" : "");
}

INSTANTIATE_TEST_SUITE_P(ProjectFiles, RoundTripTest,
                         ::testing::Combine(::testing::ValuesIn(ProjectFiles()), ::testing::Bool()),
                         RoundTripName);

// ---------------------------------------------------------------- 2. hand-built arrays

// Writes `batches` (each released after its write) with `schema` to `path`, then reads it back.
void WriteAndRead(const std::string& path, const ArrowSchema& schema,
                  std::vector<ArraySpec> batches, OwnedSchema& schema_back,
                  std::vector<OwnedArray>& batches_back, ArrowWriteOptions options = {}) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ArrowFileWriter> writer,
                              ArrowFileWriter::Open(path, schema, std::move(options)));
  for (ArraySpec& spec : batches) {
    OwnedArray batch;
    ExportArray(std::move(spec), &batch.a);
    PQPAGE_ASSERT_OK(writer->WriteBatch(batch.a));
  }
  PQPAGE_ASSERT_OK(writer->Close());
  PQPAGE_ASSERT_OK(ReadFile(path, schema_back, batches_back));
}

using Texts = std::vector<std::string>;

TEST(ArrowWriterArraysTest, Int32WithNullsAtOffsets) {
  OwnedSchema schema;
  ExportBatchSchema({{"i", "n"}}, schema);
  // Physical slots 100 + p, null where p % 3 == 0; the child starts at slot 3 and the batch
  // (offset 1) at the child's slot 1, so rows are physical slots 4 to 9.
  std::vector<std::optional<int32_t>> values;
  values.reserve(12);
  for (int32_t p = 0; p < 12; ++p) {
    values.push_back(p % 3 == 0 ? std::nullopt : std::optional<int32_t>(100 + p));
  }
  ArraySpec column = Primitive<int32_t>(values, 3);
  column.length = 8;
  std::vector<ArraySpec> children;
  children.push_back(std::move(column));
  std::vector<ArraySpec> batches;
  batches.push_back(StructOf(6, {}, std::move(children), 1));
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(TempPath(""), schema.s, std::move(batches), back, rows));
  EXPECT_EQ(std::string(back.s.children[0]->format), "i");
  EXPECT_EQ(RenderColumn(back.s, rows, 0), (Texts{"104", "105", "null", "107", "108", "null"}));
}

TEST(ArrowWriterArraysTest, BoolsWithNullsAtAnOffset) {
  OwnedSchema schema;
  ExportBatchSchema({{"b", "flag"}}, schema);
  std::vector<ArraySpec> children;
  // Offset 5: the logical slots straddle the first byte boundary.
  children.push_back(Bools({true, false, true, false, true,  // before the offset
                            false, true, std::nullopt, true, true, false, std::nullopt, false},
                           5));
  std::vector<ArraySpec> batches;
  batches.push_back(StructOf(8, {}, std::move(children)));
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(TempPath(""), schema.s, std::move(batches), back, rows));
  EXPECT_EQ(RenderColumn(back.s, rows, 0),
            (Texts{"false", "true", "null", "true", "true", "false", "null", "false"}));
}

TEST(ArrowWriterArraysTest, ListOfUtf8AcrossRowGroups) {
  OwnedSchema schema;
  ExportBatchSchema({{"+l", "tags", kNullable, {{"u", "item"}}}}, schema);
  // Elements 0-1 come before the first list; the null list (row 1) spans junk elements 5-6.
  ArraySpec elements =
      Utf8s({"junk0", "junk1", "a", std::nullopt, "ccc", "g1", "g2", std::nullopt, "", "ddd"});
  std::vector<ArraySpec> children;
  children.push_back(
      ListOf({2, 5, 7, 7, 8, 10}, {true, false, true, true, true}, std::move(elements)));
  std::vector<ArraySpec> batches;
  batches.push_back(StructOf(5, {}, std::move(children)));
  ArrowWriteOptions options;
  options.row_group_rows = 2;  // the batch is cut inside: rows 0-1, 2-3, 4
  const std::string path = TempPath("");
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(path, schema.s, std::move(batches), back, rows, options));
  EXPECT_EQ(std::string(back.s.children[0]->format), "+l");
  EXPECT_EQ(RenderColumn(back.s, rows, 0),
            (Texts{R"(["a", null, "ccc"])", "null", "[]", "[null]", R"(["", "ddd"])"}));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
  EXPECT_EQ(file->num_row_groups(), 3);
}

TEST(ArrowWriterArraysTest, StructWithANullRow) {
  OwnedSchema schema;
  ExportBatchSchema({{"+s", "point", kNullable, {{"i", "x", 0}, {"u", "label"}}}}, schema);
  // Under the null row (2) the required x holds a null: it must not be seen.
  std::vector<ArraySpec> fields;
  fields.push_back(Primitive<int32_t>({1, 2, std::nullopt, 4}));
  fields.push_back(Utf8s({"one", std::nullopt, "three", "four"}));
  std::vector<ArraySpec> children;
  children.push_back(StructOf(4, {true, true, false, true}, std::move(fields)));
  std::vector<ArraySpec> batches;
  batches.push_back(StructOf(4, {}, std::move(children)));
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(TempPath(""), schema.s, std::move(batches), back, rows));
  EXPECT_EQ(back.s.children[0]->children[0]->flags, 0);
  EXPECT_EQ(RenderColumn(back.s, rows, 0), (Texts{R"({x: 1, label: "one"})", "{x: 2, label: null}",
                                                  "null", R"({x: 4, label: "four"})"}));
}

TEST(ArrowWriterArraysTest, MapOfUtf8ToInt64) {
  OwnedSchema schema;
  ExportBatchSchema(
      {{"+m", "attrs", kNullable, {{"+s", "entries", 0, {{"u", "key", 0}, {"l", "value"}}}}}},
      schema);
  std::vector<ArraySpec> entry_fields;
  entry_fields.push_back(Utf8s({"a", "b", "c"}));
  entry_fields.push_back(Primitive<int64_t>({1, std::nullopt, int64_t{1} << 40}));
  std::vector<ArraySpec> children;
  children.push_back(
      ListOf({0, 2, 2, 2, 3}, {true, false, true, true}, StructOf(3, {}, std::move(entry_fields))));
  std::vector<ArraySpec> batches;
  batches.push_back(StructOf(4, {}, std::move(children)));
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(TempPath(""), schema.s, std::move(batches), back, rows));
  EXPECT_EQ(std::string(back.s.children[0]->format), "+m");
  EXPECT_EQ(RenderColumn(back.s, rows, 0),
            (Texts{R"({"a": 1, "b": null})", "null", "{}", R"({"c": 1099511627776})"}));
}

// The second batch's dictionary lies at the first one's address, its entries overwritten with
// bytes of the same lengths: the writer must not take it for the dictionary it saw before.
TEST(ArrowWriterArraysTest, DictionaryChangedAtTheSameAddress) {
  OwnedSchema schema;
  ExportBatchSchema({{"c", "word", kNullable, {}, {{"u", ""}}}}, schema);
  ArraySpec indices = Primitive<int8_t>({0, 1, std::nullopt, 2, 0});
  indices.dictionary.push_back(Utf8s({"aa", "bb", "cc"}));
  std::vector<ArraySpec> children;
  children.push_back(std::move(indices));
  OwnedArray batch;
  ExportArray(StructOf(5, {}, std::move(children)), &batch.a);

  const std::string path = TempPath("");
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ArrowFileWriter> writer,
                              ArrowFileWriter::Open(path, schema.s));
  PQPAGE_ASSERT_OK(writer->WriteBatch(batch.a));
  // Overwrite in place: the indices and the dictionary's bytes (the offsets stay).
  ArrowArray& column = *batch.a.children[0];
  auto* index_bytes = static_cast<int8_t*>(const_cast<void*>(column.buffers[1]));
  const int8_t next_indices[] = {2, 2, 0x5A, 1, 0};  // junk under the null
  std::copy(std::begin(next_indices), std::end(next_indices), index_bytes);
  auto* words = static_cast<char*>(const_cast<void*>(column.dictionary->buffers[2]));
  const std::string next_words = "xxyyzz";
  std::copy(next_words.begin(), next_words.end(), words);
  PQPAGE_ASSERT_OK(writer->WriteBatch(batch.a));
  PQPAGE_ASSERT_OK(writer->Close());

  OwnedSchema back;
  std::vector<OwnedArray> rows;
  PQPAGE_ASSERT_OK(ReadFile(path, back, rows));
  // The stored ARROW:schema gives the column back as a dictionary of int8 indices.
  EXPECT_EQ(std::string(back.s.children[0]->format), "c");
  ASSERT_NE(back.s.children[0]->dictionary, nullptr);
  EXPECT_EQ(std::string(back.s.children[0]->dictionary->format), "u");
  EXPECT_EQ(RenderColumn(back.s, rows, 0),
            (Texts{R"("aa")", R"("bb")", "null", R"("cc")", R"("aa")", R"("zz")", R"("zz")", "null",
                   R"("yy")", R"("xx")"}));
}

// One batch of many kinds of field, five rows each; `shift` changes the values.
ArraySpec MixedBatch(int8_t shift) {
  std::vector<ArraySpec> columns;
  ArraySpec indices = Primitive<int8_t>({0, 1, std::nullopt, 2, shift});
  // Entry 2 is null: slot 3 reads as null.
  indices.dictionary.push_back(Utf8s({"aa", shift == 0 ? "bb" : "BB", std::nullopt}));
  columns.push_back(std::move(indices));
  std::vector<ArraySpec> entries;
  entries.push_back(Utf8s({"a", "b", "c"}));
  entries.push_back(Primitive<int64_t>({1, std::nullopt, shift}));
  columns.push_back(ListOf({0, 2, 2, 2, 3, 3}, {true, false, true, true, true},
                           StructOf(3, {}, std::move(entries))));
  std::vector<ArraySpec> fields;
  fields.push_back(Primitive<int32_t>({1, 2, std::nullopt, 4, shift}));
  fields.push_back(Utf8s({"one", std::nullopt, "three", "four", ""}));
  columns.push_back(StructOf(5, {true, true, false, true, true}, std::move(fields)));
  columns.push_back(
      ListOf({2, 5, 7, 7, 8, 10}, {true, false, true, true, true},
             Utf8s({"j", "j", "a", std::nullopt, "ccc", "g", "g", std::nullopt, "", "ddd"})));
  columns.push_back(Bools({true, std::nullopt, false, shift != 0, true}));
  ArraySpec large;
  large.length = 5;
  const std::string bytes = "abbccc";
  large.buffers = {std::nullopt, BytesOf<int64_t>({0, 1, 3, 3, 6, 6}),
                   std::vector<uint8_t>(bytes.begin(), bytes.end())};
  columns.push_back(std::move(large));
  columns.push_back(Primitive<int64_t>({-1, 0, 1'700'000'000'000'000, std::nullopt, shift}));
  // decimal128: little-endian, the high half the sign's extension.
  ArraySpec decimal = Primitive<int64_t>({12345, 0, -1, 0, 99, -1, std::nullopt, 0, shift, 0});
  decimal.length = 5;
  decimal.null_count = 0;
  decimal.buffers[0] = std::nullopt;
  columns.push_back(std::move(decimal));
  return StructOf(5, {}, std::move(columns));
}

std::vector<SchemaSpec> MixedFields() {
  return {{"c", "word", kNullable, {}, {{"u", ""}}},
          {"+m", "attrs", kNullable, {{"+s", "entries", 0, {{"u", "key", 0}, {"l", "value"}}}}},
          {"+s", "point", kNullable, {{"i", "x", 0}, {"u", "label"}}},
          {"+l", "tags", kNullable, {{"u", "item"}}},
          {"b", "flag"},
          {"U", "large"},
          {"tsu:Europe/Paris", "when"},
          // decimal128 with its default width spelt out, as DuckDB exports it; it reads back
          // (from the stored ARROW:schema) as "d:20,2".
          {"d:20,2,128", "amount", 0}};
}

// The mixed batches written by hand, then the file read, written and read again: dictionaries
// (one with a null entry, changing between batches), maps and large types go through the
// comparison as well.
TEST(ArrowWriterArraysTest, MixedFileRoundTrips) {
  OwnedSchema schema;
  ExportBatchSchema(MixedFields(), schema);
  const std::string path = TempPath("");
  std::vector<ArraySpec> batches;
  batches.push_back(MixedBatch(0));
  batches.push_back(MixedBatch(1));
  OwnedSchema back;
  std::vector<OwnedArray> rows;
  ASSERT_NO_FATAL_FAILURE(WriteAndRead(path, schema.s, std::move(batches), back, rows));
  EXPECT_EQ(RenderColumn(back.s, rows, 0),
            (Texts{R"("aa")", R"("bb")", "null", "null", R"("aa")", R"("aa")", R"("BB")", "null",
                   "null", R"("BB")"}));
  EXPECT_EQ(RenderColumn(back.s, rows, 5),
            (Texts{R"("a")", R"("bb")", R"("")", R"("ccc")", R"("")", R"("a")", R"("bb")", R"("")",
                   R"("ccc")", R"("")"}));
  EXPECT_EQ(std::string(back.s.children[5]->format), "U");
  EXPECT_EQ(std::string(back.s.children[6]->format), "tsu:Europe/Paris");
  EXPECT_EQ(std::string(back.s.children[7]->format), "d:20,2");
  for (const bool small_groups : {false, true}) {
    SCOPED_TRACE(small_groups);
    ExpectRoundTrip(path, TempPath(small_groups ? "_again_small" : "_again"), small_groups);
  }
}

// ---------------------------------------------------------------- 3. the Parquet schema

TEST(ParquetSchemaForArrowTest, DocumentedTypes) {
  OwnedSchema schema;
  ExportBatchSchema(
      {{"I", "u32"},
       {"d:20,2", "dec"},
       {"tsu:UTC", "ts"},
       {"ttm", "t32"},
       {"+l", "l", kNullable, {{"i", "item"}}},
       {"+m", "m", kNullable, {{"+s", "entries", 0, {{"u", "key", 0}, {"l", "value"}}}}}},
      schema);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const Schema parquet, ParquetSchemaForArrow(schema.s));
  const std::vector<ColumnDescriptor>& columns = parquet.columns();
  ASSERT_EQ(columns.size(), 7u);
  struct Want {
    std::string path;
    PhysicalType type;
    int type_length;
    std::string logical;
    int16_t definition;
    int16_t repetition;
  };
  const Want wants[] = {
      {"u32", PhysicalType::kInt32, 0, "INTEGER(32,unsigned)", 1, 0},
      {"dec", PhysicalType::kFixedLenByteArray, 9, "DECIMAL(20,2)", 1, 0},
      {"ts", PhysicalType::kInt64, 0, "TIMESTAMP(MICROS,UTC)", 1, 0},
      {"t32", PhysicalType::kInt32, 0, "TIME(MILLIS,local)", 1, 0},
      // Nullable list (1), repeated group (2), nullable element (3).
      {"l.list.element", PhysicalType::kInt32, 0, "", 3, 1},
      // The key is required: one level below the nullable value.
      {"m.key_value.key", PhysicalType::kByteArray, 0, "STRING", 2, 1},
      {"m.key_value.value", PhysicalType::kInt64, 0, "", 3, 1},
  };
  for (size_t c = 0; c < columns.size(); ++c) {
    SCOPED_TRACE(wants[c].path);
    EXPECT_EQ(columns[c].PathString(), wants[c].path);
    EXPECT_EQ(columns[c].type, wants[c].type);
    if (wants[c].type_length > 0) EXPECT_EQ(columns[c].type_length, wants[c].type_length);
    EXPECT_EQ(columns[c].logical_type.ToString(), wants[c].logical);
    EXPECT_EQ(columns[c].max_definition_level, wants[c].definition);
    EXPECT_EQ(columns[c].max_repetition_level, wants[c].repetition);
  }
}

// ---------------------------------------------------------------- 4. the stored Arrow schema

TEST(ArrowWriterStoredSchemaTest, StoredUnlessTurnedOff) {
  OwnedSchema schema;
  ExportBatchSchema({{"tss:Europe/Paris", "when"}, {"c", "word", kNullable, {}, {{"u", ""}}}},
                    schema);
  for (const bool store : {true, false}) {
    SCOPED_TRACE(store);
    const std::string path = TempPath(store ? "_stored" : "_bare");
    ArrowWriteOptions options;
    options.store_arrow_schema = store;
    {
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ArrowFileWriter> writer,
                                  ArrowFileWriter::Open(path, schema.s, options));
      ArraySpec indices = Primitive<int8_t>({1, 0});
      indices.dictionary.push_back(Utf8s({"aa", "bb"}));
      std::vector<ArraySpec> children;
      children.push_back(Primitive<int64_t>({1'700'000'000, std::nullopt}));
      children.push_back(std::move(indices));
      OwnedArray batch;
      ExportArray(StructOf(2, {}, std::move(children)), &batch.a);
      PQPAGE_ASSERT_OK(writer->WriteBatch(batch.a));
      PQPAGE_ASSERT_OK(writer->Close());
    }
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
    const std::vector<KeyValue>& metadata = file->key_value_metadata();
    const bool has_key = std::any_of(metadata.begin(), metadata.end(),
                                     [](const KeyValue& kv) { return kv.key == kArrowSchemaKey; });
    EXPECT_EQ(has_key, store);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const std::optional<std::vector<StoredArrowField>> stored,
                                ParseStoredArrowSchema(metadata));
    if (!store) {
      EXPECT_FALSE(stored.has_value());
      continue;
    }
    ASSERT_TRUE(stored.has_value());
    ASSERT_EQ(stored->size(), 2u);
    EXPECT_EQ((*stored)[0].name, "when");
    EXPECT_EQ((*stored)[0].format, "tss:Europe/Paris");
    EXPECT_TRUE((*stored)[0].nullable);
    EXPECT_EQ((*stored)[0].dictionary_index, "");
    EXPECT_EQ((*stored)[1].name, "word");
    EXPECT_EQ((*stored)[1].format, "u");
    EXPECT_EQ((*stored)[1].dictionary_index, "c");
    // The reader takes the dictionary type back from the stored schema.
    OwnedSchema back;
    std::vector<OwnedArray> rows;
    PQPAGE_ASSERT_OK(ReadFile(path, back, rows));
    const std::vector<std::string> words = RenderColumn(back.s, rows, 1);
    EXPECT_EQ(words, (Texts{R"("bb")", R"("aa")"}));
  }
}

}  // namespace
}  // namespace pqpage
