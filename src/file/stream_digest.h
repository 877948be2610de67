// A column chunk's content as Recode's verification compares it between input and output: the
// level and value streams, independent of how they were paged and encoded.
#ifndef PQPAGE_FILE_STREAM_DIGEST_H_
#define PQPAGE_FILE_STREAM_DIGEST_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// What one column of one row group held, independent of how it was paged and encoded: the
// level and value streams, each folded into an FNV-1a hash.
class StreamDigest {
 public:
  template <typename T>
  void Add(const BatchCounts& counts, const int16_t* def, const int16_t* rep, const T* values) {
    levels_ += counts.levels;
    values_ += counts.values;
    if (def != nullptr) Mix(&def_hash_, def, static_cast<size_t>(counts.levels) * sizeof(int16_t));
    if (rep != nullptr) Mix(&rep_hash_, rep, static_cast<size_t>(counts.levels) * sizeof(int16_t));
    for (int64_t i = 0; i < counts.values; ++i) {
      if constexpr (std::is_same_v<T, ByteArray>) {
        const uint32_t size = values[i].size;
        Mix(&value_hash_, &size, sizeof(size));
        if (size > 0) Mix(&value_hash_, values[i].data, size);
      } else if constexpr (std::is_same_v<T, bool>) {
        const uint8_t byte = values[i] ? 1 : 0;
        Mix(&value_hash_, &byte, 1);
      } else {
        // Bit patterns, so that NaN payloads and -0.0 count as the values they are.
        Mix(&value_hash_, &values[i], sizeof(T));
      }
    }
  }

  friend bool operator==(const StreamDigest& a, const StreamDigest& b) {
    return a.levels_ == b.levels_ && a.values_ == b.values_ && a.def_hash_ == b.def_hash_ &&
           a.rep_hash_ == b.rep_hash_ && a.value_hash_ == b.value_hash_;
  }

  std::string Describe() const { return absl::StrCat(levels_, " levels, ", values_, " values"); }

 private:
  static void Mix(uint64_t* hash, const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    uint64_t h = *hash;
    for (size_t i = 0; i < size; ++i) {
      h ^= bytes[i];
      h *= 0x100000001b3ULL;
    }
    *hash = h;
  }

  static constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
  int64_t levels_ = 0;
  int64_t values_ = 0;
  uint64_t def_hash_ = kFnvOffset;
  uint64_t rep_hash_ = kFnvOffset;
  uint64_t value_hash_ = kFnvOffset;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_FILE_STREAM_DIGEST_H_
