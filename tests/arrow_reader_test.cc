// The Arrow reader's C Data Interface contract (pqpage/arrow_reader.h), checked with no Arrow
// library: small files written by pqpage's own writer are read through OpenArrowStream, and the
// ArrowSchema and ArrowArray structures are walked by hand (formats, names, flags, children;
// lengths, null counts, validity bits, offsets and values, 64-byte aligned buffers), with the
// stream's rules for release, end of stream, errors, column selection, batch sizes and rows.
// tests/interop/arrow_read_test.py compares whole files with pyarrow; this test pins the
// structures themselves, and runs under the sanitizers.
#include "pqpage/arrow_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "arrow_c_data_checks.h"
#include "arrow_reader_files.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using namespace arrow_test;  // the checks of the C structures and the files

struct Field {
  std::string format;
  std::string name;
  int64_t flags;
  std::vector<Field> children;
};

void ExpectSchema(const ArrowSchema& schema, const Field& want, const std::string& where) {
  SCOPED_TRACE(where);
  ASSERT_NE(schema.release, nullptr);
  ASSERT_NE(schema.format, nullptr);
  EXPECT_EQ(std::string(schema.format), want.format);
  ASSERT_NE(schema.name, nullptr);
  EXPECT_EQ(std::string(schema.name), want.name);
  EXPECT_EQ(schema.flags, want.flags);
  EXPECT_EQ(schema.dictionary, nullptr);
  ASSERT_EQ(schema.n_children, static_cast<int64_t>(want.children.size()));
  for (int64_t c = 0; c < schema.n_children; ++c) {
    ASSERT_NE(schema.children[c], nullptr);
    ASSERT_NE(schema.children[c]->release, nullptr);
    ExpectSchema(*schema.children[c], want.children[static_cast<size_t>(c)],
                 absl::StrCat(where, ".", want.children[static_cast<size_t>(c)].name));
  }
}

// The name of a map's entries struct: the Parquet key_value group's. (pyarrow 26 names it after
// the MAP group itself, "attrs" here; Arrow's map type equality ignores the name.)
constexpr char kMapEntriesName[] = "key_value";

// The top-level fields of the nested file.
std::vector<Field> NestedFields() {
  constexpr int64_t kNullable = ARROW_FLAG_NULLABLE;
  return {
      {"i", "id", kNullable, {}},
      {"u", "name", kNullable, {}},
      {"+l", "tags", kNullable, {{"l", "element", kNullable, {}}}},
      {"+s", "point", kNullable, {{"i", "x", 0, {}}, {"g", "y", kNullable, {}}}},
      // Arrow's map: one non-nullable struct child, its keys required.
      {"+m",
       "attrs",
       kNullable,
       {{"+s", kMapEntriesName, 0, {{"u", "key", 0, {}}, {"i", "value", kNullable, {}}}}}},
  };
}

// The top-level children of a record batch, checked: the batch is a struct without nulls.
void ExpectBatch(const ArrowSchema& schema, const ArrowArray& batch, int64_t rows) {
  CheckArrayShape(schema, batch, "batch");
  EXPECT_EQ(batch.length, rows);
  EXPECT_EQ(batch.null_count, 0);
  for (int64_t c = 0; c < batch.n_children; ++c) {
    EXPECT_EQ(batch.children[c]->length, rows) << "column " << c;
  }
}

class ArrowReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nested_path_ = testing::TestTempPath("arrow_reader_nested.parquet");
    flat_path_ = testing::TestTempPath("arrow_reader_flat.parquet");
    const absl::Status nested = WriteNestedFile(nested_path_);
    ASSERT_TRUE(nested.ok()) << nested;
    const absl::Status flat = WriteFlatFile(flat_path_);
    ASSERT_TRUE(flat.ok()) << flat;
  }

  // Opens a stream on `path` under `options`; a failure is a test failure.
  void Open(const std::string& path, const ArrowReadOptions& options, OwnedStream& stream) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
    const absl::Status status = OpenArrowStream(std::move(file), options, &stream.s);
    ASSERT_TRUE(status.ok()) << status;
    ASSERT_NE(stream.s.release, nullptr);
  }

  // Every batch of `path` under `options`, each checked against the schema, and their
  // sizes.
  void ReadFile(const std::string& path, const ArrowReadOptions& options, OwnedStream& stream,
                OwnedSchema& schema, std::vector<OwnedArray>& batches,
                std::vector<int64_t>& sizes) {
    ASSERT_NO_FATAL_FAILURE(Open(path, options, stream));
    ASSERT_EQ(stream.s.get_schema(&stream.s, &schema.s), 0);
    batches = ReadAll(stream.s);
    for (const OwnedArray& batch : batches) {
      ExpectBatch(schema.s, batch.a, batch.a.length);
      sizes.push_back(batch.a.length);
    }
  }

  // The seq values of the flat file's batches, in order.
  static std::vector<int64_t> SeqValues(const std::vector<OwnedArray>& batches) {
    std::vector<int64_t> out;
    for (const OwnedArray& batch : batches) {
      for (int64_t i = 0; i < batch.a.length; ++i) {
        out.push_back(ValueAt<int64_t>(*batch.a.children[0], 1, i));
      }
    }
    return out;
  }

  std::string nested_path_;
  std::string flat_path_;
};

// ---------------------------------------------------------------- the tests

TEST_F(ArrowReaderTest, SchemaMapsEveryKindOfField) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(nested_path_));
  OwnedSchema exported;
  const absl::Status status = ExportArrowSchema(*file, {}, &exported.s);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_NE(exported.s.format, nullptr);
  EXPECT_EQ(std::string(exported.s.format), "+s");
  ASSERT_EQ(exported.s.n_children, 5);
  const std::vector<Field> fields = NestedFields();
  for (size_t c = 0; c < fields.size(); ++c) {
    ExpectSchema(*exported.s.children[c], fields[c], fields[c].name);
  }

  // The stream's schema is the same.
  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(nested_path_, {}, stream));
  OwnedSchema streamed;
  ASSERT_EQ(stream.s.get_schema(&stream.s, &streamed.s), 0) << stream.s.get_last_error(&stream.s);
  ASSERT_EQ(streamed.s.n_children, 5);
  EXPECT_EQ(std::string(streamed.s.format), "+s");
  for (size_t c = 0; c < fields.size(); ++c) {
    ExpectSchema(*streamed.s.children[c], fields[c], fields[c].name);
  }
  // Release clears release, and the schema may be released before the stream.
  streamed.s.release(&streamed.s);
  EXPECT_EQ(streamed.s.release, nullptr);
}

// Read on one thread and on three (columns side by side): the same batch.
class ArrowReaderThreadsTest : public ArrowReaderTest, public ::testing::WithParamInterface<int> {};

INSTANTIATE_TEST_SUITE_P(Threads, ArrowReaderThreadsTest, ::testing::Values(1, 3));

