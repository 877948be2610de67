// Reads one level section of a data page (repetition or definition levels), in either encoding the
// format has used for them: the RLE/bit-packed hybrid, or the deprecated BIT_PACKED of old
// writers. Levels are decoded in batches into the caller's buffer, so a page announcing billions
// of levels in a few bytes of RLE never makes the reader allocate for them.
#ifndef PQPAGE_PAGE_READ_LEVEL_DECODER_H_
#define PQPAGE_PAGE_READ_LEVEL_DECODER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/bit_packed.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/types.h"

namespace pqpage::internal {

// Bits needed to store levels up to `max_level`.
int LevelBitWidth(int16_t max_level);

// Sets bit (bit_offset + i) of `bitmap` (LSB first) where levels[i] == max and clears it
// elsewhere, for i in [0, count); the bitmap's other bits are left as they were.
void LevelsToBits(const int16_t* levels, int64_t count, int16_t max, uint8_t* bitmap,
                  int64_t bit_offset);

class LevelDecoder {
 public:
  // Starts a section of `num_levels` levels at most `max_level`, in `encoding` (RLE: the bare
  // hybrid stream; BIT_PACKED: packed in `bit_packed_order`). `data` may run past the section.
  // Unimplemented for other encodings.
  absl::Status Reset(Encoding encoding, absl::Span<const uint8_t> data, int16_t max_level,
                     int64_t num_levels,
                     BitPackedOrder bit_packed_order = BitPackedOrder::kMostSignificantFirst);

  // Decodes exactly out.size() levels and returns how many equal `counted_level` (counted as they
  // are decoded, run by run); DataLoss for a level above the maximum or a section that ends early.
  absl::StatusOr<int64_t> Decode(absl::Span<int16_t> out, int16_t counted_level);

  // Decodes every remaining level without keeping them and returns how many equal the maximum (the
  // present values, for definition levels). Leaves the decoder exhausted.
  absl::StatusOr<int64_t> CountMaxLevels();

  // Decodes the next `count` levels as bits of `bitmap` from bit `bit_offset` on (LSB first): set
  // where the level is the maximum, cleared elsewhere; the bitmap's other bits are left as they
  // were. Width-1 RLE sections (a maximum of 1) go straight from their runs to the bits.
  // @return how many bits were set; DataLoss as Decode.
  absl::StatusOr<int64_t> DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t count);

 private:
  Encoding encoding_ = Encoding::kRle;
  int16_t max_level_ = 0;
  RleBitPackedHybridDecoder hybrid_;
  BitPackedLevelDecoder bit_packed_;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_READ_LEVEL_DECODER_H_
