// The bit-packing kernel table against a bit-by-bit reference built from the spec's definition of
// each bit order, for every width, both directions, and counts that are not multiples of 32; the
// scalar and AVX2 tables must agree byte for byte and value for value.
#include "bitpack/bit_packing.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "common/cpu_features.h"

namespace pqpage::internal {
namespace {

// Reference LSB packing straight from the spec: bit k of the stream is bit k % 8 of byte k / 8.
std::vector<uint8_t> ReferencePackLsb(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out((values.size() * width + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < width; ++b) {
      const size_t bit = i * width + b;
      if ((values[i] >> b) & 1) out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
  return out;
}

// Reference MSB packing: the stream is one big-endian bit string, each value most significant
// first.
std::vector<uint8_t> ReferencePackMsb(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out((values.size() * width + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < width; ++b) {
      const size_t bit = i * width + b;
      if ((values[i] >> (width - 1 - b)) & 1)
        out[bit / 8] |= static_cast<uint8_t>(0x80u >> (bit % 8));
    }
  }
  return out;
}

std::vector<uint64_t> RandomValues(size_t count, int width, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> values(count);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (auto& v : values) v = rng() & mask;
  // Extremes at both ends exercise the highest bit of every width.
  if (count > 0) values[0] = mask;
  if (count > 1) values[count - 1] = mask;
  return values;
}

const std::vector<size_t> kCounts = {0, 8, 16, 24, 32, 40, 56, 64, 96, 128, 136, 1000, 4096};

std::vector<const BitPackingKernels*> AllTables() {
  std::vector<const BitPackingKernels*> tables = {&ScalarBitPackingKernels()};
  if (UseAvx2Twins()) tables.push_back(&Avx2BitPackingKernels());
  if (UseAvx512Twins()) tables.push_back(&Avx512BitPackingKernels());
  return tables;
}

TEST(BitPackingTest, SpecExampleOneToSevenWidthThree) {
  // Seed 000: the numbers 0..7 at width 3 pack to 10001000 11000110 11111010 in LSB order and to
  // 00000101 00111001 01110111 in the deprecated MSB order.
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const BitPackingKernels* table : AllTables()) {
    uint8_t lsb[3];
    table->pack32[3](values, lsb, 8);
    EXPECT_EQ(lsb[0], 0b10001000) << table->name;
    EXPECT_EQ(lsb[1], 0b11000110) << table->name;
    EXPECT_EQ(lsb[2], 0b11111010) << table->name;
    uint8_t msb[3];
    table->pack32_msb[3](values, msb, 8);
    EXPECT_EQ(msb[0], 0b00000101) << table->name;
    EXPECT_EQ(msb[1], 0b00111001) << table->name;
    EXPECT_EQ(msb[2], 0b01110111) << table->name;
    uint32_t back[8];
    table->unpack32[3](lsb, back, 8);
    EXPECT_EQ(std::vector<uint32_t>(back, back + 8), std::vector<uint32_t>(values, values + 8));
    table->unpack32_msb[3](msb, back, 8);
    EXPECT_EQ(std::vector<uint32_t>(back, back + 8), std::vector<uint32_t>(values, values + 8));
  }
}

TEST(BitPackingTest, Lsb32MatchesReferenceForEveryWidth) {
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : kCounts) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 7919 + count);
        const std::vector<uint8_t> expected = ReferencePackLsb(values, width);
        std::vector<uint32_t> in(values.begin(), values.end());
        // Exact-size buffers: the sanitizer run proves no kernel touches a byte outside them.
        std::vector<uint8_t> packed(expected.size());
        table->pack32[width](in.data(), packed.data(), count);
        ASSERT_EQ(packed, expected) << table->name << " width " << width << " count " << count;
        std::vector<uint32_t> unpacked(count);
        table->unpack32[width](expected.data(), unpacked.data(), count);
        ASSERT_EQ(unpacked, in) << table->name << " width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, Lsb64MatchesReferenceForEveryWidth) {
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 64; ++width) {
      for (size_t count : kCounts) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 104729 + count);
        const std::vector<uint8_t> expected = ReferencePackLsb(values, width);
        std::vector<uint8_t> packed(expected.size());
        table->pack64[width](values.data(), packed.data(), count);
        ASSERT_EQ(packed, expected) << table->name << " width " << width << " count " << count;
        std::vector<uint64_t> unpacked(count);
        table->unpack64[width](expected.data(), unpacked.data(), count);
        ASSERT_EQ(unpacked, values) << table->name << " width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, MsbMatchesReferenceForEveryWidth) {
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : kCounts) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 31 + count);
        const std::vector<uint8_t> expected = ReferencePackMsb(values, width);
        std::vector<uint32_t> in(values.begin(), values.end());
        std::vector<uint8_t> packed(expected.size());
        table->pack32_msb[width](in.data(), packed.data(), count);
        ASSERT_EQ(packed, expected) << table->name << " width " << width << " count " << count;
        std::vector<uint32_t> unpacked(count);
        table->unpack32_msb[width](expected.data(), unpacked.data(), count);
        ASSERT_EQ(unpacked, in) << table->name << " width " << width << " count " << count;
      }
    }
  }
}

