// The 5-bit width codes of ORC's integer RLE version 2. A code 0..23 stands for 1..24 bits, and
// 24..31 for 26, 28, 30, 32, 40, 48, 56 and 64 bits; in a DELTA run code 0 stands for 0 bits (a
// fixed delta) instead of 1. The spec's table lists these widths with some marked deprecated for
// writers that align to whole bytes; readers accept every code, and pqpage's writer uses every
// width, as ORC's own writers do by default, because the narrowest width is the smallest output.
// tests/orc_integer_rle_v2_test.cc re-derives the spec's table from the seed and checks it here.
#ifndef PQPAGE_ORC_RLE_V2_WIDTHS_H_
#define PQPAGE_ORC_RLE_V2_WIDTHS_H_

#include <cstdint>

namespace pqpage::orc::internal {

// The width a code stands for in a DIRECT or PATCHED_BASE run (and for a patch width): 1..64.
constexpr int DecodeRleV2Width(int code) {
  constexpr int kWideWidths[8] = {26, 28, 30, 32, 40, 48, 56, 64};
  return code < 24 ? code + 1 : kWideWidths[(code - 24) & 7];
}

// The width a code stands for in a DELTA run: 0 for code 0, else as DecodeRleV2Width.
constexpr int DecodeRleV2DeltaWidth(int code) { return code == 0 ? 0 : DecodeRleV2Width(code); }

// The narrowest width a code can stand for that holds `bits` bits (0 gives 1).
constexpr int ClosestRleV2Width(int bits) {
  if (bits <= 1) return 1;
  if (bits <= 24) return bits;
  if (bits <= 32) return (bits + 1) & ~1;  // 26, 28, 30, 32
  return (bits + 7) & ~7;                  // 40, 48, 56, 64
}

// The code of a width ClosestRleV2Width can return (1..24, 26, 28, 30, 32, 40, 48, 56, 64).
constexpr int EncodeRleV2Width(int width) {
  if (width <= 24) return width - 1;
  if (width <= 32) return 24 + (width - 26) / 2;
  return 28 + (width - 40) / 8;
}

// Bits needed to write `value` (0 for 0).
constexpr int BitsNeeded(uint64_t value) { return value == 0 ? 0 : 64 - __builtin_clzll(value); }

}  // namespace pqpage::orc::internal

#endif  // PQPAGE_ORC_RLE_V2_WIDTHS_H_
