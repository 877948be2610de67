#include "page/read/level_decoder.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codec/bitmap_writer.h"

namespace pqpage::internal {

int LevelBitWidth(int16_t max_level) {
  int width = 0;
  while (width < 16 && (1 << width) <= max_level) ++width;
  return width;
}

absl::Status LevelDecoder::Reset(Encoding encoding, absl::Span<const uint8_t> data,
                                 int16_t max_level, int64_t num_levels,
                                 BitPackedOrder bit_packed_order) {
  encoding_ = encoding;
  max_level_ = max_level;
  const int width = LevelBitWidth(max_level);
  switch (encoding) {
    case Encoding::kRle:
      return hybrid_.Reset(data, width, num_levels);
    case Encoding::kBitPacked:
      return bit_packed_.Reset(data, width, num_levels, bit_packed_order);
    default:
      return absl::UnimplementedError(
          absl::StrCat("levels encoded as ", EncodingName(encoding).data(), " are not defined"));
  }
}

absl::StatusOr<int64_t> LevelDecoder::Decode(absl::Span<int16_t> out, int16_t counted_level) {
  if (out.empty()) return 0;
  if (encoding_ == Encoding::kBitPacked) {
    return bit_packed_.DecodeCounting(out, max_level_, counted_level);
  }
  return hybrid_.DecodeLevelsCounting(out, max_level_, counted_level);
}

absl::StatusOr<int64_t> LevelDecoder::CountMaxLevels() {
  if (encoding_ == Encoding::kRle) return hybrid_.CountMaxLevels(max_level_);
  int16_t scratch[4096];
  int64_t count = 0;
  for (;;) {
    const int64_t left =
        encoding_ == Encoding::kBitPacked ? bit_packed_.values_left() : hybrid_.values_left();
    if (left == 0) return count;
    const size_t batch = static_cast<size_t>(std::min<int64_t>(left, std::size(scratch)));
    absl::StatusOr<int64_t> counted = Decode(absl::MakeSpan(scratch, batch), max_level_);
    if (!counted.ok()) return counted.status();
    count += *counted;
  }
}

void LevelsToBits(const int16_t* levels, int64_t count, int16_t max, uint8_t* bitmap,
                  int64_t bit_offset) {
  for (int64_t i = 0; i < count; ++i) FillBits(bitmap, bit_offset + i, 1, levels[i] == max);
}

absl::StatusOr<int64_t> LevelDecoder::DecodeToBitmap(uint8_t* bitmap, int64_t bit_offset,
                                                     int64_t count) {
  if (encoding_ == Encoding::kRle && max_level_ == 1) {
    return hybrid_.DecodeToBitmap(bitmap, bit_offset, count);
  }
  // Other sections: through levels, a block at a time.
  int16_t levels[1024];
  int64_t set = 0;
  for (int64_t done = 0; done < count;) {
    const auto batch = static_cast<size_t>(std::min<int64_t>(count - done, std::size(levels)));
    absl::StatusOr<int64_t> counted = Decode(absl::MakeSpan(levels, batch), max_level_);
    if (!counted.ok()) return counted.status();
    LevelsToBits(levels, static_cast<int64_t>(batch), max_level_, bitmap, bit_offset + done);
    set += *counted;
    done += static_cast<int64_t>(batch);
  }
  return set;
}

}  // namespace pqpage::internal