// ORC's integer RLE v2 packs up to 64 bits MSB first; values wider than 56 bits straddle nine
// bytes, which the 32-bit kernels never meet.
TEST(BitPackingTest, Msb64MatchesReferenceForEveryWidth) {
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 64; ++width) {
      for (size_t count : kCounts) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 7919 + count);
        const std::vector<uint8_t> expected = ReferencePackMsb(values, width);
        std::vector<uint8_t> packed(expected.size());
        table->pack64_msb[width](values.data(), packed.data(), count);
        ASSERT_EQ(packed, expected) << table->name << " width " << width << " count " << count;
        std::vector<uint64_t> unpacked(count);
        table->unpack64_msb[width](expected.data(), unpacked.data(), count);
        ASSERT_EQ(unpacked, values) << table->name << " width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, PackIgnoresBitsAboveTheWidth) {
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width < 32; ++width) {
      std::vector<uint32_t> noisy(32, 0xFFFFFFFFu);
      std::vector<uint8_t> packed(4 * width);
      table->pack32[width](noisy.data(), packed.data(), 32);
      std::vector<uint32_t> unpacked(32);
      table->unpack32[width](packed.data(), unpacked.data(), 32);
      for (uint32_t v : unpacked) ASSERT_EQ(v, width == 0 ? 0u : (1u << width) - 1) << table->name;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The SIMD tables against the scalar table, and the exact-range contract in Release builds too.

// The tables of the tiers this run may use above scalar (PQPAGE_SIMD_TIER caps them).
std::vector<const BitPackingKernels*> SimdTables() {
  std::vector<const BitPackingKernels*> tables = AllTables();
  tables.erase(tables.begin());
  return tables;
}

// Every count from 0 to 8 * 80 in steps of 8: all positions of the scalar tail after the vector
// loop (the vector loops stop up to 16 groups before the end for small widths) and every
// remainder modulo 32.
std::vector<size_t> AllCountsUpTo640() {
  std::vector<size_t> counts;
  for (size_t c = 0; c <= 640; c += 8) counts.push_back(c);
  return counts;
}

std::vector<uint8_t> RandomBytes(size_t size, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> bytes(size);
  for (auto& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

TEST(BitPackingTest, SimdUnpack32IsValueIdenticalToScalar) {
  if (SimdTables().empty()) GTEST_SKIP() << "no SIMD tier on this CPU (or PQPAGE_SIMD_TIER)";
  const BitPackingKernels& scalar = ScalarBitPackingKernels();
  for (const BitPackingKernels* simd : SimdTables()) {
    const BitPackingKernels& twin = *simd;
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        // Arbitrary bytes, not only what a packer writes: every bit of the input is significant.
        const std::vector<uint8_t> packed = RandomBytes(count * width / 8, width * 1000 + count);
        std::vector<uint32_t> expected(count);
        std::vector<uint32_t> actual(count);
        scalar.unpack32[width](packed.data(), expected.data(), count);
        twin.unpack32[width](packed.data(), actual.data(), count);
        ASSERT_EQ(actual, expected) << twin.name << " width " << width << " count " << count;
        // And the MSB entries, which the SIMD tables take from the scalar kernels.
        scalar.unpack32_msb[width](packed.data(), expected.data(), count);
        twin.unpack32_msb[width](packed.data(), actual.data(), count);
        ASSERT_EQ(actual, expected) << twin.name << " msb width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, SimdPack32IsByteIdenticalToScalar) {
  if (SimdTables().empty()) GTEST_SKIP() << "no SIMD tier on this CPU (or PQPAGE_SIMD_TIER)";
  const BitPackingKernels& scalar = ScalarBitPackingKernels();
  std::mt19937 rng(42);
  for (const BitPackingKernels* simd : SimdTables()) {
    const BitPackingKernels& twin = *simd;
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        // Full 32-bit values: the bits above the width must be ignored by both tables alike.
        std::vector<uint32_t> values(count);
        for (auto& v : values) v = static_cast<uint32_t>(rng());
        std::vector<uint8_t> expected(count * width / 8);
        std::vector<uint8_t> actual(count * width / 8);
        scalar.pack32[width](values.data(), expected.data(), count);
        twin.pack32[width](values.data(), actual.data(), count);
        ASSERT_EQ(actual, expected) << twin.name << " width " << width << " count " << count;
        scalar.pack32_msb[width](values.data(), expected.data(), count);
        twin.pack32_msb[width](values.data(), actual.data(), count);
        ASSERT_EQ(actual, expected) << twin.name << " msb width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, SimdUnpack64AndPack64AreIdenticalToScalar) {
  if (SimdTables().empty()) GTEST_SKIP() << "no SIMD tier on this CPU (or PQPAGE_SIMD_TIER)";
  const BitPackingKernels& scalar = ScalarBitPackingKernels();
  std::mt19937_64 rng(7);
  for (const BitPackingKernels* simd : SimdTables()) {
    const BitPackingKernels& twin = *simd;
    for (int width = 0; width <= 64; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        const std::vector<uint8_t> packed = RandomBytes(count * width / 8, width * 777 + count);
        std::vector<uint64_t> expected(count);
        std::vector<uint64_t> actual(count);
        scalar.unpack64[width](packed.data(), expected.data(), count);
        twin.unpack64[width](packed.data(), actual.data(), count);
        ASSERT_EQ(actual, expected) << twin.name << " width " << width << " count " << count;

        std::vector<uint64_t> values(count);
        for (auto& v : values) v = rng();
        std::vector<uint8_t> expected_bytes(count * width / 8);
        std::vector<uint8_t> actual_bytes(count * width / 8);
        scalar.pack64[width](values.data(), expected_bytes.data(), count);
        twin.pack64[width](values.data(), actual_bytes.data(), count);
        ASSERT_EQ(actual_bytes, expected_bytes)
            << twin.name << " width " << width << " count " << count;
      }
    }
  }
}

// Input at every byte offset and output at every 4-byte offset within a 32-byte line, so no kernel
// relies on vector alignment.
TEST(BitPackingTest, UnalignedPointers) {
  constexpr size_t kCount = 136;  // 4 blocks of 32 and a tail of 8
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      const std::vector<uint64_t> values = RandomValues(kCount, width, width + 5);
      const std::vector<uint8_t> expected = ReferencePackLsb(values, width);
      const std::vector<uint32_t> in32(values.begin(), values.end());
      for (size_t offset = 0; offset < 32; ++offset) {
        // Exact end of the buffer at the end of the packed bytes, for the sanitizer run.
        std::vector<uint8_t> input(offset + expected.size());
        std::copy(expected.begin(), expected.end(), input.begin() + offset);
        std::vector<uint32_t> output(offset % 8 + kCount);
        table->unpack32[width](input.data() + offset, output.data() + offset % 8, kCount);
        ASSERT_EQ(std::vector<uint32_t>(output.begin() + offset % 8, output.end()), in32)
            << table->name << " width " << width << " offset " << offset;

        std::vector<uint32_t> unpacked_source(offset % 8 + kCount);
        std::copy(in32.begin(), in32.end(), unpacked_source.begin() + offset % 8);
        std::vector<uint8_t> packed(offset + expected.size());
        table->pack32[width](unpacked_source.data() + offset % 8, packed.data() + offset, kCount);
        ASSERT_EQ(std::vector<uint8_t>(packed.begin() + offset, packed.end()), expected)
            << table->name << " width " << width << " offset " << offset;
      }
    }
  }
}

// Writes: guard values around the output must survive, for every count up to 640.
TEST(BitPackingTest, WritesStayInsideTheExactRange) {
  constexpr size_t kGuard = 64;
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 3 + count);
        const std::vector<uint32_t> in32(values.begin(), values.end());
        const size_t bytes = count * width / 8;
        std::vector<uint8_t> packed(bytes + 2 * kGuard, 0xA5);
        table->pack32[width](in32.data(), packed.data() + kGuard, count);
        for (size_t i = 0; i < kGuard; ++i) {
          ASSERT_EQ(packed[i], 0xA5) << table->name << " width " << width << " count " << count;
          ASSERT_EQ(packed[kGuard + bytes + i], 0xA5)
              << table->name << " width " << width << " count " << count;
        }
        std::vector<uint32_t> unpacked(count + 2 * kGuard, 0xDEADBEEF);
        table->unpack32[width](packed.data() + kGuard, unpacked.data() + kGuard, count);
        for (size_t i = 0; i < kGuard; ++i) {
          ASSERT_EQ(unpacked[i], 0xDEADBEEF) << table->name << " width " << width;
          ASSERT_EQ(unpacked[kGuard + count + i], 0xDEADBEEF) << table->name << " width " << width;
        }
        ASSERT_EQ(std::vector<uint32_t>(unpacked.begin() + kGuard, unpacked.end() - kGuard), in32)
            << table->name << " width " << width << " count " << count;
      }
    }
  }
}