TEST_P(ArrowReaderThreadsTest, NestedValues) {
  ArrowReadOptions options;
  options.threads = GetParam();
  OwnedStream stream;
  OwnedSchema schema;
  std::vector<OwnedArray> batches;
  std::vector<int64_t> sizes;
  ASSERT_NO_FATAL_FAILURE(ReadFile(nested_path_, options, stream, schema, batches, sizes));
  ASSERT_EQ(sizes, std::vector<int64_t>{kNestedRows});
  const ArrowArray& batch = batches[0].a;
  ASSERT_EQ(batch.n_children, 5);

  // id: 10 x row, null at rows 0 and 3.
  const ArrowArray& id = *batch.children[0];
  EXPECT_EQ(id.null_count, 2);
  const std::optional<int32_t> ids[] = {std::nullopt, 10, 20, std::nullopt, 40, 50};
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(id, r), ids[r].has_value()) << r;
    if (ids[r]) EXPECT_EQ(ValueAt<int32_t>(id, 1, r), *ids[r]) << r;
  }

  // name: null at row 1, an empty string at row 2.
  const ArrowArray& name = *batch.children[1];
  EXPECT_EQ(name.null_count, 1);
  const std::optional<std::string> names[] = {"alpha", std::nullopt, "", "delta", "e", "zeta-zeta"};
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(name, r), names[r].has_value()) << r;
    if (names[r]) EXPECT_EQ(Utf8At(name, r), *names[r]) << r;
  }

  // tags: [1, 2], null, [], [null, 3], [4], [5, 6, 7].
  const ArrowArray& tags = *batch.children[2];
  EXPECT_EQ(tags.null_count, 1);
  const ArrowArray& element = *tags.children[0];
  const std::vector<std::vector<std::optional<int64_t>>> lists = {
      {1, 2}, {}, {}, {std::nullopt, 3}, {4}, {5, 6, 7}};
  int64_t null_elements = 0;
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(tags, r), r != 1) << r;
    if (r == 1) continue;
    const auto [begin, end] = ListRange(tags, r);
    const std::vector<std::optional<int64_t>>& want = lists[static_cast<size_t>(r)];
    ASSERT_EQ(end - begin, static_cast<int64_t>(want.size())) << r;
    for (size_t e = 0; e < want.size(); ++e) {
      const int64_t at = begin + static_cast<int64_t>(e);
      EXPECT_EQ(IsValid(element, at), want[e].has_value()) << r << "/" << e;
      if (want[e]) EXPECT_EQ(ValueAt<int64_t>(element, 1, at), *want[e]) << r << "/" << e;
      null_elements += want[e] ? 0 : 1;
    }
  }
  // Null lists hold no elements, so the child's nulls are the null elements alone.
  EXPECT_EQ(element.null_count, null_elements);

  // point: {1, 0.5}, {2, null}, null, {4, -0.0}, {5, 1e300}, null. What lies under a null point
  // is not looked at.
  const ArrowArray& point = *batch.children[3];
  EXPECT_EQ(point.null_count, 2);
  const ArrowArray& x = *point.children[0];
  const ArrowArray& y = *point.children[1];
  const bool point_valid[] = {true, true, false, true, true, false};
  const int32_t xs[] = {1, 2, 0, 4, 5, 0};
  const std::optional<double> ys[] = {0.5, std::nullopt, 0, -0.0, 1e300, 0};
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(point, r), point_valid[r]) << r;
    if (!point_valid[r]) continue;
    EXPECT_TRUE(IsValid(x, r)) << r;
    EXPECT_EQ(ValueAt<int32_t>(x, 1, r), xs[r]) << r;
    EXPECT_EQ(IsValid(y, r), ys[r].has_value()) << r;
    if (ys[r]) {
      // Bit for bit: -0.0 must stay negative.
      const double got = ValueAt<double>(y, 1, r);
      EXPECT_EQ(std::bit_cast<uint64_t>(got), std::bit_cast<uint64_t>(*ys[r])) << r << ": " << got;
    }
  }

  // attrs: {a: 1}, {}, null, {b: null, c: 3}, null, {d: 4}.
  const ArrowArray& attrs = *batch.children[4];
  EXPECT_EQ(attrs.null_count, 2);
  const ArrowArray& entries = *attrs.children[0];
  EXPECT_EQ(entries.null_count, 0);
  ASSERT_EQ(entries.n_children, 2);
  const ArrowArray& key = *entries.children[0];
  const ArrowArray& value = *entries.children[1];
  EXPECT_EQ(key.null_count, 0);
  const std::vector<std::vector<std::pair<std::string, std::optional<int32_t>>>> maps = {
      {{"a", 1}}, {}, {}, {{"b", std::nullopt}, {"c", 3}}, {}, {{"d", 4}}};
  const bool map_valid[] = {true, true, false, true, false, true};
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(attrs, r), map_valid[r]) << r;
    if (!map_valid[r]) continue;
    const auto [begin, end] = ListRange(attrs, r);
    const auto& want = maps[static_cast<size_t>(r)];
    ASSERT_EQ(end - begin, static_cast<int64_t>(want.size())) << r;
    for (size_t e = 0; e < want.size(); ++e) {
      const int64_t at = begin + static_cast<int64_t>(e);
      EXPECT_TRUE(IsValid(entries, at));
      EXPECT_EQ(Utf8At(key, at), want[e].first) << r << "/" << e;
      EXPECT_EQ(IsValid(value, at), want[e].second.has_value()) << r << "/" << e;
      if (want[e].second) EXPECT_EQ(ValueAt<int32_t>(value, 1, at), *want[e].second);
    }
  }
}

