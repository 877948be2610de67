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
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "common/bytes_equal.h"
#include "encodings/fixed_key_table.h"
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
// absl::string_view, not std::string_view: Debian's Abseil keeps its own string_view type and
// hashes std::string_view through libstdc++'s much slower std::hash.
template <>
struct DictionaryKeyOf<ByteArray> {
  using Key = absl::string_view;
};

// Equality of byte array keys without a memcmp call for the short ones.
struct ByteArrayKeyEqual {
  bool operator()(absl::string_view a, absl::string_view b) const {
    return a.size() == b.size() && BytesEqual(reinterpret_cast<const uint8_t*>(a.data()),
                                              reinterpret_cast<const uint8_t*>(b.data()), a.size());
  }
};

template <typename T>
class DictionaryIndex {
 public:
  using Key = typename DictionaryKeyOf<T>::Key;

  static bool SameKey(const Key& a, const Key& b) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return ByteArrayKeyEqual()(a, b);
    } else {
      return a == b;
    }
  }

  static Key KeyOf(const T& value) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return absl::string_view(reinterpret_cast<const char*>(value.data), value.size);
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

  // The entry number of `value`. A value not yet present is added as the next entry when
  // `may_insert()` returns true, else the result is -1. `may_insert` must be cheap and free of
  // side effects: it may be called whether or not the value is present. One hash lookup.
  template <typename MayInsert>
  int64_t FindOrInsert(const T& value, MayInsert&& may_insert) {
    const Key key = KeyOf(value);
    const auto number = static_cast<uint32_t>(entries_.size());
    if constexpr (std::is_same_v<T, ByteArray>) {
      if (!may_insert()) {
        auto it = map_.find(key);
        return it == map_.end() ? -1 : static_cast<int64_t>(it->second);
      }
      auto it = map_.lazy_emplace(key, [&](const auto& construct) {
        // The key must view the dictionary's own copy, not the caller's buffer.
        const ByteArray copy = CopyToArena(value);
        entries_.push_back(copy);
        construct(KeyOf(copy), number);
      });
      return static_cast<int64_t>(it->second);
    } else {
      const int64_t found = map_.FindOrInsert(key, number, may_insert);
      if (found == number) entries_.push_back(value);
      return found;
    }
  }

  // The entry number of `value`, or -1 when it has none (fixed-width types only: the encoder's
  // fast path, inlined into its loop).
  int64_t Find(const T& value) const requires(!std::is_same_v<T, ByteArray>) {
    return map_.Find(KeyOf(value));
  }

  const std::vector<T>& entries() const { return entries_; }

 private:
  static constexpr size_t kArenaBlockBytes = 64 * 1024;

  ByteArray CopyToArena(const ByteArray& value) {
    if (value.size == 0) return ByteArray(nullptr, 0);
    if (value.size > block_left_) {
      const size_t block = std::max<size_t>(kArenaBlockBytes, value.size);
      arena_.push_back(std::make_unique_for_overwrite<uint8_t[]>(block));
      block_next_ = arena_.back().get();
      block_left_ = block;
    }
    std::memcpy(block_next_, value.data, value.size);
    const ByteArray copy(block_next_, value.size);
    block_next_ += value.size;
    block_left_ -= value.size;
    return copy;
  }

  // Byte arrays are keyed on views, hashed as strings; every other type on its bit pattern.
  std::conditional_t<
      std::is_same_v<T, ByteArray>,
      absl::flat_hash_map<Key, uint32_t, absl::Hash<absl::string_view>, ByteArrayKeyEqual>,
      FixedKeyTable<Key>>
      map_;
  std::vector<T> entries_;
  std::vector<std::unique_ptr<uint8_t[]>> arena_;
  uint8_t* block_next_ = nullptr;
  size_t block_left_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_DICTIONARY_INDEX_H_
