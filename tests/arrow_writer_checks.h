// Checks of the Arrow writer's test (arrow_writer_test.cc), with no Arrow library: a file read
// whole through the Arrow reader, a logical comparison of two arrays of one schema slot by slot
// (what lies under a null is never looked at; offsets and dictionaries are followed), and a
// rendering of a slot as text for exact expectations.
#ifndef PQPAGE_TESTS_ARROW_WRITER_CHECKS_H_
#define PQPAGE_TESTS_ARROW_WRITER_CHECKS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arrow_c_data_builders.h"
#include "arrow_c_data_checks.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/arrow_reader.h"
#include "pqpage/arrow_writer.h"
#include "pqpage/status_macros.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage::arrow_test {

// ---------------------------------------------------------------- files

// A temporary Parquet file path unique to the running test and process.
inline std::string TempPath(const std::string& suffix) {
  return testing::TestTempPath(absl::StrCat("arrow_writer", suffix, ".parquet"));
}

// Reads every batch of `path` through OpenArrowStream; any failure of the reader is returned.
absl::Status ReadFile(const std::string& path, OwnedSchema& schema,
                      std::vector<OwnedArray>& batches, const ArrowReadOptions& options = {}) {
  PQPAGE_ASSIGN_OR_RETURN(std::shared_ptr<const FileReader> file, OpenShared(path));
  OwnedStream stream;
  PQPAGE_RETURN_IF_ERROR(OpenArrowStream(std::move(file), options, &stream.s));
  if (const int code = stream.s.get_schema(&stream.s, &schema.s); code != 0) {
    return absl::InternalError(absl::StrCat("get_schema: ", stream.s.get_last_error(&stream.s)));
  }
  while (true) {
    OwnedArray batch;
    if (const int code = stream.s.get_next(&stream.s, &batch.a); code != 0) {
      return absl::InternalError(absl::StrCat("get_next: ", stream.s.get_last_error(&stream.s)));
    }
    if (batch.a.release == nullptr) return absl::OkStatus();
    batches.push_back(std::move(batch));
  }
}

// ---------------------------------------------------------------- walking arrays

// Bytes per value of a fixed-width format; 0 for bool; -1 for a format that is not fixed-width.
inline int64_t FixedWidth(std::string_view format) {
  if (format.size() == 1) {
    switch (format[0]) {
      case 'b':
        return 0;
      case 'c':
      case 'C':
        return 1;
      case 's':
      case 'S':
      case 'e':
        return 2;
      case 'i':
      case 'I':
      case 'f':
        return 4;
      case 'l':
      case 'L':
      case 'g':
        return 8;
      default:
        return -1;
    }
  }
  if (format == "tdD" || format == "tts" || format == "ttm" || format == "tiM") return 4;
  if (format == "tdm" || format == "ttu" || format == "ttn" || format == "tiD") return 8;
  if (format == "tin") return 16;
  if (format.starts_with("ts") || format.starts_with("tD")) return 8;
  if (format.starts_with("w:")) return std::atoll(std::string(format.substr(2)).c_str());
  if (format.starts_with("d:")) {
    const size_t last = format.rfind(',');
    const size_t first = format.find(',');
    return last == first ? 16 : std::atoll(std::string(format.substr(last + 1)).c_str()) / 8;
  }
  return -1;
}

inline bool SlotValid(const ArrowArray& array, int64_t i) {
  if (array.n_buffers == 0) return false;  // the null type
  if (array.null_count == 0 || array.buffers[0] == nullptr) return true;
  return IsValid(array, i);
}

inline bool BitAt(const void* bits, int64_t i) {
  return ((static_cast<const uint8_t*>(bits)[i / 8] >> (i % 8)) & 1) != 0;
}

// The dictionary index in slot i of an index array of format `format`.
inline int64_t IndexAt(std::string_view format, const ArrowArray& array, int64_t i) {
  switch (format[0]) {
    case 'c':
      return ValueAt<int8_t>(array, 1, i);
    case 'C':
      return ValueAt<uint8_t>(array, 1, i);
    case 's':
      return ValueAt<int16_t>(array, 1, i);
    case 'S':
      return ValueAt<uint16_t>(array, 1, i);
    case 'i':
      return ValueAt<int32_t>(array, 1, i);
    case 'I':
      return ValueAt<uint32_t>(array, 1, i);
    default:
      return ValueAt<int64_t>(array, 1, i);
  }
}

