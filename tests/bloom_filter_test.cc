// The split-block bloom filter (pqpage/bloom_filter.h) and the reading of one from a file's
// bytes (header, sizes and bounds checked), including the format's reference filter.
#include "pqpage/bloom_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/cpu_features.h"
#include "encodings/bloom_filter_block.h"
#include "file/bloom_filter_read.h"
#include "metadata/bloom_filter_header.h"
#include "pqpage/byte_source.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using internal::AppendBloomFilterHeader;
using internal::ReadBloomFilterAt;

TEST(BloomFilterTest, HashIsXxHash64WithSeedZeroOfThePlainBytes) {
  // xxHash64's published value for the empty input, seed 0.
  EXPECT_EQ(BloomFilter::Hash(std::string_view()), 0xEF46DB3751D8E999ULL);
  const int32_t i32 = -7;
  EXPECT_EQ(BloomFilter::Hash(i32),
            BloomFilter::Hash(std::string_view(reinterpret_cast<const char*>(&i32), 4)));
  const double d = 2.5;
  EXPECT_EQ(BloomFilter::Hash(d),
            BloomFilter::Hash(std::string_view(reinterpret_cast<const char*>(&d), 8)));
  const std::string text = "parquet";
  EXPECT_EQ(BloomFilter::Hash(ByteArray(text)), BloomFilter::Hash(std::string_view(text)));
  Int96 int96;
  int96.words[0] = 1;
  int96.words[2] = 2440588;
  EXPECT_EQ(BloomFilter::Hash(int96),
            BloomFilter::Hash(std::string_view(reinterpret_cast<const char*>(&int96), 12)));
}

TEST(BloomFilterTest, OptimalBytesFollowsTheFormulaInPowersOfTwo) {
  // 1M values at 5%: -8e6 / ln(1 - 0.05^(1/8)) bits = 858,581 bytes -> 1 MiB.
  EXPECT_EQ(BloomFilter::OptimalBytes(1'000'000, 0.05), int64_t{1} << 20);
  // 1000 values at 1%: 1,193 bytes -> 2 KiB.
  EXPECT_EQ(BloomFilter::OptimalBytes(1000, 0.01), 2048);
  EXPECT_EQ(BloomFilter::OptimalBytes(0, 0.05), BloomFilter::kBlockBytes);
  EXPECT_EQ(BloomFilter::OptimalBytes(int64_t{1} << 40, 0.001), BloomFilter::kMaxBytes);
  EXPECT_EQ(BloomFilter::OptimalBytes(1000, 7.0), BloomFilter::OptimalBytes(1000, 0.05));
  int64_t previous = 0;
  for (int64_t n = 1; n < 10'000'000; n = n * 3 + 1) {
    const int64_t bytes = BloomFilter::OptimalBytes(n, 0.01);
    EXPECT_EQ(bytes & (bytes - 1), 0) << n;
    EXPECT_GE(bytes, previous) << n;
    previous = bytes;
  }
}

TEST(BloomFilterTest, SizesRoundUpToAPowerOfTwoWithinTheLimits) {
  EXPECT_EQ(BloomFilter(1).num_bytes(), 32);
  EXPECT_EQ(BloomFilter(33).num_bytes(), 64);
  EXPECT_EQ(BloomFilter(4096).num_bytes(), 4096);
  EXPECT_EQ(BloomFilter(4096).num_blocks(), 128);
  EXPECT_EQ(BloomFilter(BloomFilter::kMaxBytes * 4).num_bytes(), BloomFilter::kMaxBytes);
}

