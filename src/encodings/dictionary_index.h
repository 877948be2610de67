// The hash index behind DictionaryEncoder: maps a value's bytes to its dictionary entry number and
// keeps the entries in insertion order. Fixed-width values are keyed on their bit patterns (so
// -0.0, +0.0 and each NaN payload are different entries); byte arrays are copied once into an
// arena whose blocks never move, and keyed on views of those copies.
#ifndef PQPAGE_ENCODINGS_DICTIONARY_INDEX_H_
#define PQPAGE_ENCODINGS_DICTIONARY_INDEX_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "pqpage/types.h"

namespace pqpage::internal {

template <typename T>
struct DictionaryKeyOf;
template <>
struct DictionaryKeyOf<int32_t> {
  using Key = uint32_t;
};
template <>
struct DictionaryKeyOf<float> {
  using Key = uint32_t;
};
template <>
struct DictionaryKeyOf<int64_t> {
  using Key = uint64_t;
};
template <>
struct DictionaryKeyOf<double> {
  using Key = uint64_t;
};
template <>
struct DictionaryKeyOf<Int96> {
  using Key = std::pair<uint64_t, uint32_t>;
};
template <>
struct DictionaryKeyOf<ByteArray> {
  using Key = std::string_view;
};

template <typename T>
class DictionaryIndex {
 public:
  using Key = typename DictionaryKeyOf<T>::Key;

  static Key KeyOf(const T& value) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return value.AsStringView();
    } else if constexpr (std::is_same_v<T, Int96>) {
      uint64_t low;
      std::memcpy(&low, value.words, sizeof(low));
      return Key(low, value.words[2]);
    } else {
      Key bits;
      std::memcpy(&bits, &value, sizeof(bits));
      return bits;
    }
  }

  // The entry number of `key`, or -1.
  int64_t Find(const Key& key) const {
    auto it = map_.find(key);
    return it == map_.end() ? -1 : static_cast<int64_t>(it->second);
  }

  // Adds `value` (not yet present) as the next entry and returns its number.
  uint32_t Insert(const T& value) {
    const uint32_t number = static_cast<uint32_t>(entries_.size());
    if constexpr (std::is_same_v<T, ByteArray>) {
      const ByteArray copy = CopyToArena(value);
      entries_.push_back(copy);
      map_.emplace(copy.AsStringView(), number);
    } else {
      entries_.push_back(value);
      map_.emplace(KeyOf(value), number);
    }
    return number;
  }

  const std::vector<T>& entries() const { return entries_; }

 private:
  static constexpr size_t kArenaBlockBytes = 64 * 1024;

  ByteArray CopyToArena(const ByteArray& value) {
    if (value.size == 0) return ByteArray(nullptr, 0);
    if (value.size > block_left_) {
      const size_t block = std::max<size_t>(kArenaBlockBytes, value.size);
      arena_.push_back(std::make_unique<uint8_t[]>(block));
      block_next_ = arena_.back().get();
      block_left_ = block;
    }
    std::memcpy(block_next_, value.data, value.size);
    const ByteArray copy(block_next_, value.size);
    block_next_ += value.size;
    block_left_ -= value.size;
    return copy;
  }

  absl::flat_hash_map<Key, uint32_t> map_;
  std::vector<T> entries_;
  std::vector<std::unique_ptr<uint8_t[]>> arena_;
  uint8_t* block_next_ = nullptr;
  size_t block_left_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_DICTIONARY_INDEX_H_