TEST_F(ArrowReaderTest, ArraysOutliveTheStreamAndTheFile) {
  std::vector<OwnedArray> batches;
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(flat_path_));
    std::weak_ptr<const FileReader> watch = file;
    ArrowReadOptions options;
    options.batch_rows = 4;
    ArrowArrayStream stream{};
    const absl::Status status = OpenArrowStream(std::move(file), options, &stream);
    ASSERT_TRUE(status.ok()) << status;
    // The stream keeps the file alive on its own.
    EXPECT_FALSE(watch.expired());
    batches = ReadAll(stream);
    stream.release(&stream);
    EXPECT_EQ(stream.release, nullptr);
    // Nothing holds the file any more: the arrays must not need it.
    EXPECT_TRUE(watch.expired());
  }
  std::vector<int64_t> want;
  for (int64_t row = 0; row < kFlatGroupRows[0] + kFlatGroupRows[1]; ++row) want.push_back(row);
  EXPECT_EQ(SeqValues(batches), want);
  // Each release clears its callback, the children's included through the parent's.
  for (OwnedArray& batch : batches) {
    batch.a.release(&batch.a);
    EXPECT_EQ(batch.a.release, nullptr);
  }
}

TEST_F(ArrowReaderTest, EndOfStreamStaysEnded) {
  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(flat_path_, {}, stream));
  std::vector<OwnedArray> batches = ReadAll(stream.s);
  EXPECT_EQ(batches.size(), 2u);  // one per row group
  for (int call = 0; call < 3; ++call) {
    ArrowArray out{};
    out.release = NeverReleased;  // get_next must overwrite it with NULL
    EXPECT_EQ(stream.s.get_next(&stream.s, &out), 0);
    EXPECT_EQ(out.release, nullptr) << "call " << call;
  }
}

TEST_F(ArrowReaderTest, DamagedPageIsAnErrorNamingTheFile) {
  const std::string damaged = testing::TestTempPath("arrow_reader_damaged.parquet");
  int64_t at = 0;
  {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(flat_path_));
    // The last bytes of the second row group's seq chunk: its last data page's payload, under a
    // CRC.
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation location, file->LocateColumnChunk(1, 0));
    at = location.offset + location.length - 3;
  }
  std::ifstream in(flat_path_, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_LT(at, static_cast<int64_t>(bytes.size()));
  bytes[static_cast<size_t>(at)] ^= 0x5a;
  bytes[static_cast<size_t>(at) + 1] ^= 0xa5;
  std::ofstream(damaged, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));

  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(damaged, {}, stream));
  int status = 0;
  for (int i = 0; i < 10; ++i) {
    OwnedArray batch;
    status = stream.s.get_next(&stream.s, &batch.a);
    if (status != 0 || batch.a.release == nullptr) break;
  }
  EXPECT_EQ(status, EIO) << "damaged data reads as EIO";
  const char* error = stream.s.get_last_error(&stream.s);
  ASSERT_NE(error, nullptr);
  EXPECT_NE(std::string(error).find(damaged), std::string::npos) << error;
}

