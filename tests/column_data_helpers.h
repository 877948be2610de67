// Test helpers for the page builder's tests: columns of generated levels and values (flat,
// optional, lists with empty lists and null elements), written in batches that end mid-row, and
// read back through ColumnChunkReader page by page.
#ifndef PQPAGE_TESTS_COLUMN_DATA_HELPERS_H_
#define PQPAGE_TESTS_COLUMN_DATA_HELPERS_H_

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/column_chunk_writer.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "status_matchers.h"

namespace pqpage::testing {

enum class Shape { kRequired, kOptional, kList };

inline const char* ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kRequired:
      return "required";
    case Shape::kOptional:
      return "optional";
    case Shape::kList:
      return "list";
  }
  return "?";
}

inline ColumnDescriptor MakeColumn(PhysicalType type, Shape shape, int type_length = 0) {
  ColumnDescriptor column;
  column.path = shape == Shape::kList ? std::vector<std::string>{"c", "list", "element"}
                                      : std::vector<std::string>{"c"};
  column.type = type;
  column.type_length = type == PhysicalType::kFixedLenByteArray ? type_length : 0;
  column.max_definition_level = shape == Shape::kRequired ? 0 : shape == Shape::kOptional ? 1 : 2;
  column.max_repetition_level = shape == Shape::kList ? 1 : 0;
  return column;
}

// A growable array of bool with data() (std::vector<bool> has none, and spans need one).
class BoolVector {
 public:
  using value_type = bool;