// Every inserted value is found, and absent values are found about as often as the size chosen
// for them promises.
TEST(BloomFilterTest, NoFalseNegativesAndTheFalsePositiveRateItWasSizedFor) {
  for (const double fpp : {0.01, 0.05, 0.2}) {
    constexpr int64_t kValues = 20'000;
    BloomFilter filter(BloomFilter::OptimalBytes(kValues, fpp));
    for (int64_t v = 0; v < kValues; ++v) filter.InsertHash(BloomFilter::Hash(v * 2));
    for (int64_t v = 0; v < kValues; ++v) ASSERT_TRUE(filter.MayContain(v * 2)) << v;
    int false_positives = 0;
    constexpr int kAbsent = 100'000;
    for (int64_t v = 0; v < kAbsent; ++v) false_positives += filter.MayContain(v * 2 + 1);
    const double rate = static_cast<double>(false_positives) / kAbsent;
    // Rounding the size up to a power of two only lowers the rate.
    EXPECT_LE(rate, fpp * 1.2) << fpp;
    EXPECT_GT(rate, 0.0) << fpp;
  }
}

TEST(BloomFilterTest, TheBitsetRoundTrips) {
  BloomFilter filter(256);
  for (int32_t v = 0; v < 50; ++v) filter.InsertHash(BloomFilter::Hash(v));
  const std::vector<uint8_t> bitset = filter.Bitset();
  ASSERT_EQ(bitset.size(), 256u);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter copy, BloomFilter::FromBitset(bitset));
  EXPECT_EQ(copy, filter);
}

TEST(BloomFilterTest, FromBitsetRefusesSizesThatAreNotWholeBlocks) {
  const std::vector<uint8_t> none;
  PQPAGE_EXPECT_ERROR(BloomFilter::FromBitset(none), absl::StatusCode::kDataLoss);
  const std::vector<uint8_t> odd(33);
  PQPAGE_EXPECT_ERROR(BloomFilter::FromBitset(odd), absl::StatusCode::kDataLoss);
  const std::vector<uint8_t> one_block(32);
  PQPAGE_EXPECT_OK(BloomFilter::FromBitset(one_block).status());
}

// The AVX2 block twins set and test exactly the bits of the portable ones.
TEST(BloomFilterTest, Avx2BlocksAgreeWithThePortableOnes) {
  if (!internal::UseAvx2Twins()) GTEST_SKIP() << "no AVX2 tier on this CPU (or PQPAGE_SIMD_TIER)";
  std::mt19937_64 rng(3);
  for (int round = 0; round < 2000; ++round) {
    alignas(32) uint32_t portable[8];
    alignas(32) uint32_t twin[8];
    for (int i = 0; i < 8; ++i) portable[i] = twin[i] = static_cast<uint32_t>(rng() & rng());
    const auto key = static_cast<uint32_t>(rng());
    ASSERT_EQ(internal::BlockMayContainAvx2(twin, key), internal::BlockMayContain(portable, key));
    internal::BlockInsert(portable, key);
    internal::BlockInsertAvx2(twin, key);
    ASSERT_EQ(std::memcmp(portable, twin, sizeof(twin)), 0) << round;
    ASSERT_TRUE(internal::BlockMayContainAvx2(twin, key));
  }
}

// Folding a filter down gives the filter the same values make at the smaller size.
TEST(BloomFilterTest, FoldingGivesTheFilterOfTheSmallerSize) {
  BloomFilter large(1 << 16);
  BloomFilter small(1 << 12);
  int64_t novel = 0;
  for (int64_t v = 0; v < 3000; ++v) {
    novel += large.InsertHash(BloomFilter::Hash(v * 7)) ? 1 : 0;
    small.InsertHash(BloomFilter::Hash(v * 7));
  }
  // Nearly every insert into the roomy filter set a new bit: it counts the distinct values.
  EXPECT_GE(novel, 2990);
  EXPECT_FALSE(large.InsertHash(BloomFilter::Hash(int64_t{7})));  // already in
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter folded, large.Fold(1 << 12));
  EXPECT_EQ(folded, small);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter same, large.Fold(1 << 16));
  EXPECT_EQ(same, large);
  PQPAGE_EXPECT_ERROR(large.Fold(1 << 17), absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(large.Fold(96), absl::StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter three_blocks,
                              BloomFilter::FromBitset(std::vector<uint8_t>(96)));
  PQPAGE_EXPECT_ERROR(three_blocks.Fold(32), absl::StatusCode::kInvalidArgument);
}