TEST_F(ArrowReaderTest, BadOptionsAreInvalidArgument) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(nested_path_));
  for (const std::vector<std::string>& columns :
       std::vector<std::vector<std::string>>{{"nope"}, {"point.z"}, {"id", "tags.nope"}}) {
    ArrowReadOptions options;
    options.columns = columns;
    ArrowArrayStream stream{};
    const absl::Status status = OpenArrowStream(file, options, &stream);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument)
        << columns.back() << ": " << status;
    EXPECT_EQ(stream.release, nullptr);
    OwnedSchema schema;
    const absl::Status schema_status = ExportArrowSchema(*file, options, &schema.s);
    EXPECT_EQ(schema_status.code(), absl::StatusCode::kInvalidArgument) << schema_status;
  }
  ArrowReadOptions no_rows;
  no_rows.batch_rows = 0;
  ArrowReadOptions no_threads;
  no_threads.threads = 0;
  ArrowReadOptions negative_bytes;
  negative_bytes.batch_bytes = -1;
  for (const ArrowReadOptions& options : {no_rows, no_threads, negative_bytes}) {
    ArrowArrayStream stream{};
    const absl::Status status = OpenArrowStream(file, options, &stream);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
    EXPECT_EQ(stream.release, nullptr);
  }
}

TEST_F(ArrowReaderTest, ReadDictionaryGivesIndicesIntoEachBatchsDistinctValues) {
  ArrowReadOptions options;
  options.read_dictionary = {"name"};
  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(nested_path_, options, stream));
  OwnedSchema schema;
  ASSERT_EQ(stream.s.get_schema(&stream.s, &schema.s), 0);
  const ArrowSchema& name_type = *schema.s.children[1];
  EXPECT_EQ(std::string(name_type.format), "i");
  ASSERT_NE(name_type.dictionary, nullptr);
  EXPECT_EQ(std::string(name_type.dictionary->format), "u");
  std::vector<OwnedArray> batches = ReadAll(stream.s);
  ASSERT_EQ(batches.size(), 1u);
  const ArrowArray& name = *batches[0].a.children[1];
  ASSERT_EQ(name.length, kNestedRows);
  EXPECT_EQ(name.null_count, 1);
  ASSERT_EQ(name.n_buffers, 2);
  EXPECT_TRUE(Aligned(name.buffers[1]));
  ASSERT_NE(name.dictionary, nullptr);
  const ArrowArray& values = *name.dictionary;
  ASSERT_NE(values.release, nullptr);
  // "alpha", null, "", "delta", "e", "zeta-zeta": five distinct values, in order.
  ASSERT_EQ(values.length, 5);
  EXPECT_EQ(values.null_count, 0);
  const std::string words[] = {"alpha", "", "delta", "e", "zeta-zeta"};
  for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(Utf8At(values, i), words[i]) << i;
  const int32_t indices[] = {0, 0, 1, 2, 3, 4};
  for (int64_t r = 0; r < kNestedRows; ++r) {
    EXPECT_EQ(IsValid(name, r), r != 1) << r;
    if (r != 1) EXPECT_EQ(ValueAt<int32_t>(name, 1, r), indices[r]) << r;
  }
  // The dictionary may be moved out and outlive its array (the interface's ownership rules).
  ArrowArray moved = *name.dictionary;
  name.dictionary->release = nullptr;
  batches.clear();
  EXPECT_EQ(Utf8At(moved, 4), "zeta-zeta");
  moved.release(&moved);

  // Only byte array columns read as dictionaries, and only selected ones.
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(nested_path_));
  for (const std::string& path : {std::string("id"), std::string("nope")}) {
    ArrowReadOptions bad;
    bad.read_dictionary = {path};
    ArrowArrayStream refused{};
    const absl::Status status = OpenArrowStream(file, bad, &refused);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << path << ": " << status;
    EXPECT_EQ(refused.release, nullptr);
  }
}

// Walks two schemas side by side: `all` (read_dictionary_all) must hold a dictionary of the same
// type exactly where `plain` holds a string or binary, and the same type everywhere else.
void ExpectDictionariesForByteArrays(const ArrowSchema& plain, const ArrowSchema& all,
                                     int* dictionaries) {
  const std::string format = plain.format;
  if (format == "u" || format == "z") {
    EXPECT_EQ(std::string(all.format), "i") << plain.name;
    ASSERT_NE(all.dictionary, nullptr) << plain.name;
    EXPECT_EQ(std::string(all.dictionary->format), format) << plain.name;
    ++*dictionaries;
    return;
  }
  EXPECT_EQ(std::string(all.format), format) << plain.name;
  EXPECT_EQ(all.dictionary, nullptr) << plain.name;
  ASSERT_EQ(all.n_children, plain.n_children) << plain.name;
  for (int64_t i = 0; i < plain.n_children; ++i) {
    ExpectDictionariesForByteArrays(*plain.children[i], *all.children[i], dictionaries);
  }
}