  void push_back(bool value) {
    if (size_ == capacity_) {
      capacity_ = capacity_ == 0 ? 64 : capacity_ * 2;
      std::unique_ptr<bool[]> grown(new bool[capacity_]);
      for (size_t i = 0; i < size_; ++i) grown[i] = data_[i];
      data_ = std::move(grown);
    }
    data_[size_++] = value;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const bool* data() const { return data_.get(); }
  const bool& operator[](size_t i) const { return data_[i]; }
  const bool* begin() const { return data_.get(); }
  const bool* end() const { return data_.get() + size_; }

 private:
  std::unique_ptr<bool[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

template <typename T>
using ValueVector = std::conditional_t<std::is_same_v<T, bool>, BoolVector, std::vector<T>>;

// The value type ColumnChunkWriter::WriteBatch and ColumnChunkReader::ReadBatch take.
template <typename T>
struct ColumnData {
  std::vector<int16_t> def;
  std::vector<int16_t> rep;
  ValueVector<T> values;
  std::deque<std::string> storage;  // owns byte-array values (a deque keeps them in place)

  int64_t num_levels() const {
    return def.empty() ? static_cast<int64_t>(values.size()) : static_cast<int64_t>(def.size());
  }
  T AddBytes(std::string bytes) {
    storage.push_back(std::move(bytes));
    return ByteArray(storage.back());
  }
};

// Value number k of a column with `type` (k picks the value, so a small range of k repeats).
template <typename T>
T ValueFor(uint64_t k, PhysicalType type, int type_length, ColumnData<T>* data) {
  if constexpr (std::is_same_v<T, bool>) {
    return (k & 1) != 0;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return static_cast<int32_t>(static_cast<uint32_t>(k * 2654435761u));
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(k * 0x9E3779B97F4A7C15ULL);
  } else if constexpr (std::is_same_v<T, Int96>) {
    Int96 v;
    v.words[0] = static_cast<uint32_t>(k);
    v.words[1] = static_cast<uint32_t>(k * 7);
    v.words[2] = 2440588 + static_cast<uint32_t>(k % 1000);
    return v;
  } else if constexpr (std::is_same_v<T, float>) {
    if (k % 17 == 3) return std::numeric_limits<float>::quiet_NaN();
    if (k % 17 == 5) return -0.0f;
    return static_cast<float>(k) * 0.75f - 20.0f;
  } else if constexpr (std::is_same_v<T, double>) {
    if (k % 19 == 3) return std::numeric_limits<double>::quiet_NaN();
    if (k % 19 == 5) return -0.0;
    return static_cast<double>(k) * 1.25 - 33.0;
  } else {
    std::string bytes;
    if (type == PhysicalType::kFixedLenByteArray) {
      for (int i = 0; i < type_length; ++i)
        bytes.push_back(static_cast<char>((k * 31 + i * 97) & 0xff));
    } else if (k % 13 != 7) {  // some empty strings
      bytes = "v" + std::to_string(k);
      if (k % 3 == 0) bytes.push_back(static_cast<char>(0x80 + (k & 0x7f)));
    }
    return data->AddBytes(std::move(bytes));
  }
}

// About `target` levels (or exactly `target` rows when `count_rows`) of the given shape; values
// drawn from `cardinality` distinct ones.
template <typename T>
ColumnData<T> Generate(const ColumnDescriptor& column, Shape shape, int64_t target,
                       uint64_t cardinality, uint64_t seed, bool count_rows = false) {
  ColumnData<T> data;
  std::mt19937_64 rng(seed);
  auto next_value = [&] {
    return ValueFor<T>(rng() % cardinality, column.type, column.type_length, &data);
  };
  int64_t rows = 0;
  while ((count_rows ? rows : data.num_levels()) < target) {
    ++rows;
    switch (shape) {
      case Shape::kRequired:
        data.values.push_back(next_value());
        break;
      case Shape::kOptional:
        if (rng() % 5 == 0) {
          data.def.push_back(0);
        } else {
          data.def.push_back(1);
          data.values.push_back(next_value());
        }
        break;
      case Shape::kList: {
        const int elements = static_cast<int>(rng() % 6);  // 0: an empty list
        if (elements == 0) {
          data.def.push_back(0);
          data.rep.push_back(0);
        }
        for (int e = 0; e < elements; ++e) {
          data.rep.push_back(e == 0 ? 0 : 1);
          if (rng() % 7 == 0) {
            data.def.push_back(1);  // a null element
          } else {
            data.def.push_back(2);
            data.values.push_back(next_value());
          }
        }
        break;
      }
    }
  }
  return data;
}

inline int64_t CountRows(const ColumnDescriptor& column, absl::Span<const int16_t> rep,
                         int64_t levels) {
  if (column.max_repetition_level == 0) return levels;
  int64_t rows = 0;
  for (int16_t r : rep) rows += r == 0;
  return rows;
}

// A variant of the page builder's test matrices: one column shape and dictionary limit.
struct WriterVariant {
  ColumnDescriptor column;
  Shape shape = Shape::kRequired;
  int64_t dictionary_limit = 0;
  int number = 0;         // 1, 2, ...: tests rotate their other options on it
  WriterOptions options;  // page version, policy, small pages, row limit, dictionary limit set
  std::string where;      // "policy/TYPE/vN/shape/dictionary limit L", for messages
};

// Calls visit(variant) for each column shape (required, optional, list) with a dictionary that
// holds every value, one that fills up after a few pages (inside a row of a list) and one full at
// once; pages of 256 bytes, 1000 or 37 rows. Stops after a fatal failure.
template <typename Visit>
void ForEachWriterVariant(EncodingPolicy policy, PhysicalType type, int version, int type_length,
                          Visit visit) {
  int number = 0;
  for (Shape shape : {Shape::kRequired, Shape::kOptional, Shape::kList}) {
    for (int64_t dictionary_limit : {int64_t{1} << 20, int64_t{150}, int64_t{1}}) {
      WriterVariant variant;
      variant.number = ++number;
      variant.shape = shape;
      variant.dictionary_limit = dictionary_limit;
      variant.column = MakeColumn(type, shape, type_length);
      variant.options.data_page_version = version;
      variant.options.encoding = policy;
      variant.options.data_page_size = 256;
      variant.options.data_page_row_limit = number % 2 == 0 ? 1000 : 37;
      variant.options.dictionary_page_size_limit = dictionary_limit;
      variant.where = std::string(EncodingPolicyName(policy)) + "/" +
                      std::string(PhysicalTypeName(type)) + "/v" + std::to_string(version) + "/" +
                      ShapeName(shape) + "/dictionary limit " + std::to_string(dictionary_limit);
      visit(variant);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Calls visit(level, def, rep, values, n) for `data` cut into batches of 1..max_batch levels at
// random (so batches end inside rows), in order: `n` levels from `level` on, with their level spans
// (empty where `column` has no such levels) and present values; stops at the first error visit
// returns.
template <typename T, typename Visit>
absl::Status ForEachRandomBatch(const ColumnDescriptor& column, const ColumnData<T>& data,
                                uint64_t seed, int64_t max_batch, Visit visit) {
  std::mt19937_64 rng(seed);
  const int64_t levels = data.num_levels();
  const bool has_def = !data.def.empty() || column.max_definition_level > 0;
  int64_t level = 0;
  size_t value = 0;
  while (level < levels) {
    const int64_t n =
        std::min<int64_t>(levels - level, 1 + static_cast<int64_t>(rng() % max_batch));
    size_t present = static_cast<size_t>(n);
    if (has_def) {
      present = 0;
      for (int64_t i = level; i < level + n; ++i) {
        present += data.def[i] == column.max_definition_level;
      }
    }
    const absl::Span<const int16_t> def =
        has_def ? absl::MakeConstSpan(data.def).subspan(level, n) : absl::Span<const int16_t>();
    const absl::Span<const int16_t> rep = data.rep.empty()
                                              ? absl::Span<const int16_t>()
                                              : absl::MakeConstSpan(data.rep).subspan(level, n);
    absl::Status status =
        visit(level, def, rep, absl::MakeConstSpan(data.values).subspan(value, present), n);
    if (!status.ok()) return status;
    level += n;
    value += present;
  }
  return absl::OkStatus();
}

// Writes `data` in batches of random level counts (so batches end inside rows).
template <typename T>
absl::Status WriteInBatches(ColumnChunkWriter* writer, const ColumnData<T>& data, uint64_t seed,
                            int64_t max_batch = 97) {
  return ForEachRandomBatch(
      writer->column(), data, seed, max_batch,
      [&](int64_t, absl::Span<const int16_t> def, absl::Span<const int16_t> rep,
          absl::Span<const T> values, int64_t) { return writer->WriteBatch<T>(def, rep, values); });
}

// Writes one row group of `file`: each of `columns` (ColumnData of the column's value type, in
// schema order) through its own ColumnChunkWriter with `options`, in batches as WriteInBatches
// makes them.
template <typename... Columns>
absl::Status WriteRowGroup(FileWriter& file, const Schema& schema, const WriterOptions& options,
                           const Columns&... columns) {
  absl::Status status = file.BeginRowGroup();
  int column = 0;
  auto add = [&](const auto& data) {
    using T = typename std::decay_t<decltype(data.values)>::value_type;
    if (!status.ok()) return;
    ColumnChunkWriter writer(schema.columns()[column++], options);
    status = WriteInBatches<T>(&writer, data, 1);
    if (status.ok()) status = file.WriteColumnChunk(std::move(writer));
  };
  (add(columns), ...);
  if (status.ok()) status = file.EndRowGroup();
  return status;
}

template <typename T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return a == b;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a == b;
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// Where a chunk the page builder wrote lies and what its metadata says, for a reader.
inline ColumnChunkLocation LocationOf(const ColumnChunkData& chunk) {
  ColumnChunkLocation location;
  location.offset = chunk.metadata.dictionary_page_offset.value_or(chunk.metadata.data_page_offset);
  location.length = chunk.metadata.total_compressed_size;
  location.codec = static_cast<Compression>(chunk.metadata.codec_id);
  location.num_values = chunk.metadata.num_values;
  location.num_rows = chunk.num_rows;
  return location;
}

// One data page as the reader gave it back.
template <typename T>
struct ReadPage {
  PageInfo info;
  int64_t first_level = 0;  // into ReadBack::data
  int64_t levels = 0;
  int64_t first_value = 0;
  int64_t values = 0;
};

template <typename T>
struct ReadBack {
  ColumnData<T> data;
  std::vector<ReadPage<T>> pages;
  std::optional<PageInfo> dictionary_page;
};

// Reads a chunk placed at `file_offset` (the buffer is padded in front, so offsets are exercised)
// page by page.
template <typename T>
absl::StatusOr<ReadBack<T>> ReadChunk(const ColumnDescriptor& column, const ColumnChunkData& chunk,
                                      int64_t file_offset) {
  std::vector<uint8_t> file(static_cast<size_t>(file_offset), 0xEE);
  file.insert(file.end(), chunk.bytes.begin(), chunk.bytes.end());
  std::unique_ptr<ByteSource> source = MakeMemoryByteSource(file);
  const ColumnChunkLocation location = LocationOf(chunk);
  ReaderOptions options;
  options.verify_checksums = true;
  ColumnChunkReader reader(column, source.get(), location, options);
  ReadBack<T> out;
  while (true) {
    absl::StatusOr<bool> more = reader.NextDataPage();
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (reader.dictionary_page() != nullptr && !out.dictionary_page) {
      out.dictionary_page = *reader.dictionary_page();
    }
    ReadPage<T> page;
    page.info = reader.page();
    page.first_level = out.data.num_levels();
    page.first_value = static_cast<int64_t>(out.data.values.size());
    const int64_t n = reader.levels_left_in_page();
    std::vector<int16_t> def(static_cast<size_t>(n) + 1);
    std::vector<int16_t> rep(static_cast<size_t>(n) + 1);
    std::unique_ptr<T[]> values(new T[static_cast<size_t>(n) + 1]);
    absl::StatusOr<BatchCounts> counts =
        reader.template ReadBatch<T>(absl::MakeSpan(def).first(static_cast<size_t>(n)),
                                     absl::MakeSpan(rep).first(static_cast<size_t>(n)),
                                     absl::MakeSpan(values.get(), static_cast<size_t>(n)));
    if (!counts.ok()) return counts.status();
    if (counts->levels != n) return absl::InternalError("a page read in two batches");
    page.levels = n;
    page.values = counts->values;
    if (column.max_definition_level > 0) {
      out.data.def.insert(out.data.def.end(), def.begin(), def.begin() + n);
    }
    if (column.max_repetition_level > 0) {
      out.data.rep.insert(out.data.rep.end(), rep.begin(), rep.begin() + n);
    }
    for (int64_t i = 0; i < counts->values; ++i) {
      if constexpr (std::is_same_v<T, ByteArray>) {
        out.data.values.push_back(out.data.AddBytes(std::string(values[i].AsStringView())));
      } else {
        out.data.values.push_back(values[i]);
      }
    }
    out.pages.push_back(page);
  }
  return out;
}

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_COLUMN_DATA_HELPERS_H_