// The bytes of slot i of a binary, large binary or binary view array.
inline std::string_view BytesAt(std::string_view format, const ArrowArray& array, int64_t i) {
  const auto* data = static_cast<const char*>(array.buffers[2]);
  if (format == "u" || format == "z") {
    const auto [begin, end] = ListRange(array, i);
    return {data + begin, static_cast<size_t>(end - begin)};
  }
  if (format == "U" || format == "Z") {
    const int64_t begin = ValueAt<int64_t>(array, 1, i);
    const int64_t end = ValueAt<int64_t>(array, 1, i + 1);
    return {data + begin, static_cast<size_t>(end - begin)};
  }
  // A view: length, then 12 inline bytes or (prefix, buffer index, offset).
  const auto* view = static_cast<const char*>(array.buffers[1]) + (array.offset + i) * 16;
  int32_t length = 0;
  std::memcpy(&length, view, 4);
  if (length <= 12) return {view + 4, static_cast<size_t>(length)};
  int32_t buffer = 0;
  int32_t offset = 0;
  std::memcpy(&buffer, view + 8, 4);
  std::memcpy(&offset, view + 12, 4);
  return {static_cast<const char*>(array.buffers[2 + buffer]) + offset,
          static_cast<size_t>(length)};
}

inline bool IsBinary(std::string_view format) {
  return format == "u" || format == "z" || format == "U" || format == "Z" || format == "vu" ||
         format == "vz";
}

// Where list slot i's elements lie in its child, for list, large list, list view, map and
// fixed-size list formats; {-1, -1} for other formats.
inline std::pair<int64_t, int64_t> ElementRange(std::string_view format, const ArrowArray& array,
                                                int64_t i) {
  if (format == "+l" || format == "+m") return ListRange(array, i);
  if (format == "+L") return {ValueAt<int64_t>(array, 1, i), ValueAt<int64_t>(array, 1, i + 1)};
  if (format == "+vl") {
    const int64_t begin = ValueAt<int32_t>(array, 1, i);
    return {begin, begin + ValueAt<int32_t>(array, 2, i)};
  }
  if (format == "+vL") {
    const int64_t begin = ValueAt<int64_t>(array, 1, i);
    return {begin, begin + ValueAt<int64_t>(array, 2, i)};
  }
  if (format.starts_with("+w:")) {
    const int64_t size = std::atoll(std::string(format.substr(3)).c_str());
    return {(array.offset + i) * size, (array.offset + i + 1) * size};
  }
  return {-1, -1};
}

// Slot i of `array` with dictionaries decoded: the array and slot holding its value.
inline std::pair<const ArrowArray*, int64_t> Decoded(const ArrowSchema& schema,
                                                     const ArrowArray& array, int64_t i) {
  if (schema.dictionary == nullptr || !SlotValid(array, i)) return {&array, i};
  return {array.dictionary, IndexAt(schema.format, array, i)};
}

// ---------------------------------------------------------------- comparing

// "" when the two schemas agree in format, name, flags, children and dictionary, recursively;
// else where and how they differ.
inline std::string SchemaDiff(const ArrowSchema& a, const ArrowSchema& b, const std::string& at) {
  const std::string name_a = a.name == nullptr ? "" : a.name;
  const std::string name_b = b.name == nullptr ? "" : b.name;
  const std::string where = absl::StrCat(at, "/", name_a);
  if (std::string_view(a.format) != b.format) {
    return absl::StrCat(where, ": format ", a.format, " vs ", b.format);
  }
  if (name_a != name_b) return absl::StrCat(where, ": name vs ", name_b);
  if (a.flags != b.flags) return absl::StrCat(where, ": flags ", a.flags, " vs ", b.flags);
  if (a.n_children != b.n_children) {
    return absl::StrCat(where, ": ", a.n_children, " vs ", b.n_children, " children");
  }
  if ((a.dictionary == nullptr) != (b.dictionary == nullptr)) {
    return absl::StrCat(where, ": dictionary on one side only");
  }
  if (a.dictionary != nullptr) {
    std::string diff = SchemaDiff(*a.dictionary, *b.dictionary, where + "(dictionary)");
    if (!diff.empty()) return diff;
  }
  for (int64_t c = 0; c < a.n_children; ++c) {
    std::string diff = SchemaDiff(*a.children[c], *b.children[c], where);
    if (!diff.empty()) return diff;
  }
  return "";
}