TEST_F(ArrowReaderTest, ReadDictionaryAllMakesEveryByteArrayLeafADictionary) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(nested_path_));
  OwnedSchema plain;
  ASSERT_TRUE(ExportArrowSchema(*file, ArrowReadOptions{}, &plain.s).ok());
  ArrowReadOptions options;
  options.read_dictionary_all = true;
  OwnedSchema all;
  ASSERT_TRUE(ExportArrowSchema(*file, options, &all.s).ok());
  int dictionaries = 0;
  ExpectDictionariesForByteArrays(plain.s, all.s, &dictionaries);
  EXPECT_GE(dictionaries, 1);
  // The batches carry the dictionaries too, with the values the plain read gives.
  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(nested_path_, options, stream));
  std::vector<OwnedArray> batches = ReadAll(stream.s);
  ASSERT_EQ(batches.size(), 1u);
  const ArrowArray& name = *batches[0].a.children[1];
  ASSERT_NE(name.dictionary, nullptr);
  EXPECT_EQ(Utf8At(*name.dictionary, ValueAt<int32_t>(name, 1, 3)), "delta");
}

TEST_F(ArrowReaderTest, ColumnsSelectFieldsInFileOrder) {
  ArrowReadOptions options;
  // Asked out of order, and a leaf of a struct: the struct keeps only it.
  options.columns = {"point.y", "tags", "id"};
  OwnedStream stream;
  ASSERT_NO_FATAL_FAILURE(Open(nested_path_, options, stream));
  OwnedSchema schema;
  ASSERT_EQ(stream.s.get_schema(&stream.s, &schema.s), 0);
  ASSERT_EQ(schema.s.n_children, 3);
  constexpr int64_t kNullable = ARROW_FLAG_NULLABLE;
  ExpectSchema(*schema.s.children[0], {"i", "id", kNullable, {}}, "id");
  ExpectSchema(*schema.s.children[1], {"+l", "tags", kNullable, {{"l", "element", kNullable, {}}}},
               "tags");
  ExpectSchema(*schema.s.children[2], {"+s", "point", kNullable, {{"g", "y", kNullable, {}}}},
               "point");
  std::vector<OwnedArray> batches = ReadAll(stream.s);
  ASSERT_EQ(batches.size(), 1u);
  ExpectBatch(schema.s, batches[0].a, kNestedRows);
  const ArrowArray& point = *batches[0].a.children[2];
  EXPECT_EQ(point.null_count, 2);
  ASSERT_EQ(point.n_children, 1);
  EXPECT_TRUE(IsValid(point, 0));
  EXPECT_EQ(ValueAt<double>(*point.children[0], 1, 0), 0.5);

  // A group's path selects every leaf under it: the whole map.
  ArrowReadOptions group;
  group.columns = {"attrs"};
  OwnedStream map_stream;
  ASSERT_NO_FATAL_FAILURE(Open(nested_path_, group, map_stream));
  OwnedSchema map_schema;
  ASSERT_EQ(map_stream.s.get_schema(&map_stream.s, &map_schema.s), 0);
  ASSERT_EQ(map_schema.s.n_children, 1);
  ExpectSchema(*map_schema.s.children[0], NestedFields()[4], "attrs");
}

