// A hash table from fixed-width keys (the bit patterns of INT32, INT64, INT96, FLOAT and DOUBLE
// values) to dictionary entry numbers, for DictionaryIndex. It exists because the dictionary
// encoder spends most of its time in this one lookup: open addressing with linear probing over
// slots that hold the key beside its number finds a present key with one hash and, at the load
// factors kept here, usually one slot read; absl::flat_hash_map's general-purpose probing cost
// about 2x as much per value (dictionary encode of 1,000 distinct INT32s: 170 against 375 M
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
  // The number stored for `key`, or -1.
  int64_t Find(const Key& key) const {
    if (slots_.empty()) return -1;
    const Slot& slot = slots_[SlotOf(key)];
    return slot.number_plus_one == 0 ? -1 : int64_t{slot.number_plus_one} - 1;
  }

  // The number stored for `key`; when there is none, `may_insert()` (called only then) says
  // whether it may be added: if so the key gets `next_number`, which is returned, else the result
  // is -1 and the table is unchanged. Numbers must be below 2^32 - 1.
  template <typename MayInsert>
  int64_t FindOrInsert(const Key& key, uint32_t next_number, MayInsert&& may_insert) {
    if (slots_.empty()) Rehash(kInitialSlots);
    Slot& slot = slots_[SlotOf(key)];
    if (slot.number_plus_one != 0) return int64_t{slot.number_plus_one} - 1;
    if (!may_insert()) return -1;
    slot = Slot{key, next_number + 1};
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

  // The slot holding `key`, or the empty slot that ends its probe run (where it would go). The
  // table must have slots, and at least one empty.
  size_t SlotOf(const Key& key) const {
    size_t at = absl::Hash<Key>{}(key)&mask_;
    // The key is compared first: most lookups find it in their first slot. An empty slot holding
    // Key{} that matches ends the run all the same.
    while (!(slots_[at].key == key) && slots_[at].number_plus_one != 0) at = (at + 1) & mask_;
    return at;
  }

  void Rehash(size_t slot_count) {
    std::vector<Slot> old(slot_count, Slot{Key{}, 0});
    old.swap(slots_);
    mask_ = slot_count - 1;
    for (const Slot& slot : old) {
      // The keys are distinct, so each one's probe run ends at an empty slot.
      if (slot.number_plus_one != 0) slots_[SlotOf(slot.key)] = slot;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_ENCODINGS_FIXED_KEY_TABLE_H_