// Reads: the packed bytes end exactly where an inaccessible page begins, so a kernel that reads one
// byte past count * w / 8 faults, in Release builds as well as under the sanitizer.
class GuardPage {
 public:
  GuardPage() {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    size_ = (kCapacity + page_ - 1) / page_ * page_;
    void* memory =
        mmap(nullptr, size_ + page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;
    base_ = static_cast<uint8_t*>(memory);
    if (mprotect(base_ + size_, page_, PROT_NONE) != 0) {
      munmap(base_, size_ + page_);
      base_ = nullptr;
    }
  }
  ~GuardPage() {
    if (base_ != nullptr) munmap(base_, size_ + page_);
  }
  GuardPage(const GuardPage&) = delete;
  GuardPage& operator=(const GuardPage&) = delete;

  bool ok() const { return base_ != nullptr; }
  size_t capacity() const { return size_; }
  // A buffer of `size` bytes whose last byte is the last accessible one.
  uint8_t* BufferEndingAtGuard(size_t size) { return base_ + size_ - size; }

 private:
  static constexpr size_t kCapacity = 640 * 64 / 8;  // the largest count * width / 8 tested
  size_t page_ = 0;
  size_t size_ = 0;
  uint8_t* base_ = nullptr;
};

TEST(BitPackingTest, UnpackNeverReadsPastTheLastPackedByte) {
  GuardPage guard;
  ASSERT_TRUE(guard.ok());
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        const size_t bytes = count * width / 8;
        ASSERT_LE(bytes, guard.capacity());
        const std::vector<uint8_t> packed = RandomBytes(bytes, width + count);
        uint8_t* in = guard.BufferEndingAtGuard(bytes);
        if (bytes > 0) std::memcpy(in, packed.data(), bytes);
        std::vector<uint32_t> actual(count);
        std::vector<uint32_t> expected(count);
        table->unpack32[width](in, actual.data(), count);
        ScalarBitPackingKernels().unpack32[width](packed.data(), expected.data(), count);
        ASSERT_EQ(actual, expected) << table->name << " width " << width << " count " << count;
        table->unpack32_msb[width](in, actual.data(), count);
      }
    }
    for (int width = 0; width <= 64; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        const size_t bytes = count * width / 8;
        ASSERT_LE(bytes, guard.capacity());
        const std::vector<uint8_t> packed = RandomBytes(bytes, width + count);
        uint8_t* in = guard.BufferEndingAtGuard(bytes);
        if (bytes > 0) std::memcpy(in, packed.data(), bytes);
        std::vector<uint64_t> actual(count);
        std::vector<uint64_t> expected(count);
        table->unpack64[width](in, actual.data(), count);
        ScalarBitPackingKernels().unpack64[width](packed.data(), expected.data(), count);
        ASSERT_EQ(actual, expected) << table->name << " width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, PackNeverWritesPastTheLastPackedByte) {
  GuardPage guard;
  ASSERT_TRUE(guard.ok());
  for (const BitPackingKernels* table : AllTables()) {
    for (int width = 0; width <= 32; ++width) {
      for (size_t count : AllCountsUpTo640()) {
        const std::vector<uint64_t> values = RandomValues(count, width, width * 11 + count);
        const std::vector<uint32_t> in32(values.begin(), values.end());
        const size_t bytes = count * width / 8;
        uint8_t* out = guard.BufferEndingAtGuard(bytes);
        table->pack32[width](in32.data(), out, count);
        ASSERT_EQ(std::vector<uint8_t>(out, out + bytes), ReferencePackLsb(values, width))
            << table->name << " width " << width << " count " << count;
      }
    }
  }
}

TEST(BitPackingTest, DispatchPicksATable) {
  const BitPackingKernels& chosen = BitPacking();
  EXPECT_STREQ(chosen.name, SimdTierName(ActiveSimdTier()));
}

}  // namespace
}  // namespace pqpage::internal
