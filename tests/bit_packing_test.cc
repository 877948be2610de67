// The bit-packing kernel table against a bit-by-bit reference built from the spec's definition of
// each bit order, for every width, both directions, and counts that are not multiples of 32; the
// scalar and AVX2 tables must agree byte for byte and value for value.
#include "bitpack/bit_packing.h"

#include <gtest/gtest.h>

#include <cstdint>
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

// Reference MSB packing: the stream is one big-endian bit string, each value most significant first.
std::vector<uint8_t> ReferencePackMsb(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out((values.size() * width + 7) / 8, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    for (int b = 0; b < width; ++b) {
      const size_t bit = i * width + b;
      if ((values[i] >> (width - 1 - b)) & 1) out[bit / 8] |= static_cast<uint8_t>(0x80u >> (bit % 8));
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
  const CpuFeatures& cpu = GetCpuFeatures();
  if (cpu.avx2 && cpu.bmi2) tables.push_back(&Avx2BitPackingKernels());
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

TEST(BitPackingTest, DispatchPicksATable) {
  const BitPackingKernels& chosen = BitPacking();
  const CpuFeatures& cpu = GetCpuFeatures();
  EXPECT_STREQ(chosen.name, cpu.avx2 && cpu.bmi2 ? "avx2" : "scalar");
}

}  // namespace
}  // namespace pqpage::internal