// "" when slot i of `a` and slot j of `b`, two arrays of `schema`, hold the same logical value
// (a slot whose dictionary entry is null counts as null); else where and how they differ.
inline std::string SlotDiff(const ArrowSchema& schema, const ArrowArray& a_in, int64_t i_in,
                            const ArrowArray& b_in, int64_t j_in, const std::string& at) {
  const std::string where = absl::StrCat(at, "/", schema.name == nullptr ? "" : schema.name);
  const auto [a_ptr, i] = Decoded(schema, a_in, i_in);
  const auto [b_ptr, j] = Decoded(schema, b_in, j_in);
  const ArrowArray& a = *a_ptr;
  const ArrowArray& b = *b_ptr;
  if (i < 0 || i >= a.length || j < 0 || j >= b.length) {
    return absl::StrCat(where, ": slot ", i, " / ", j, " outside ", a.length, " / ", b.length);
  }
  const ArrowSchema& type = schema.dictionary == nullptr ? schema : *schema.dictionary;
  const std::string_view format = type.format;
  const bool valid = SlotValid(a, i);
  if (valid != SlotValid(b, j)) {
    return absl::StrCat(where, ": slot ", i, " ", valid ? "valid" : "null", ", slot ", j, " not");
  }
  if (!valid) return "";
  const int64_t width = FixedWidth(format);
  if (width == 0) {
    if (BitAt(a.buffers[1], a.offset + i) != BitAt(b.buffers[1], b.offset + j)) {
      return absl::StrCat(where, ": bools differ at ", i, " / ", j);
    }
    return "";
  }
  if (width > 0) {
    const auto* va = static_cast<const uint8_t*>(a.buffers[1]) + (a.offset + i) * width;
    const auto* vb = static_cast<const uint8_t*>(b.buffers[1]) + (b.offset + j) * width;
    if (std::memcmp(va, vb, static_cast<size_t>(width)) != 0) {
      return absl::StrCat(where, ": ", width, "-byte values differ at ", i, " / ", j);
    }
    return "";
  }
  if (IsBinary(format)) {
    const std::string_view va = BytesAt(format, a, i);
    const std::string_view vb = BytesAt(format, b, j);
    if (va != vb)
      return absl::StrCat(where, ": '", std::string(va), "' vs '", std::string(vb), "'");
    return "";
  }
  if (format == "+s") {
    for (int64_t c = 0; c < type.n_children; ++c) {
      std::string diff = SlotDiff(*type.children[c], *a.children[c], a.offset + i, *b.children[c],
                                  b.offset + j, where);
      if (!diff.empty()) return diff;
    }
    return "";
  }
  const auto [begin_a, end_a] = ElementRange(format, a, i);
  const auto [begin_b, end_b] = ElementRange(format, b, j);
  if (begin_a < 0 || begin_b < 0)
    return absl::StrCat(where, ": format ", type.format, " not compared");
  if (end_a - begin_a != end_b - begin_b) {
    return absl::StrCat(where, ": ", end_a - begin_a, " vs ", end_b - begin_b, " elements");
  }
  for (int64_t e = 0; e < end_a - begin_a; ++e) {
    std::string diff = SlotDiff(*type.children[0], *a.children[0], begin_a + e, *b.children[0],
                                begin_b + e, absl::StrCat(where, "[", e, "]"));
    if (!diff.empty()) return diff;
  }
  return "";
}

// The rows of `batches` as (batch, row) pairs, so two sides cut into batches differently can be
// walked row by row.
inline std::vector<std::pair<const ArrowArray*, int64_t>> RowsOf(
    const std::vector<OwnedArray>& batches) {
  std::vector<std::pair<const ArrowArray*, int64_t>> rows;
  for (const OwnedArray& batch : batches) {
    for (int64_t r = 0; r < batch.a.length; ++r) rows.emplace_back(&batch.a, r);
  }
  return rows;
}

// Expects the batches of `a` and `b`, of `schema`, to hold the same rows (reports at most 5).
inline void ExpectSameRows(const ArrowSchema& schema, const std::vector<OwnedArray>& a,
                           const std::vector<OwnedArray>& b) {
  const auto rows_a = RowsOf(a);
  const auto rows_b = RowsOf(b);
  ASSERT_EQ(rows_a.size(), rows_b.size());
  int failures = 0;
  for (size_t r = 0; r < rows_a.size() && failures < 5; ++r) {
    const std::string diff = SlotDiff(schema, *rows_a[r].first, rows_a[r].second, *rows_b[r].first,
                                      rows_b[r].second, "");
    if (!diff.empty()) {
      ADD_FAILURE() << "row " << r << ": " << diff;
      ++failures;
    }
  }
}

// ---------------------------------------------------------------- rendering

