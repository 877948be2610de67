#include "page/write/chunk_verifier.h"

#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

template <typename Stored, typename T>
bool SameValue(const Stored& expected, const T& got) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return expected == got.AsStringView();
  } else if constexpr (std::is_same_v<T, bool>) {
    return (expected != 0) == got;
  } else {
    // Bit for bit, so NaN payloads and -0.0 count.
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the bits are what must match
    return std::memcmp(&expected, &got, sizeof(T)) == 0;
  }
}

absl::Status Mismatch(const ColumnDescriptor& column, const std::string& what) {
  return absl::InternalError(absl::StrCat("verify_pages: column '", column.PathString(),
                                          "' does not read back as written: ", what));
}

}  // namespace

template <typename T>
void ChunkVerifier<T>::Record(absl::Span<const int16_t> definition_levels,
                              absl::Span<const int16_t> repetition_levels,
                              absl::Span<const T> values) {
  const int64_t levels = column_.max_definition_level > 0
                             ? static_cast<int64_t>(definition_levels.size())
                             : static_cast<int64_t>(values.size());
  num_levels_ += levels;
  if (column_.max_definition_level > 0) {
    definition_levels_.insert(definition_levels_.end(), definition_levels.begin(),
                              definition_levels.end());
  }
  if (column_.max_repetition_level > 0) {
    repetition_levels_.insert(repetition_levels_.end(), repetition_levels.begin(),
                              repetition_levels.end());
  }
  for (const T& value : values) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      values_.emplace_back(value.AsStringView());
    } else {
      values_.push_back(static_cast<Stored>(value));
    }
  }
}

template <typename T>
absl::Status ChunkVerifier<T>::Verify(const ColumnChunkData& chunk) const {
  // The source holds the chunk alone, so the chunk starts at offset 0 of it.
  std::unique_ptr<ByteSource> source = MakeMemoryByteSource(chunk.bytes);
  ColumnChunkLocation location;
  location.offset = 0;
  location.length = static_cast<int64_t>(chunk.bytes.size());
  location.codec = static_cast<Compression>(chunk.metadata.codec_id);
  location.num_values = chunk.metadata.num_values;
  location.context = "verify_pages";
  ReaderOptions options;
  options.verify_checksums = true;
  ColumnChunkReader reader(column_, source.get(), location, options);

  constexpr int64_t kBatch = 4096;
  std::vector<int16_t> def(kBatch);
  std::vector<int16_t> rep(kBatch);
  std::unique_ptr<T[]> values(new T[kBatch]);
  int64_t level_at = 0;
  int64_t value_at = 0;
  while (true) {
    auto counts = reader.ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep),
                                      absl::MakeSpan(values.get(), kBatch));
    if (!counts.ok()) return Mismatch(column_, counts.status().ToString());
    if (counts->levels == 0) break;
    if (level_at + counts->levels > num_levels_ ||
        value_at + counts->values > static_cast<int64_t>(values_.size())) {
      return Mismatch(column_, "more levels or values than were written");
    }
    for (int64_t i = 0; i < counts->levels; ++i, ++level_at) {
      if (column_.max_definition_level > 0 && def[i] != definition_levels_[level_at]) {
        return Mismatch(column_, absl::StrCat("definition level ", level_at));
      }
      if (column_.max_repetition_level > 0 && rep[i] != repetition_levels_[level_at]) {
        return Mismatch(column_, absl::StrCat("repetition level ", level_at));
      }
    }
    for (int64_t i = 0; i < counts->values; ++i, ++value_at) {
      if (!SameValue(values_[value_at], values[i])) {
        return Mismatch(column_, absl::StrCat("value ", value_at));
      }
    }
  }
  if (level_at != num_levels_ || value_at != static_cast<int64_t>(values_.size())) {
    return Mismatch(column_, absl::StrCat("read ", level_at, " levels and ", value_at,
                                          " values of ", num_levels_, " and ", values_.size()));
  }
  return absl::OkStatus();
}

template class ChunkVerifier<bool>;
template class ChunkVerifier<int32_t>;
template class ChunkVerifier<int64_t>;
template class ChunkVerifier<Int96>;
template class ChunkVerifier<float>;
template class ChunkVerifier<double>;
template class ChunkVerifier<ByteArray>;

}  // namespace pqpage::internal
