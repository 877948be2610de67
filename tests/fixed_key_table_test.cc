// FixedKeyTable against absl::flat_hash_map as the model: every key ever put is found with the
// number it was given, absent keys are not, refused insertions change nothing, and all of it holds
// across the growth steps (the quarter-full and the half-full regimes).
#include "encodings/fixed_key_table.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "gtest/gtest.h"

namespace pqpage::internal {
namespace {

template <typename Key>
void CheckAgainstModel(const std::vector<Key>& keys, const std::vector<Key>& absent) {
  FixedKeyTable<Key> table;
  absl::flat_hash_map<Key, uint32_t> model;
  for (const Key& key : keys) {
    const auto next = static_cast<uint32_t>(model.size());
    const int64_t got = table.FindOrInsert(key, next, [] { return true; });
    auto [it, inserted] = model.emplace(key, next);
    ASSERT_EQ(got, it->second) << "key number " << model.size();
    ASSERT_EQ(table.size(), model.size());
  }
  for (const auto& [key, number] : model) ASSERT_EQ(table.Find(key), number);
  for (const Key& key : absent) {
    if (model.contains(key)) continue;
    ASSERT_EQ(table.Find(key), -1);
    // A refused insertion leaves the table as it was.
    ASSERT_EQ(table.FindOrInsert(key, 12345, [] { return false; }), -1);
    ASSERT_EQ(table.Find(key), -1);
    ASSERT_EQ(table.size(), model.size());
  }
}

TEST(FixedKeyTableTest, EmptyTableFindsNothing) {
  FixedKeyTable<uint32_t> table;
  EXPECT_EQ(table.Find(0), -1);
  EXPECT_EQ(table.FindOrInsert(0, 0, [] { return false; }), -1);
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.FindOrInsert(0, 0, [] { return true; }), 0);
  EXPECT_EQ(table.Find(0), 0);
}

TEST(FixedKeyTableTest, MayInsertIsAskedOnlyForNewKeys) {
  FixedKeyTable<uint64_t> table;
  int asked = 0;
  const auto may_insert = [&] {
    ++asked;
    return true;
  };
  EXPECT_EQ(table.FindOrInsert(7, 0, may_insert), 0);
  EXPECT_EQ(table.FindOrInsert(7, 1, may_insert), 0);
  EXPECT_EQ(table.FindOrInsert(8, 1, may_insert), 1);
  EXPECT_EQ(asked, 2);
}

TEST(FixedKeyTableTest, RandomKeysThroughEveryGrowthStep) {
  std::mt19937_64 rng(5);
  std::vector<uint32_t> keys32;
  std::vector<uint64_t> keys64;
  // Past 2^15 slots the table switches from quarter-full to half-full growth.
  for (int i = 0; i < 100000; ++i) {
    keys32.push_back(static_cast<uint32_t>(rng() % 60000));
    keys64.push_back(rng() % 70000 * 0x9E3779B97F4A7C15ull);
  }
  std::vector<uint32_t> absent32;
  std::vector<uint64_t> absent64;
  for (int i = 0; i < 5000; ++i) {
    absent32.push_back(static_cast<uint32_t>(rng()));
    absent64.push_back(rng());
  }
  CheckAgainstModel(keys32, absent32);
  CheckAgainstModel(keys64, absent64);
}

TEST(FixedKeyTableTest, KeysThatDifferOnlyInHighBits) {
  // Bit patterns of doubles that are small integers, and keys that are multiples of a large power
  // of two: their low bits are all zero, so the table must not index slots by the key itself.
  std::vector<uint64_t> keys;
  std::vector<uint64_t> absent;
  for (uint64_t i = 0; i < 20000; ++i) {
    double d = static_cast<double>(i);
    uint64_t bits;
    static_assert(sizeof(bits) == sizeof(d));
    std::memcpy(&bits, &d, sizeof(bits));
    keys.push_back(bits);
    keys.push_back(i << 44);
    absent.push_back((i << 44) | 1);
  }
  CheckAgainstModel(keys, absent);
}

TEST(FixedKeyTableTest, SequentialAndRepeatedKeys) {
  std::vector<uint32_t> keys;
  for (uint32_t i = 0; i < 50000; ++i) keys.push_back(i);
  for (uint32_t i = 0; i < 50000; i += 7) keys.push_back(i);  // all present already
  CheckAgainstModel(keys, {50000, 50001, 0xFFFFFFFFu});
}

TEST(FixedKeyTableTest, PairKeysForInt96) {
  std::vector<std::pair<uint64_t, uint32_t>> keys;
  std::vector<std::pair<uint64_t, uint32_t>> absent;
  for (uint32_t i = 0; i < 3000; ++i) {
    keys.emplace_back(uint64_t{i} * 86400000000000ull, 2440588 + i % 50);
    absent.emplace_back(uint64_t{i} * 86400000000000ull, 2440588 + 60);
  }
  CheckAgainstModel(keys, absent);
}

}  // namespace
}  // namespace pqpage::internal
