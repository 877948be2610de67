#include "arrow/leaf_write.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_internal {
namespace {

using Positions = absl::Span<const int64_t>;

absl::Status BadValues(const WriteNode& node, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Arrow array of field '", node.name, "': ", std::string(why)));
}

// Values converted for the page builder, one vector per value type; byte arrays may view `bytes`.
struct Converted {
  std::unique_ptr<bool[]> bools;
  size_t bool_capacity = 0;
  std::vector<int32_t> int32s;
  std::vector<int64_t> int64s;
  std::vector<float> floats;
  std::vector<double> doubles;
  std::vector<ByteArray> byte_arrays;
  std::vector<uint8_t> bytes;

  template <typename T>
  std::vector<T>& Of();

  bool* Bools(size_t count) {
    if (count > bool_capacity) {
      bool_capacity = std::max(count, bool_capacity * 2);
      bools = std::make_unique<bool[]>(bool_capacity);
    }
    return bools.get();
  }
};
template <>
std::vector<int32_t>& Converted::Of() {
  return int32s;
}
template <>
std::vector<int64_t>& Converted::Of() {
  return int64s;
}
template <>
std::vector<float>& Converted::Of() {
  return floats;
}
template <>
std::vector<double>& Converted::Of() {
  return doubles;
}
template <>
std::vector<ByteArray>& Converted::Of() {
  return byte_arrays;
}

template <typename Source, typename Target, typename Convert>
void MapValues(const void* buffer, Positions positions, Target* out, Convert convert) {
  const Source* source = static_cast<const Source*>(buffer);
  for (size_t k = 0; k < positions.size(); ++k) out[k] = convert(source[positions[k]]);
}

template <typename Source, typename Target>
void CopyValues(const void* buffer, Positions positions, Target* out) {
  MapValues<Source>(buffer, positions, out,
                    [](Source value) { return static_cast<Target>(value); });
}

// value * factor, refusing what int64 cannot hold.
template <typename Int>
absl::Status Scale(const WriteNode& node, const void* buffer, Positions positions, Int factor,
                   Int* out) {
  const Int* source = static_cast<const Int*>(buffer);
  for (size_t k = 0; k < positions.size(); ++k) {
    if (__builtin_mul_overflow(source[positions[k]], factor, &out[k])) {
      return BadValues(node, "seconds that overflow as milliseconds");
    }
  }
  return absl::OkStatus();
}

absl::Status GatherInt32(const WriteNode& node, const ArrowArray& array, Positions positions,
                         int32_t* out) {
  const void* values = array.buffers[1];
  switch (node.conversion) {
    case WriteConversion::kInt8ToInt32:
      CopyValues<int8_t>(values, positions, out);
      return absl::OkStatus();
    case WriteConversion::kUInt8ToInt32:
      CopyValues<uint8_t>(values, positions, out);
      return absl::OkStatus();
    case WriteConversion::kInt16ToInt32:
      CopyValues<int16_t>(values, positions, out);
      return absl::OkStatus();
    case WriteConversion::kUInt16ToInt32:
      CopyValues<uint16_t>(values, positions, out);
      return absl::OkStatus();
    case WriteConversion::kSecondsToMillis32:
      return Scale<int32_t>(node, values, positions, 1000, out);
    case WriteConversion::kDate64ToDays:
      MapValues<int64_t>(values, positions, out, [](int64_t millis) {
        constexpr int64_t kMillisPerDay = 86'400'000;
        int64_t days = millis / kMillisPerDay;
        if (millis % kMillisPerDay < 0) --days;  // floor, for instants before 1970
        return static_cast<int32_t>(days);
      });
      return absl::OkStatus();
    case WriteConversion::kDecimalToInt32: {
      // The low 4 bytes of each little-endian decimal: the precision says they hold it.
      const auto* source = static_cast<const uint8_t*>(values);
      for (size_t k = 0; k < positions.size(); ++k) {
        std::memcpy(&out[k], source + positions[k] * node.source_width, sizeof(int32_t));
      }
      return absl::OkStatus();
    }
    default:
      CopyValues<int32_t>(values, positions, out);
      return absl::OkStatus();
  }
}

absl::Status GatherInt64(const WriteNode& node, const ArrowArray& array, Positions positions,
                         int64_t* out) {
  const void* values = array.buffers[1];
  if (node.conversion == WriteConversion::kSecondsToMillis64) {
    return Scale<int64_t>(node, values, positions, 1000, out);
  }
  if (node.conversion == WriteConversion::kDecimalToInt64) {
    const auto* source = static_cast<const uint8_t*>(values);
    for (size_t k = 0; k < positions.size(); ++k) {
      std::memcpy(&out[k], source + positions[k] * node.source_width, sizeof(int64_t));
    }
    return absl::OkStatus();
  }
  CopyValues<int64_t>(values, positions, out);
  return absl::OkStatus();
}

template <typename Offset>
absl::Status GatherBinary(const WriteNode& node, const ArrowArray& array, Positions positions,
                          ByteArray* out) {
  const auto* offsets = static_cast<const Offset*>(array.buffers[1]);
  const auto* data = static_cast<const uint8_t*>(array.buffers[2]);
  for (size_t k = 0; k < positions.size(); ++k) {
    const Offset start = offsets[positions[k]];
    const Offset stop = offsets[positions[k] + 1];
    if (start < 0 || stop < start || stop - start > INT32_MAX ||
        (data == nullptr && stop > start)) {
      return BadValues(node,
                       absl::StrCat("value ", positions[k], " has offsets ", start, ", ", stop));
    }
    out[k] =
        ByteArray(data == nullptr ? nullptr : data + start, static_cast<uint32_t>(stop - start));
  }
  return absl::OkStatus();
}

absl::Status GatherViews(const WriteNode& node, const ArrowArray& array, Positions positions,
                         ByteArray* out) {
  // Buffers: validity, views, the data buffers, and last the data buffers' sizes (int64).
  const int64_t data_buffers = array.n_buffers - 3;
  const auto* sizes = static_cast<const int64_t*>(array.buffers[array.n_buffers - 1]);
  const auto* views = static_cast<const uint8_t*>(array.buffers[1]);
  for (size_t k = 0; k < positions.size(); ++k) {
    const uint8_t* view = views + positions[k] * 16;
    int32_t length = 0;
    std::memcpy(&length, view, sizeof(length));
    if (length < 0) return BadValues(node, "a view of negative length");
    if (length <= 12) {
      out[k] = ByteArray(view + 4, static_cast<uint32_t>(length));
      continue;
    }
    int32_t buffer = 0;
    int32_t offset = 0;
    std::memcpy(&buffer, view + 8, sizeof(buffer));
    std::memcpy(&offset, view + 12, sizeof(offset));
    if (buffer < 0 || buffer >= data_buffers || offset < 0 || sizes == nullptr ||
        offset + int64_t{length} > sizes[buffer] || array.buffers[2 + buffer] == nullptr) {
      return BadValues(node,
                       absl::StrCat("value ", positions[k], " views bytes outside its buffers"));
    }
    out[k] = ByteArray(static_cast<const uint8_t*>(array.buffers[2 + buffer]) + offset,
                       static_cast<uint32_t>(length));
  }
  return absl::OkStatus();
}

absl::Status GatherBytes(const WriteNode& node, const ArrowArray& array, Positions positions,
                         Converted& converted, ByteArray* out) {
  const auto* values = static_cast<const uint8_t*>(array.buffers[1]);
  switch (node.conversion) {
    case WriteConversion::kBinary:
      return GatherBinary<int32_t>(node, array, positions, out);
    case WriteConversion::kLargeBinary:
      return GatherBinary<int64_t>(node, array, positions, out);
    case WriteConversion::kBinaryView:
      return GatherViews(node, array, positions, out);
    case WriteConversion::kDecimalToBytes: {
      // Big-endian: the low decimal_bytes bytes of the little-endian value, reversed.
      const size_t width = static_cast<size_t>(node.decimal_bytes);
      converted.bytes.resize(positions.size() * width);
      uint8_t* target = converted.bytes.data();
      for (size_t k = 0; k < positions.size(); ++k, target += width) {
        const uint8_t* source = values + positions[k] * node.source_width;
        for (size_t b = 0; b < width; ++b) target[b] = source[width - 1 - b];
        out[k] = ByteArray(target, static_cast<uint32_t>(width));
      }
      return absl::OkStatus();
    }
    default:  // kFixedSize
      for (size_t k = 0; k < positions.size(); ++k) {
        out[k] = ByteArray(values + positions[k] * node.source_width,
                           static_cast<uint32_t>(node.source_width));
      }
      return absl::OkStatus();
  }
}

// The values at `positions` of `array` as T.
template <typename T>
absl::Status Gather(const WriteNode& node, const ArrowArray& array, Positions positions,
                    Converted& converted, T* out) {
  if constexpr (std::is_same_v<T, int32_t>) {
    return GatherInt32(node, array, positions, out);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return GatherInt64(node, array, positions, out);
  } else if constexpr (std::is_same_v<T, ByteArray>) {
    return GatherBytes(node, array, positions, converted, out);
  } else {
    CopyValues<T>(array.buffers[1], positions, out);
    return absl::OkStatus();
  }
}

absl::Status CheckValueBuffer(const WriteNode& node, const ArrowArray& array, size_t count) {
  if (count > 0 && (array.n_buffers < 2 || array.buffers[1] == nullptr)) {
    return BadValues(node, "values but no value buffer");
  }
  return absl::OkStatus();
}

template <typename Index>
absl::Status LoadIndices(const WriteNode& node, const void* buffer, Positions positions,
                         int64_t entries, uint32_t* out) {
  const Index* indices = static_cast<const Index*>(buffer);
  for (size_t k = 0; k < positions.size(); ++k) {
    // Indices are signed or unsigned numbers (int8 ones too), never characters.
    const auto index =
        static_cast<int64_t>(indices[positions[k]]);  // NOLINT(bugprone-signed-char-misuse)
    if (index < 0 || index >= entries) {
      return BadValues(node, absl::StrCat("index ", index, " outside a dictionary of ", entries));
    }
    out[k] = static_cast<uint32_t>(index);
  }
  return absl::OkStatus();
}

absl::Status Indices(const WriteNode& node, const ArrowArray& array, Positions positions,
                     int64_t entries, uint32_t* out) {
  return VisitIndexType(node.dictionary_index[0], [&](auto type) {
    return LoadIndices<decltype(type)>(node, array.buffers[1], positions, entries, out);
  });
}

template <typename T>
bool SameEntries(absl::Span<const T> a, absl::Span<const T> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

struct LeafWriter::Buffers {
  Converted values;
  std::vector<int64_t> dense_positions;  // a dense range spelt out (ShreddedLeaf::dense_begin)
  std::vector<uint32_t> indices;
  std::vector<int64_t> entry_positions;
  Converted candidate;
  // The dictionary entries given to the page builder last (held[given]) and a spare. Entries that
  // change go to the spare, so a changed dictionary never reaches the builder at the address of
  // the one before (the builder keeps what it learnt of entries by their address).
  Converted held[2];
  int given = 0;
};

LeafWriter::LeafWriter(const WriteNode& node)
    : node_(&node), buffers_(std::make_unique<Buffers>()) {}
LeafWriter::~LeafWriter() = default;
LeafWriter::LeafWriter(LeafWriter&&) noexcept = default;
LeafWriter& LeafWriter::operator=(LeafWriter&&) noexcept = default;

namespace {

// Whether T's values are the Arrow buffer's bytes as they are.
template <typename T>
bool StoredAsIs(WriteConversion conversion) {
  if constexpr (std::is_same_v<T, int32_t>) return conversion == WriteConversion::kInt32;
  if constexpr (std::is_same_v<T, int64_t>) return conversion == WriteConversion::kInt64;
  return std::is_same_v<T, float> || std::is_same_v<T, double>;
}

template <typename T>
absl::Status WriteValues(const WriteNode& node, const ShreddedLeaf& shredded, Positions positions,
                         Converted& converted, ColumnChunkWriter& writer) {
  const ArrowArray& array = *shredded.leaf;
  PQPAGE_RETURN_IF_ERROR(CheckValueBuffer(node, array, positions.size()));
  if (shredded.dense_begin >= 0 && StoredAsIs<T>(node.conversion)) {
    // No null and no conversion: the page builder reads the Arrow buffer itself.
    const T* values = static_cast<const T*>(array.buffers[1]);
    return writer.WriteBatch<T>(
        shredded.definition_levels, shredded.repetition_levels,
        absl::MakeConstSpan(values + shredded.dense_begin, positions.size()));
  }
  std::vector<T>& values = converted.Of<T>();
  values.resize(positions.size());
  PQPAGE_RETURN_IF_ERROR(Gather<T>(node, array, positions, converted, values.data()));
  return writer.WriteBatch<T>(shredded.definition_levels, shredded.repetition_levels,
                              absl::Span<const T>(values));
}

// Copies `from` into `to`, byte arrays' bytes included, so that `to` outlives the batch.
template <typename T>
void Keep(Converted& from, Converted& to) {
  to.Of<T>() = from.Of<T>();
  if constexpr (std::is_same_v<T, ByteArray>) {
    size_t total = 0;
    for (const ByteArray& value : to.byte_arrays) total += value.size;
    to.bytes.resize(total);
    uint8_t* target = to.bytes.data();
    for (ByteArray& value : to.byte_arrays) {
      if (value.size > 0) std::memcpy(target, value.data, value.size);
      value.data = target;
      target += value.size;
    }
  }
}

}  // namespace

absl::Status LeafWriter::Write(const ShreddedLeaf& shredded, ColumnChunkWriter& writer) {
  const WriteNode& node = *node_;
  Buffers& buffers = *buffers_;
  Positions positions = shredded.positions;
  if (shredded.dense_begin >= 0) {
    // Spelt out only where a conversion reads values one by one.
    const auto count = static_cast<size_t>(shredded.dense_count);
    if (buffers.dense_positions.size() != count ||
        (count > 0 && buffers.dense_positions[0] != shredded.dense_begin)) {
      buffers.dense_positions.resize(count);
      std::iota(buffers.dense_positions.begin(), buffers.dense_positions.end(),
                shredded.dense_begin);
    }
    positions = buffers.dense_positions;
  }
  auto write = [&]<typename T>() -> absl::Status {
    if (node.dictionary_index.empty()) {
      return WriteValues<T>(node, shredded, positions, buffers.values, writer);
    }
    const ArrowArray& indices = *shredded.leaf;
    const ArrowArray& dictionary = *indices.dictionary;
    if (dictionary.length < 0 || dictionary.offset < 0) {
      return BadValues(node, "a dictionary of negative length or offset");
    }
    PQPAGE_RETURN_IF_ERROR(CheckValueBuffer(node, indices, positions.size()));
    PQPAGE_RETURN_IF_ERROR(CheckValueBuffer(node, dictionary, dictionary.length > 0 ? 1 : 0));
    buffers.indices.resize(positions.size());
    PQPAGE_RETURN_IF_ERROR(
        Indices(node, indices, positions, dictionary.length, buffers.indices.data()));
    buffers.entry_positions.resize(static_cast<size_t>(dictionary.length));
    for (int64_t i = 0; i < dictionary.length; ++i) {
      buffers.entry_positions[static_cast<size_t>(i)] = dictionary.offset + i;
    }
    std::vector<T>& candidate = buffers.candidate.Of<T>();
    candidate.resize(buffers.entry_positions.size());
    PQPAGE_RETURN_IF_ERROR(
        Gather<T>(node, dictionary, buffers.entry_positions, buffers.candidate, candidate.data()));
    if (!SameEntries<T>(candidate, buffers.held[buffers.given].Of<T>())) {
      buffers.given = 1 - buffers.given;
      Keep<T>(buffers.candidate, buffers.held[buffers.given]);
    }
    return writer.WriteIndexedBatch<T>(shredded.definition_levels, shredded.repetition_levels,
                                       buffers.indices,
                                       absl::Span<const T>(buffers.held[buffers.given].Of<T>()));
  };
  switch (node.conversion) {
    case WriteConversion::kNull:
      return writer.WriteBatch<int32_t>(shredded.definition_levels, shredded.repetition_levels, {});
    case WriteConversion::kBoolean: {
      const ArrowArray& array = *shredded.leaf;
      PQPAGE_RETURN_IF_ERROR(CheckValueBuffer(node, array, positions.size()));
      bool* values = buffers.values.Bools(positions.size());
      for (size_t k = 0; k < positions.size(); ++k) {
        values[k] = BitIsSet(array.buffers[1], positions[k]);
      }
      return writer.WriteBatch<bool>(shredded.definition_levels, shredded.repetition_levels,
                                     absl::MakeConstSpan(values, positions.size()));
    }
    case WriteConversion::kInt8ToInt32:
    case WriteConversion::kUInt8ToInt32:
    case WriteConversion::kInt16ToInt32:
    case WriteConversion::kUInt16ToInt32:
    case WriteConversion::kInt32:
    case WriteConversion::kSecondsToMillis32:
    case WriteConversion::kDate64ToDays:
    case WriteConversion::kDecimalToInt32:
      return write.template operator()<int32_t>();
    case WriteConversion::kInt64:
    case WriteConversion::kSecondsToMillis64:
    case WriteConversion::kDecimalToInt64:
      return write.template operator()<int64_t>();
    case WriteConversion::kFloat:
      return write.template operator()<float>();
    case WriteConversion::kDouble:
      return write.template operator()<double>();
    default:
      return write.template operator()<ByteArray>();
  }
}

}  // namespace pqpage::arrow_internal
