// A hash table from fixed-width keys (the bit patterns of INT32, INT64, INT96, FLOAT and DOUBLE
// values) to dictionary entry numbers, for DictionaryIndex. It exists because the dictionary
// encoder spends most of its time in this one lookup: open addressing with linear probing over
// slots that hold the key beside its number finds a present key with one hash and, at the load
// factors kept here, usually one slot read; absl::flat_hash_map's general-purpose probing cost
// about 1.9x as much per value (dictionary encode of 1,000 distinct INT32s: 170 against 330 M
// values/s with the lookup inlined into the encoder's loop).
#ifndef PQPAGE_ENCODINGS_FIXED_KEY_TABLE_H_
#define PQPAGE_ENCODINGS_FIXED_KEY_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/hash/hash.h"

namespace pqpage::internal {

template <typename Key>
class FixedKeyTable {
 public:
  // The number stored for `key`; when there is none, `may_insert()` (called only then) says
  // whether it may be added: if so the key gets `next_number`, which is returned, else the result
  // is -1 and the table is unchanged. Numbers must be below 2^32 - 1.
  // The number stored for `key`, or -1.
  int64_t Find(const Key& key) const {
    if (slots_.empty()) return -1;
    size_t at = absl::Hash<Key>{}(key)&mask_;
    while (true) {
      const Slot& slot = slots_[at];
      if (slot.key == key && slot.number_plus_one != 0) return slot.number_plus_one - 1;
      if (slot.number_plus_one == 0) return -1;
      at = (at + 1) & mask_;
    }
  }

  template <typename MayInsert>
  int64_t FindOrInsert(const Key& key, uint32_t next_number, MayInsert&& may_insert) {
    if (slots_.empty()) Rehash(kInitialSlots);
    size_t at = absl::Hash<Key>{}(key)&mask_;
    while (true) {
      Slot& slot = slots_[at];
      if (slot.number_plus_one == 0) break;
      if (slot.key == key) return slot.number_plus_one - 1;
      at = (at + 1) & mask_;
    }
    if (!may_insert()) return -1;
    slots_[at] = Slot{key, next_number + 1};
    // Small tables grow past a quarter full, larger ones past half: while the table fits the
    // caches, the second probe that a fuller table needs more often (and the branch it
    // mispredicts) costs more than the memory saved; once lookups miss the caches anyway, memory
    // is what counts.
    const size_t load_divisor = slots_.size() <= kSparseSlots ? 4 : 2;
    if (++size_ * load_divisor > slots_.size()) Rehash(slots_.size() * 2);
    return next_number;
  }

  size_t size() const { return size_; }

 private:
  static constexpr size_t kInitialSlots = 64;
  static constexpr size_t kSparseSlots = size_t{1} << 15;

  struct Slot {
    Key key;
    // 0 marks an empty slot, so that a fresh table is all zeros.
    uint32_t number_plus_one;
  };

  void Rehash(size_t slot_count) {
    std::vector<Slot> old(slot_count, Slot{Key{}, 0});
    old.swap(slots_);
    mask_ = slot_count - 1;
    for (const Slot& slot : old) {
      if (slot.number_plus_one == 0) continue;
      size_t at = absl::Hash<Key>{}(slot.key) & mask_;
      while (slots_[at].number_plus_one != 0) at = (at + 1) & mask_;
      slots_[at] = slot;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_FIXED_KEY_TABLE_H_