// Slot i as text: null, numbers (integers as such, floats through StrCat), "quoted" byte
// arrays, [lists], {struct: fields}, {map: entries}; dictionaries decoded.
inline std::string Render(const ArrowSchema& schema, const ArrowArray& array_in, int64_t i_in) {
  const auto [array_ptr, i] = Decoded(schema, array_in, i_in);
  const ArrowArray& array = *array_ptr;
  const ArrowSchema& type = schema.dictionary == nullptr ? schema : *schema.dictionary;
  const std::string_view format = type.format;
  if (!SlotValid(array, i)) return "null";
  if (format == "b") return BitAt(array.buffers[1], array.offset + i) ? "true" : "false";
  if (format == "c") return absl::StrCat(ValueAt<int8_t>(array, 1, i));
  if (format == "i" || format == "tdD" || format == "ttm") {
    return absl::StrCat(ValueAt<int32_t>(array, 1, i));
  }
  if (format == "I") return absl::StrCat(ValueAt<uint32_t>(array, 1, i));
  if (format == "L") return absl::StrCat(ValueAt<uint64_t>(array, 1, i));
  if (format == "l" || format.starts_with("ts") || format.starts_with("tD")) {
    return absl::StrCat(ValueAt<int64_t>(array, 1, i));
  }
  if (format == "g") return absl::StrCat(ValueAt<double>(array, 1, i));
  if (IsBinary(format)) return absl::StrCat("\"", std::string(BytesAt(format, array, i)), "\"");
  if (format == "+s") {
    std::vector<std::string> fields;
    for (int64_t c = 0; c < type.n_children; ++c) {
      fields.push_back(
          absl::StrCat(type.children[c]->name, ": ",
                       Render(*type.children[c], *array.children[c], array.offset + i)));
    }
    return absl::StrCat("{", absl::StrJoin(fields, ", "), "}");
  }
  const auto [begin, end] = ElementRange(format, array, i);
  if (begin < 0) return absl::StrCat("(format ", type.format, ")");
  const ArrowSchema& child = *type.children[0];
  std::vector<std::string> elements;
  for (int64_t e = begin; e < end; ++e) {
    if (format == "+m") {  // entries: key: value
      const ArrowArray& entries = *array.children[0];
      elements.push_back(
          absl::StrCat(Render(*child.children[0], *entries.children[0], entries.offset + e), ": ",
                       Render(*child.children[1], *entries.children[1], entries.offset + e)));
    } else {
      elements.push_back(Render(child, *array.children[0], e));
    }
  }
  return format == "+m" ? absl::StrCat("{", absl::StrJoin(elements, ", "), "}")
                        : absl::StrCat("[", absl::StrJoin(elements, ", "), "]");
}

// Column c of every row of `batches`, rendered.
inline std::vector<std::string> RenderColumn(const ArrowSchema& schema,
                                             const std::vector<OwnedArray>& batches, int64_t c) {
  std::vector<std::string> out;
  for (const OwnedArray& batch : batches) {
    for (int64_t r = 0; r < batch.a.length; ++r) {
      out.push_back(Render(*schema.children[c], *batch.a.children[c], batch.a.offset + r));
    }
  }
  return out;
}

// ---------------------------------------------------------------- refused batches

// A batch of `column` alone, as many rows as the column's slots.
inline ArraySpec OneColumn(ArraySpec column) {
  const int64_t rows = column.offset + column.length;
  std::vector<ArraySpec> children;
  children.push_back(std::move(column));
  return StructOf(rows, {}, std::move(children));
}

// Writes `bad`, which must be InvalidArgument naming `field`; then `good`, and Close: after a
// refused batch shape (`sticky` false) they succeed, after any other error they return the same
// error (the writer is unusable).
inline void ExpectRefused(const std::string& path, std::vector<SchemaSpec> fields, ArraySpec bad,
                          ArraySpec good, bool sticky, const std::string& field) {
  OwnedSchema schema;
  ExportBatchSchema(std::move(fields), schema);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<ArrowFileWriter> writer,
                              ArrowFileWriter::Open(path, schema.s));
  OwnedArray bad_batch;
  ExportArray(std::move(bad), &bad_batch.a);
  const absl::Status first = writer->WriteBatch(bad_batch.a);
  PQPAGE_EXPECT_ERROR(first, absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(first.message(), field)) << first;
  OwnedArray good_batch;
  ExportArray(std::move(good), &good_batch.a);
  if (sticky) {
    EXPECT_EQ(writer->WriteBatch(good_batch.a), first);
    EXPECT_EQ(writer->FlushRowGroup(), first);
    EXPECT_EQ(writer->Close(), first);
    return;
  }
  PQPAGE_EXPECT_OK(writer->WriteBatch(good_batch.a));
  PQPAGE_EXPECT_OK(writer->Close());
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::shared_ptr<const FileReader> file, OpenShared(path));
  EXPECT_EQ(file->num_rows(), good_batch.a.length);
}

}  // namespace pqpage::arrow_test

#endif  // PQPAGE_TESTS_ARROW_WRITER_CHECKS_H_