TEST_F(ArrowReaderTest, BatchRowsSplitsWithinRowGroups) {
  ArrowReadOptions options;
  options.batch_rows = 4;
  OwnedStream stream;
  OwnedSchema schema;
  std::vector<OwnedArray> batches;
  std::vector<int64_t> sizes;
  ASSERT_NO_FATAL_FAILURE(ReadFile(flat_path_, options, stream, schema, batches, sizes));
  // Groups of 10 and 5 rows: 4 + 4 + 2, then 4 + 1; no batch crosses the groups' border.
  EXPECT_EQ(sizes, (std::vector<int64_t>{4, 4, 2, 4, 1}));
  std::vector<int64_t> want;
  for (int64_t row = 0; row < 15; ++row) want.push_back(row);
  EXPECT_EQ(SeqValues(batches), want);
  // id: null every fourth row of the file, else the row's number.
  int64_t row = 0;
  for (const OwnedArray& batch : batches) {
    const ArrowArray& id = *batch.a.children[1];
    int64_t nulls = 0;
    for (int64_t i = 0; i < batch.a.length; ++i, ++row) {
      EXPECT_EQ(IsValid(id, i), row % 4 != 0) << row;
      if (row % 4 != 0) EXPECT_EQ(ValueAt<int32_t>(id, 1, i), row);
      nulls += row % 4 == 0 ? 1 : 0;
    }
    EXPECT_EQ(id.null_count, nulls);
    // seq is REQUIRED: not nullable, no nulls.
    EXPECT_EQ(batch.a.children[0]->null_count, 0);
    EXPECT_EQ(schema.s.children[0]->flags, 0);
  }
}

TEST_F(ArrowReaderTest, RowsSelectRowsAcrossRowGroups) {
  ArrowReadOptions options;
  options.rows = RowRange{3, 12};
  OwnedStream stream;
  OwnedSchema schema;
  std::vector<OwnedArray> batches;
  std::vector<int64_t> sizes;
  ASSERT_NO_FATAL_FAILURE(ReadFile(flat_path_, options, stream, schema, batches, sizes));
  std::erase(sizes, 0);
  // Rows 3 to 9 of the first group, 10 and 11 of the second.
  EXPECT_EQ(sizes, (std::vector<int64_t>{7, 2}));
  EXPECT_EQ(SeqValues(batches), (std::vector<int64_t>{3, 4, 5, 6, 7, 8, 9, 10, 11}));
  int64_t row = 3;
  for (const OwnedArray& batch : batches) {
    const ArrowArray& id = *batch.a.children[1];
    for (int64_t i = 0; i < batch.a.length; ++i, ++row) {
      EXPECT_EQ(IsValid(id, i), row % 4 != 0) << row;
      if (row % 4 != 0) EXPECT_EQ(ValueAt<int32_t>(id, 1, i), row);
    }
  }

  // Rows of the nested file: 2 to 5 of one group, lists and maps starting mid-chunk.
  ArrowReadOptions nested;
  nested.rows = RowRange{2, 5};
  OwnedStream nested_stream;
  OwnedSchema nested_schema;
  std::vector<OwnedArray> nested_batches;
  std::vector<int64_t> nested_sizes;
  ASSERT_NO_FATAL_FAILURE(
      ReadFile(nested_path_, nested, nested_stream, nested_schema, nested_batches, nested_sizes));
  ASSERT_EQ(nested_sizes, std::vector<int64_t>{3});
  const ArrowArray& batch = nested_batches[0].a;
  // tags of rows 2, 3, 4: [], [null, 3], [4].
  const ArrowArray& tags = *batch.children[2];
  EXPECT_EQ(ListRange(tags, 0).second - ListRange(tags, 0).first, 0);
  const auto [begin, end] = ListRange(tags, 1);
  ASSERT_EQ(end - begin, 2);
  EXPECT_FALSE(IsValid(*tags.children[0], begin));
  EXPECT_EQ(ValueAt<int64_t>(*tags.children[0], 1, begin + 1), 3);
  EXPECT_EQ(ValueAt<int64_t>(*tags.children[0], 1, ListRange(tags, 2).first), 4);
  // attrs of rows 2, 3, 4: null, {b: null, c: 3}, null.
  const ArrowArray& attrs = *batch.children[4];
  EXPECT_EQ(attrs.null_count, 2);
  EXPECT_TRUE(IsValid(attrs, 1));
  const ArrowArray& key = *attrs.children[0]->children[0];
  EXPECT_EQ(Utf8At(key, ListRange(attrs, 1).first), "b");
}

}  // namespace
}  // namespace pqpage
