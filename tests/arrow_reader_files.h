// The two small files the Arrow reader's tests read, written by pqpage's own writer: one row group
// of every kind of nested field with nulls at each level, and a flat file of two row groups.
#ifndef PQPAGE_TESTS_ARROW_READER_FILES_H_
#define PQPAGE_TESTS_ARROW_READER_FILES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "pqpage/status_macros.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage::arrow_test {

// One row group of six rows, each field with nulls where its type allows them:
//   id     optional INT32                 10 x row, null every third row (0, 3)
//   name   optional STRING                "alpha", null, "", "delta", "e", "zeta-zeta"
//   tags   optional LIST of optional INT64
//          [1, 2], null, [], [null, 3], [4], [5, 6, 7]
//   point  optional group {x: required INT32, y: optional DOUBLE}
//          {1, 0.5}, {2, null}, null, {4, -0.0}, {5, 1e300}, null
//   attrs  optional MAP (key_value: key required STRING, value optional INT32)
//          {a: 1}, {}, null, {b: null, c: 3}, null, {d: 4}
inline constexpr int64_t kNestedRows = 6;

inline absl::StatusOr<Schema> NestedSchema() {
  return Schema::Builder()
      .AddPrimitive("id", Repetition::kOptional, PhysicalType::kInt32)
      .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .BeginGroup("tags", Repetition::kOptional, "LIST")
      .BeginGroup("list", Repetition::kRepeated)
      .AddPrimitive("element", Repetition::kOptional, PhysicalType::kInt64)
      .EndGroup()
      .EndGroup()
      .BeginGroup("point", Repetition::kOptional)
      .AddPrimitive("x", Repetition::kRequired, PhysicalType::kInt32)
      .AddPrimitive("y", Repetition::kOptional, PhysicalType::kDouble)
      .EndGroup()
      .BeginGroup("attrs", Repetition::kOptional, "MAP")
      .BeginGroup("key_value", Repetition::kRepeated)
      .AddPrimitive("key", Repetition::kRequired, PhysicalType::kByteArray, 0, "STRING")
      .AddPrimitive("value", Repetition::kOptional, PhysicalType::kInt32)
      .EndGroup()
      .EndGroup()
      .Build();
}

template <typename T>
inline absl::Status WriteChunk(FileWriter& file, const ColumnDescriptor& column,
                               const WriterOptions& options, std::vector<int16_t> definition,
                               std::vector<int16_t> repetition, const std::vector<T>& values) {
  ColumnChunkWriter writer(column, options);
  PQPAGE_RETURN_IF_ERROR(writer.template WriteBatch<T>(definition, repetition, values));
  return file.WriteColumnChunk(std::move(writer));
}

inline absl::Status WriteNestedFile(const std::string& path) {
  PQPAGE_ASSIGN_OR_RETURN(Schema schema, NestedSchema());
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file, FileWriter::Open(path, schema));
  const std::vector<ColumnDescriptor>& c = schema.columns();
  const WriterOptions options;
  PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
  PQPAGE_RETURN_IF_ERROR(
      WriteChunk<int32_t>(*file, c[0], options, {0, 1, 1, 0, 1, 1}, {}, {10, 20, 40, 50}));
  static const std::string kNames[] = {"alpha", "", "delta", "e", "zeta-zeta"};
  std::vector<ByteArray> names;
  for (const std::string& name : kNames) names.emplace_back(name);
  PQPAGE_RETURN_IF_ERROR(
      WriteChunk<ByteArray>(*file, c[1], options, {1, 0, 1, 1, 1, 1}, {}, names));
  // tags: definition 0 null list, 1 empty list, 2 null element, 3 element.
  PQPAGE_RETURN_IF_ERROR(WriteChunk<int64_t>(*file, c[2], options, {3, 3, 0, 1, 2, 3, 3, 3, 3, 3},
                                             {0, 1, 0, 0, 0, 1, 0, 0, 1, 1},
                                             {1, 2, 3, 4, 5, 6, 7}));
  // point.x: definition 0 null point; point.y: 0 null point, 1 null y.
  PQPAGE_RETURN_IF_ERROR(
      WriteChunk<int32_t>(*file, c[3], options, {1, 1, 0, 1, 1, 0}, {}, {1, 2, 4, 5}));
  PQPAGE_RETURN_IF_ERROR(
      WriteChunk<double>(*file, c[4], options, {2, 1, 0, 2, 2, 0}, {}, {0.5, -0.0, 1e300}));
  // attrs.key_value.key: definition 0 null map, 1 empty map, 2 entry; value: 2 null value.
  static const std::string kKeys[] = {"a", "b", "c", "d"};
  std::vector<ByteArray> keys;
  for (const std::string& key : kKeys) keys.emplace_back(key);
  PQPAGE_RETURN_IF_ERROR(WriteChunk<ByteArray>(*file, c[5], options, {2, 1, 0, 2, 2, 0, 2},
                                               {0, 0, 0, 0, 1, 0, 0}, keys));
  PQPAGE_RETURN_IF_ERROR(WriteChunk<int32_t>(*file, c[6], options, {3, 1, 0, 2, 3, 0, 3},
                                             {0, 0, 0, 0, 1, 0, 0}, {1, 3, 4}));
  PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  return file->Close();
}

// Two row groups of kFlatGroupRows[g] rows: seq required INT64 (the row's number in the file),
// id optional INT32 (the row's number, null every fourth row). Pages carry CRCs.
inline constexpr int64_t kFlatGroupRows[] = {10, 5};

inline absl::Status WriteFlatFile(const std::string& path) {
  PQPAGE_ASSIGN_OR_RETURN(Schema schema,
                          Schema::Builder()
                              .AddPrimitive("seq", Repetition::kRequired, PhysicalType::kInt64)
                              .AddPrimitive("id", Repetition::kOptional, PhysicalType::kInt32)
                              .Build());
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileWriter> file, FileWriter::Open(path, schema));
  WriterOptions options;
  options.write_checksums = true;
  int64_t row = 0;
  for (const int64_t rows : kFlatGroupRows) {
    PQPAGE_RETURN_IF_ERROR(file->BeginRowGroup());
    std::vector<int64_t> seq;
    std::vector<int16_t> id_definition;
    std::vector<int32_t> ids;
    for (int64_t i = 0; i < rows; ++i, ++row) {
      seq.push_back(row);
      id_definition.push_back(row % 4 == 0 ? 0 : 1);
      if (row % 4 != 0) ids.push_back(static_cast<int32_t>(row));
    }
    PQPAGE_RETURN_IF_ERROR(WriteChunk<int64_t>(*file, schema.columns()[0], options, {}, {}, seq));
    PQPAGE_RETURN_IF_ERROR(
        WriteChunk<int32_t>(*file, schema.columns()[1], options, id_definition, {}, ids));
    PQPAGE_RETURN_IF_ERROR(file->EndRowGroup());
  }
  return file->Close();
}

}  // namespace pqpage::arrow_test

#endif  // PQPAGE_TESTS_ARROW_READER_FILES_H_