// A filter of 2 MiB or more lives on its own allocation (huge pages where allowed); it works the
// same.
TEST(BloomFilterTest, LargeFiltersWorkTheSame) {
  BloomFilter filter(int64_t{4} << 20);
  for (int64_t v = 0; v < 100000; ++v) filter.InsertHash(BloomFilter::Hash(v));
  for (int64_t v = 0; v < 100000; ++v) ASSERT_TRUE(filter.MayContain(v));
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter copy, BloomFilter::FromBitset(filter.Bitset()));
  EXPECT_EQ(copy, filter);
}

// ---------------------------------------------------------------- reading from a file's bytes

// "PAR1", `filter` (header and bitset), then 8 bytes standing in for the footer.
struct FakeFile {
  std::vector<uint8_t> bytes;
  int64_t data_end = 0;
};
FakeFile FileWith(const std::vector<uint8_t>& filter) {
  FakeFile file;
  file.bytes.assign(4 + filter.size() + 8, 0);
  std::memcpy(file.bytes.data(), "PAR1", 4);
  std::copy(filter.begin(), filter.end(), file.bytes.begin() + 4);
  file.data_end = static_cast<int64_t>(4 + filter.size());
  return file;
}

std::vector<uint8_t> Stored(int32_t header_bytes_value, const std::vector<uint8_t>& bitset) {
  std::vector<uint8_t> out;
  EXPECT_TRUE(AppendBloomFilterHeader(header_bytes_value, &out).ok());
  out.insert(out.end(), bitset.begin(), bitset.end());
  return out;
}

absl::StatusOr<BloomFilter> Read(const FakeFile& file, int64_t offset,
                                 std::optional<int32_t> length) {
  std::unique_ptr<ByteSource> source = MakeMemoryByteSource(file.bytes);
  return ReadBloomFilterAt(*source, offset, length, 4, file.data_end);
}

TEST(BloomFilterReadTest, ReadsWithAndWithoutTheLength) {
  BloomFilter filter(1024);
  filter.InsertHash(BloomFilter::Hash(int64_t{42}));
  const std::vector<uint8_t> stored = Stored(1024, filter.Bitset());
  const FakeFile file = FileWith(stored);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter with_length,
                              Read(file, 4, static_cast<int32_t>(stored.size())));
  EXPECT_EQ(with_length, filter);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter without_length, Read(file, 4, std::nullopt));
  EXPECT_EQ(without_length, filter);
  EXPECT_TRUE(without_length.MayContain(int64_t{42}));
}

// A filter of one block, whose header is the only thing left in the file's data, reads too.
TEST(BloomFilterReadTest, AShortFilterAtTheEndOfTheDataReadsWithoutItsLength) {
  const FakeFile file = FileWith(Stored(32, std::vector<uint8_t>(32, 0xff)));
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter filter, Read(file, 4, std::nullopt));
  EXPECT_EQ(filter.num_bytes(), 32);
}

