#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "codec/value_request.h"
#include "common/byte_reader.h"
#include "orc/msb_packing.h"
#include "orc/rle_v2_widths.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/varint.h"
#include "pqpage/status_macros.h"

namespace pqpage::orc {

using internal::DecodeRleV2DeltaWidth;
using internal::DecodeRleV2Width;
using internal::PackedBytes;
using internal::UnpackMsb64;

namespace {

constexpr char kIntegerRleV2[] = "ORC integer RLE v2";

enum class RunKind : uint8_t { kShortRepeat = 0, kDirect = 1, kPatchedBase = 2, kDelta = 3 };

constexpr int kMaxPatches = 31;

uint64_t ReadBigEndian(const uint8_t* bytes, int count) {
  uint64_t value = 0;
  for (int i = 0; i < count; ++i) value = value << 8 | bytes[i];
  return value;
}

}  // namespace

// What a run's header says, with where its parts lie relative to the run's first byte.
struct IntegerRleV2Decoder::Run {
  RunKind kind = RunKind::kDirect;
  int length = 0;        // values
  int width = 0;         // bits of each packed value (a DELTA run: of each delta magnitude)
  size_t bytes = 0;      // the whole run
  size_t packed_at = 0;  // the packed values (deltas)
  uint64_t first = 0;    // SHORT_REPEAT: the value; DELTA: the first value; PATCHED_BASE: base
  int64_t delta = 0;     // DELTA: the first delta
  int patch_width = 0;   // PATCHED_BASE
  int patch_entry_width = 0;
  int patch_count = 0;
  size_t patches_at = 0;
};

absl::Status IntegerRleV2Decoder::Reset(absl::Span<const uint8_t> data, int64_t num_values) {
  values_left_ = 0;
  buffered_size_ = buffered_next_ = 0;
  if (num_values < 0) {
    return absl::InvalidArgumentError(absl::StrCat("ORC integer RLE v2: ", num_values, " values"));
  }
  data_ = data;
  position_ = 0;
  values_left_ = num_values;
  return absl::OkStatus();
}

absl::Status IntegerRleV2Decoder::ReadRunHeader(Run* run) const {
  const uint8_t* at = data_.data() + position_;
  const size_t available = data_.size() - position_;
  const int64_t unparsed = values_left_ - (buffered_size_ - buffered_next_);
  if (available == 0) {
    return absl::DataLossError(absl::StrCat("ORC integer RLE v2: the stream ends with ", unparsed,
                                            " values still to read"));
  }
  auto truncated = [&](const char* kind, size_t needed) {
    return absl::DataLossError(absl::StrCat("ORC integer RLE v2: a ", kind, " run at byte ",
                                            position_, " needs ", needed, " bytes, ", available,
                                            " are left"));
  };
  run->kind = static_cast<RunKind>(at[0] >> 6);
  if (run->kind == RunKind::kShortRepeat) {
    const int value_bytes = ((at[0] >> 3) & 7) + 1;
    run->length = (at[0] & 7) + 3;
    run->bytes = 1 + static_cast<size_t>(value_bytes);
    if (available < run->bytes) return truncated("SHORT_REPEAT", run->bytes);
    run->first = ReadBigEndian(at + 1, value_bytes);
    if (signed_) run->first = static_cast<uint64_t>(pqpage::internal::ZigZagDecode(run->first));
  } else {
    if (available < 2) return truncated("header of a", 2);
    const int code = (at[0] >> 1) & 0x1F;
    run->length = ((at[0] & 1) << 8 | at[1]) + 1;
    if (run->kind == RunKind::kDirect) {
      run->width = DecodeRleV2Width(code);
      run->packed_at = 2;
      run->bytes = 2 + PackedBytes(run->length, run->width);
      if (available < run->bytes) return truncated("DIRECT", run->bytes);
    } else if (run->kind == RunKind::kPatchedBase) {
      run->width = DecodeRleV2Width(code);
      if (available < 4) return truncated("PATCHED_BASE", 4);
      const int base_bytes = (at[2] >> 5) + 1;
      run->patch_width = DecodeRleV2Width(at[2] & 0x1F);
      const int gap_width = (at[3] >> 5) + 1;
      run->patch_count = at[3] & 0x1F;
      if (run->patch_width + gap_width > 64) {
        return absl::DataLossError(absl::StrCat(
            "ORC integer RLE v2: a PATCHED_BASE run at byte ", position_, " has patches of ",
            run->patch_width, " bits and gaps of ", gap_width, " bits, over 64 together"));
      }
      run->patch_entry_width = internal::ClosestRleV2Width(run->patch_width + gap_width);
      run->packed_at = 4 + static_cast<size_t>(base_bytes);
      run->patches_at = run->packed_at + PackedBytes(run->length, run->width);
      run->bytes = run->patches_at + PackedBytes(run->patch_count, run->patch_entry_width);
      if (available < run->bytes) return truncated("PATCHED_BASE", run->bytes);
      // The base is sign and magnitude: its top bit is the sign.
      const uint64_t raw = ReadBigEndian(at + 4, base_bytes);
      const uint64_t sign = uint64_t{1} << (8 * base_bytes - 1);
      run->first = (raw & sign) != 0 ? 0 - (raw & ~sign) : raw;
    } else {
      run->width = DecodeRleV2DeltaWidth(code);
      size_t varints_at = position_ + 2;
      if (signed_) {
        PQPAGE_ASSIGN_OR_RETURN(const int64_t first, ReadSignedVarint(data_, &varints_at));
        run->first = static_cast<uint64_t>(first);
      } else {
        PQPAGE_ASSIGN_OR_RETURN(run->first, ReadVarint(data_, &varints_at));
      }
      PQPAGE_ASSIGN_OR_RETURN(run->delta, ReadSignedVarint(data_, &varints_at));
      if (run->width > 0 && run->length < 2) {
        return absl::DataLossError(absl::StrCat("ORC integer RLE v2: a DELTA run at byte ",
                                                position_, " of 1 value with deltas of ",
                                                run->width, " bits"));
      }
      run->packed_at = varints_at - position_;
      run->bytes = run->packed_at + (run->width > 0 ? PackedBytes(run->length - 2, run->width) : 0);
      if (available < run->bytes) return truncated("DELTA", run->bytes);
    }
  }
  if (run->length > unparsed) {
    return absl::DataLossError(absl::StrCat("ORC integer RLE v2: a run of ", run->length,
                                            " values at byte ", position_, " where ", unparsed,
                                            " are left"));
  }
  return absl::OkStatus();
}

absl::Status IntegerRleV2Decoder::DecodeRun(const Run& run, int64_t* out) const {
  const uint8_t* at = data_.data() + position_;
  auto* bits = reinterpret_cast<uint64_t*>(out);
  const auto length = static_cast<size_t>(run.length);
  switch (run.kind) {
    case RunKind::kShortRepeat:
      std::fill(out, out + length, static_cast<int64_t>(run.first));
      break;
    case RunKind::kDirect:
      UnpackMsb64(at + run.packed_at, length, run.width, bits);
      if (signed_) {
        for (size_t i = 0; i < length; ++i) out[i] = pqpage::internal::ZigZagDecode(bits[i]);
      }
      break;
    case RunKind::kPatchedBase: {
      UnpackMsb64(at + run.packed_at, length, run.width, bits);
      uint64_t entries[kMaxPatches];
      UnpackMsb64(at + run.patches_at, static_cast<size_t>(run.patch_count), run.patch_entry_width,
                  entries);
      // ReadRunHeader holds patch_width + gap width to 64, and a gap has at least 1 bit.
      const uint64_t patch_mask = (uint64_t{1} << run.patch_width) - 1;
      size_t index = 0;
      for (int i = 0; i < run.patch_count; ++i) {
        // The gap sits above the patch; a gap of 255 with a zero patch only moves on 255 values.
        const uint64_t gap = entries[i] >> run.patch_width;
        const uint64_t patch = entries[i] & patch_mask;
        index += gap;
        if (gap == 255 && patch == 0) continue;
        if (index >= length) {
          return absl::DataLossError(absl::StrCat("ORC integer RLE v2: a patch at value ", index,
                                                  " of a PATCHED_BASE run of ", length,
                                                  " values, at byte ", position_));
        }
        // Patch bits that would land above bit 63 do not exist in a 64-bit value.
        if (run.width < 64) bits[index] |= patch << run.width;
      }
      for (size_t i = 0; i < length; ++i) bits[i] += run.first;
      break;
    }
    case RunKind::kDelta: {
      const auto delta = static_cast<uint64_t>(run.delta);
      if (run.width == 0) {
        uint64_t value = run.first;
        for (size_t i = 0; i < length; ++i, value += delta) bits[i] = value;
        break;
      }
      UnpackMsb64(at + run.packed_at, length - 2, run.width, bits + 2);
      bits[0] = run.first;
      bits[1] = run.first + delta;
      if (run.delta < 0) {
        for (size_t i = 2; i < length; ++i) bits[i] = bits[i - 1] - bits[i];
      } else {
        for (size_t i = 2; i < length; ++i) bits[i] += bits[i - 1];
      }
      break;
    }
  }
  return absl::OkStatus();
}

template <bool kStore>
absl::Status IntegerRleV2Decoder::Take(int64_t* out, int64_t count) {
  const int from_buffer =
      static_cast<int>(std::min<int64_t>(count, buffered_size_ - buffered_next_));
  if constexpr (kStore) {
    if (from_buffer > 0) {
      std::memcpy(out, buffered_ + buffered_next_, from_buffer * sizeof(int64_t));
      out += from_buffer;
    }
  }
  buffered_next_ += from_buffer;
  values_left_ -= from_buffer;
  int64_t left = count - from_buffer;
  while (left > 0) {
    Run run;
    PQPAGE_RETURN_IF_ERROR(ReadRunHeader(&run));
    if (run.length <= left) {
      // A whole run: straight into the output, or passed over by its header alone.
      if constexpr (kStore) {
        PQPAGE_RETURN_IF_ERROR(DecodeRun(run, out));
        out += run.length;
      }
      values_left_ -= run.length;
      left -= run.length;
    } else {
      PQPAGE_RETURN_IF_ERROR(DecodeRun(run, buffered_));
      if constexpr (kStore) {
        std::memcpy(out, buffered_, static_cast<size_t>(left) * sizeof(int64_t));
      }
      buffered_size_ = run.length;
      buffered_next_ = static_cast<int>(left);
      values_left_ -= left;
      left = 0;
    }
    position_ += run.bytes;
  }
  return absl::OkStatus();
}

absl::Status IntegerRleV2Decoder::Decode(absl::Span<int64_t> out) {
  PQPAGE_RETURN_IF_ERROR(
      pqpage::internal::CheckValueRequest(kIntegerRleV2, out.size(), values_left_));
  return Take</*kStore=*/true>(out.data(), static_cast<int64_t>(out.size()));
}

absl::Status IntegerRleV2Decoder::Skip(int64_t count) {
  PQPAGE_RETURN_IF_ERROR(pqpage::internal::CheckValueRequest(kIntegerRleV2, count, values_left_));
  return Take</*kStore=*/false>(nullptr, count);
}

}  // namespace pqpage::orc