TEST(BloomFilterReadTest, EveryHostileFilterIsANamedError) {
  const std::vector<uint8_t> bitset(64, 0);
  const std::vector<uint8_t> good = Stored(64, bitset);
  const auto good_length = static_cast<int32_t>(good.size());
  const FakeFile file = FileWith(good);
  struct Case {
    std::string name;
    FakeFile file;
    int64_t offset;
    std::optional<int32_t> length;
    absl::StatusCode code;
  };
  std::vector<uint8_t> garbage(40, 0xff);
  std::vector<Case> cases = {
      {"offset in the magic", file, 2, good_length, absl::StatusCode::kDataLoss},
      {"offset past the data", file, file.data_end, std::nullopt, absl::StatusCode::kDataLoss},
      {"negative offset", file, -5, std::nullopt, absl::StatusCode::kDataLoss},
      {"length past the data", file, 4, good_length + 1, absl::StatusCode::kDataLoss},
      {"zero length", file, 4, 0, absl::StatusCode::kDataLoss},
      {"length longer than header and bitset", FileWith(Stored(64, std::vector<uint8_t>(96))), 4,
       good_length + 32, absl::StatusCode::kDataLoss},
      {"header says more bytes than the file has", FileWith(Stored(4096, bitset)), 4, std::nullopt,
       absl::StatusCode::kDataLoss},
      {"header says more than the length", FileWith(Stored(4096, bitset)), 4, good_length,
       absl::StatusCode::kDataLoss},
      {"zero blocks", FileWith(Stored(0, {})), 4, std::nullopt, absl::StatusCode::kDataLoss},
      {"not a multiple of 32", FileWith(Stored(48, std::vector<uint8_t>(48))), 4, std::nullopt,
       absl::StatusCode::kDataLoss},
      {"negative size", FileWith(Stored(-32, bitset)), 4, std::nullopt,
       absl::StatusCode::kDataLoss},
      {"past the largest filter", FileWith(Stored(BloomFilter::kMaxBytes * 2, bitset)), 4,
       std::nullopt, absl::StatusCode::kDataLoss},
      {"not a header", FileWith(garbage), 4, std::nullopt, absl::StatusCode::kDataLoss},
  };
  // An algorithm the format may define later: a BloomFilterHeader whose algorithm union holds
  // field 2 (an empty struct) instead of BLOCK.
  std::vector<uint8_t> unknown_algorithm = {
      0x15, 0x80, 0x01,        // 1: numBytes = 64 (zigzag 128)
      0x1c, 0x2c, 0x00, 0x00,  // 2: algorithm { 2: {} }
      0x1c, 0x1c, 0x00, 0x00,  // 3: hash { 1: XXHASH {} }
      0x1c, 0x1c, 0x00, 0x00,  // 4: compression { 1: UNCOMPRESSED {} }
      0x00};
  unknown_algorithm.resize(unknown_algorithm.size() + bitset.size(), 0);  // the bitset: zeros
  cases.push_back({"unknown algorithm", FileWith(unknown_algorithm), 4, std::nullopt,
                   absl::StatusCode::kUnimplemented});
  for (const Case& c : cases) {
    const absl::StatusOr<BloomFilter> read = Read(c.file, c.offset, c.length);
    ASSERT_FALSE(read.ok()) << c.name;
    EXPECT_EQ(read.status().code(), c.code) << c.name << ": " << read.status();
    EXPECT_NE(read.status().message().find("bloom filter"), std::string::npos)
        << c.name << ": " << read.status();
  }
}

// The format's reference filter (parquet-testing), written by parquet-java: our bits are its bits.
TEST(BloomFilterReadTest, TheReferenceFilterHoldsItsFourStrings) {
  const std::string path =
      std::string(PQPAGE_SHARED_DIR) + "/parquet-testing/data/bloom_filter.xxhash.bin";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << "no ../shared/parquet-testing (" << path << "; see README: reference files)";
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  const FakeFile file = FileWith(bytes);
  PQPAGE_ASSERT_OK_AND_ASSIGN(BloomFilter filter,
                              Read(file, 4, static_cast<int32_t>(bytes.size())));
  for (const char* present : {"hello", "parquet", "bloom", "filter"}) {
    EXPECT_TRUE(filter.MayContain(ByteArray(std::string(present)))) << present;
  }
  int false_positives = 0;
  for (int i = 0; i < 1000; ++i) {
    false_positives += filter.MayContain(ByteArray(absl::StrCat("absent-", i)));
  }
  EXPECT_LT(false_positives, 50);
  // Inserting the four strings into an empty filter of the same size gives its exact bits.
  BloomFilter ours(filter.num_bytes());
  for (const char* present : {"hello", "parquet", "bloom", "filter"}) {
    ours.InsertHash(BloomFilter::Hash(std::string_view(present)));
  }
  EXPECT_EQ(ours, filter);
}

}  // namespace
}  // namespace pqpage
