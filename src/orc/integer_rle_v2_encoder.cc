#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "common/byte_reader.h"
#include "orc/msb_packing.h"
#include "orc/rle_v2_widths.h"
#include "pqpage/orc/integer_rle_v2.h"
#include "pqpage/orc/varint.h"

namespace pqpage::orc {

using internal::AppendPackedMsb64;
using internal::BitsNeeded;
using internal::ClosestRleV2Width;
using internal::EncodeRleV2Width;
using internal::PackedBytes;

namespace {

constexpr size_t kMaxRun = 512;
constexpr size_t kMinRepeat = 3;
constexpr size_t kMaxShortRepeat = 10;
constexpr size_t kMaxPatchEntries = 31;
// Put encodes once this many values wait, keeping the last kMaxRun for runs still open.
constexpr size_t kEncodeAt = 2 * kMaxRun;

// The widths a code can stand for, narrowest first.
constexpr std::array<int, 32> kCodedWidths = [] {
  std::array<int, 32> widths{};
  for (int code = 0; code < 32; ++code) widths[code] = internal::DecodeRleV2Width(code);
  return widths;
}();

inline uint64_t Minus(int64_t a, int64_t b) {
  return static_cast<uint64_t>(a) - static_cast<uint64_t>(b);
}

// A PATCHED_BASE layout for one data width: the patch list entries and their widths.
struct PatchPlan {
  size_t bytes = 0;  // the whole run
  int width = 0;
  int patch_width = 0;
  int gap_width = 0;
  int entry_width = 0;
  size_t entries = 0;
};

// The patch list entries of the values of `outliers` (IntegerRleV2Encoder::Outlier, in index
// order) wider than `width`: the gap from the
// previous patch, split into fillers (gap 255, patch 0) where over 255. Calls emit(gap, index) for
// every entry (index < 0 for a filler). Returns false as soon as there would be more than
// kMaxPatchEntries entries.
template <typename Outliers, typename Emit>
bool ForEachPatchEntry(const Outliers& outliers, int width, Emit emit) {
  size_t entries = 0;
  size_t previous = 0;
  for (const auto& outlier : outliers) {
    if (outlier.bits <= width) continue;
    size_t gap = outlier.index - previous;
    while (gap > 255) {
      if (++entries > kMaxPatchEntries) return false;
      emit(255, -1);
      gap -= 255;
    }
    if (++entries > kMaxPatchEntries) return false;
    emit(gap, static_cast<int64_t>(outlier.index));
    previous = outlier.index;
  }
  return true;
}

}  // namespace

absl::Status IntegerRleV2Encoder::Put(absl::Span<const int64_t> values) {
  while (!values.empty()) {
    const size_t take = std::min(values.size(), kEncodeAt + kMaxRun - pending_.size());
    pending_.insert(pending_.end(), values.begin(), values.begin() + take);
    values.remove_prefix(take);
    if (pending_.size() >= kEncodeAt + kMaxRun) EncodePending(false);
  }
  return absl::OkStatus();
}

size_t IntegerRleV2Encoder::EstimatedSize() const {
  // At worst every pending value is a 64-bit DIRECT value, with a header per run.
  const size_t runs = (pending_.size() + kMaxRun - 1) / kMaxRun;
  return out_.size() + pending_.size() * 8 + runs * 2;
}

void IntegerRleV2Encoder::FinishInto(std::vector<uint8_t>* out) {
  EncodePending(true);
  out->insert(out->end(), out_.begin(), out_.end());
  out_.clear();
}

namespace {

// How many values, at most kMaxRun, the next window of `values` takes, `available` > 0 of them
// known: a window never ends inside a run of equal values, which would cut the run in two.
size_t WindowLength(const int64_t* values, size_t available) {
  const size_t length = std::min(kMaxRun, available);
  if (length == available || values[length - 1] != values[length]) return length;
  size_t run_start = length - 1;
  while (run_start > 0 && values[run_start - 1] == values[run_start]) --run_start;
  return run_start > 0 ? run_start : length;  // else one run of equal values fills the window
}

// Cuts `count` values into runs of at least kMinRepeat equal values and the stretches between,
// calling emit(is_repeat, start, length) for each in order.
template <typename Emit>
void ForEachRun(const int64_t* values, size_t count, Emit emit) {
  size_t literals = 0;
  size_t position = 0;
  while (position < count) {
    size_t run = 1;
    while (position + run < count && values[position + run] == values[position]) ++run;
    if (run >= kMinRepeat) {
      if (literals < position) emit(false, literals, position - literals);
      emit(true, position, run);
      literals = position + run;
    }
    position += run;
  }
  if (literals < count) emit(false, literals, count - literals);
}

}  // namespace

size_t IntegerRleV2Encoder::RepeatBytes(int64_t value, size_t count) const {
  const uint64_t stored =
      signed_ ? pqpage::internal::ZigZagEncode(value) : static_cast<uint64_t>(value);
  if (count <= kMaxShortRepeat) return 1 + std::max(1, (BitsNeeded(stored) + 7) / 8);
  return 2 + VarintSize(stored) + 1;
}

void IntegerRleV2Encoder::EncodePending(bool final) {
  const int64_t* values = pending_.data();
  const size_t count = pending_.size();
  size_t done = 0;
  // Without `final`, stop where a window could still change with values not yet put (a window
  // looks one value past its end).
  while (done < count && (final || done + kMaxRun < count)) {
    const int64_t* window = values + done;
    const size_t length = WindowLength(window, count - done);
    // Three ways to write the window, the smallest taken: as one run; cut at its repeats; or, when
    // it opens with equal values, those but the last as a run of their own and the rest as one
    // run, which then starts with two different values, as a DELTA run must (in rising values
    // with repeats, such as clock times, that is one DELTA run a window instead of a repeat run
    // for every few values).
    bool has_repeat = false;
    ForEachRun(window, length,
               [&](bool is_repeat, size_t, size_t) { has_repeat = has_repeat || is_repeat; });
    if (!has_repeat) {
      WriteLiterals(window, length);
      done += length;
      continue;
    }
    size_t split_bytes = 0;
    ForEachRun(window, length, [&](bool is_repeat, size_t start, size_t n) {
      split_bytes += is_repeat ? RepeatBytes(window[start], n) : PlanLiterals(window + start, n);
    });
    const size_t whole_bytes = PlanLiterals(window, length);
    size_t lead = 1;  // the opening run of equal values
    while (lead < length && window[lead] == window[0]) ++lead;
    size_t peeled_bytes = std::numeric_limits<size_t>::max();
    if (lead >= 2 && lead < length) {
      const size_t head = lead - 1;
      peeled_bytes =
          (head >= kMinRepeat ? RepeatBytes(window[0], head) : PlanLiterals(window, head)) +
          PlanLiterals(window + head, length - head);
    }
    if (whole_bytes <= split_bytes && whole_bytes <= peeled_bytes) {
      WriteLiterals(window, length);
    } else if (peeled_bytes < split_bytes) {
      const size_t head = lead - 1;
      if (head >= kMinRepeat) {
        WriteRepeat(window[0], head);
      } else {
        WriteLiterals(window, head);
      }
      WriteLiterals(window + head, length - head);
    } else {
      ForEachRun(window, length, [&](bool is_repeat, size_t start, size_t n) {
        if (is_repeat) {
          WriteRepeat(window[start], n);
        } else {
          WriteLiterals(window + start, n);
        }
      });
    }
    done += length;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<ptrdiff_t>(done));
}

void IntegerRleV2Encoder::WriteRepeat(int64_t value, size_t count) {
  const uint64_t stored =
      signed_ ? pqpage::internal::ZigZagEncode(value) : static_cast<uint64_t>(value);
  if (count <= kMaxShortRepeat) {
    const int bytes = std::max(1, (BitsNeeded(stored) + 7) / 8);
    out_.push_back(static_cast<uint8_t>((bytes - 1) << 3 | (count - kMinRepeat)));
    for (int i = bytes - 1; i >= 0; --i) out_.push_back(static_cast<uint8_t>(stored >> (8 * i)));
    return;
  }
  // A DELTA run of width 0 and delta 0: the same value `count` times.
  out_.push_back(static_cast<uint8_t>(0xC0 | (count - 1) >> 8));
  out_.push_back(static_cast<uint8_t>(count - 1));
  AppendVarint(stored, &out_);
  out_.push_back(0);
}

size_t IntegerRleV2Encoder::Literals(const int64_t* values, size_t count, bool write) {
  scratch_.resize(3 * kMaxRun + kMaxPatchEntries);
  uint64_t* direct = scratch_.data();     // the values as DIRECT stores them
  uint64_t* deltas = direct + kMaxRun;    // the magnitudes of the deltas after the first
  uint64_t* reduced = deltas + kMaxRun;   // the values less their minimum
  uint64_t* entries = reduced + kMaxRun;  // patch list entries
  const auto header_length = [count](int kind, int code) {
    return std::array<uint8_t, 2>{static_cast<uint8_t>(kind << 6 | code << 1 | (count - 1) >> 8),
                                  static_cast<uint8_t>(count - 1)};
  };

  // DIRECT.
  uint64_t direct_bits = 0;
  for (size_t i = 0; i < count; ++i) {
    direct[i] =
        signed_ ? pqpage::internal::ZigZagEncode(values[i]) : static_cast<uint64_t>(values[i]);
    direct_bits |= direct[i];
  }
  const int direct_width = ClosestRleV2Width(BitsNeeded(direct_bits));
  const size_t direct_bytes = 2 + PackedBytes(count, direct_width);

  // DELTA: the direction is the sign of the first delta, so that delta may not be 0 unless every
  // delta is (width 0, a fixed delta).
  const int64_t first_delta = count > 1 ? static_cast<int64_t>(Minus(values[1], values[0])) : 0;
  const uint64_t first_stored = direct[0];
  bool fixed_delta = true;
  uint64_t delta_bits = 0;
  for (size_t i = 2; i < count; ++i) {
    const uint64_t step =
        first_delta < 0 ? Minus(values[i - 1], values[i]) : Minus(values[i], values[i - 1]);
    deltas[i - 2] = step;
    delta_bits |= step;
    fixed_delta =
        fixed_delta && Minus(values[i], values[i - 1]) == static_cast<uint64_t>(first_delta);
  }
  size_t delta_bytes = std::numeric_limits<size_t>::max();
  int delta_width = 0;
  const size_t delta_head =
      2 + VarintSize(first_stored) + VarintSize(pqpage::internal::ZigZagEncode(first_delta));
  if (fixed_delta) {
    delta_bytes = delta_head;
  } else if (first_delta != 0) {
    // Code 0 means a fixed delta in a DELTA run, so 1-bit deltas take 2 bits.
    delta_width = std::max(2, ClosestRleV2Width(BitsNeeded(delta_bits)));
    delta_bytes = delta_head + PackedBytes(count - 2, delta_width);
  }

  // PATCHED_BASE, at the data width that makes it smallest.
  PatchPlan best_patch;
  best_patch.bytes = std::numeric_limits<size_t>::max();
  const int64_t minimum = *std::min_element(values, values + count);
  // A PATCHED_BASE run takes at least its 4 header bytes, a base byte and a bit a value.
  const bool patch_can_win = 5 + PackedBytes(count, 1) < std::min(direct_bytes, delta_bytes);
  if (patch_can_win && minimum != std::numeric_limits<int64_t>::min()) {
    const uint64_t magnitude =
        minimum < 0 ? 0 - static_cast<uint64_t>(minimum) : static_cast<uint64_t>(minimum);
    const int base_bytes = (BitsNeeded(magnitude) + 1 + 7) / 8;  // with a sign bit
    std::array<int, 65> by_bits{};
    uint64_t reduced_bits = 0;
    for (size_t i = 0; i < count; ++i) {
      reduced[i] = Minus(values[i], minimum);
      reduced_bits |= reduced[i];
      ++by_bits[BitsNeeded(reduced[i])];
    }
    const int full_bits = BitsNeeded(reduced_bits);
    // The narrowest width below full_bits that leaves at most kMaxPatchEntries values wider.
    int narrowest = 0;
    size_t wider = 0;
    int bits = 64;
    for (auto width = kCodedWidths.rbegin(); width != kCodedWidths.rend(); ++width) {
      if (*width >= full_bits) continue;
      while (bits > *width) wider += by_bits[bits--];
      if (wider > kMaxPatchEntries) break;  // narrower widths patch even more values
      narrowest = *width;
    }
    // Worth a look only when even its smallest possible run beats the other forms.
    if (narrowest > 0 &&
        4 + base_bytes + PackedBytes(count, narrowest) < std::min(direct_bytes, delta_bytes)) {
      outliers_.clear();
      for (size_t i = 0; i < count; ++i) {
        const int value_bits = BitsNeeded(reduced[i]);
        if (value_bits > narrowest) {
          outliers_.push_back({static_cast<uint16_t>(i), static_cast<uint8_t>(value_bits)});
        }
      }
      for (const int width : kCodedWidths) {
        if (width < narrowest || width >= full_bits) continue;
        PatchPlan plan;
        plan.width = width;
        plan.patch_width = ClosestRleV2Width(full_bits - width);
        size_t largest_gap = 0;
        if (!ForEachPatchEntry(outliers_, width, [&](size_t gap, int64_t) {
              largest_gap = std::max(largest_gap, gap);
              ++plan.entries;
            })) {
          continue;
        }
        plan.gap_width = std::max(1, BitsNeeded(largest_gap));
        if (plan.patch_width + plan.gap_width > 64) continue;
        plan.entry_width = ClosestRleV2Width(plan.patch_width + plan.gap_width);
        plan.bytes = 4 + base_bytes + PackedBytes(count, width) +
                     PackedBytes(plan.entries, plan.entry_width);
        if (plan.bytes < best_patch.bytes) best_patch = plan;
      }
    }
    if (best_patch.bytes < direct_bytes && best_patch.bytes < delta_bytes) {
      if (!write) return best_patch.bytes;
      const std::array<uint8_t, 2> head = header_length(2, EncodeRleV2Width(best_patch.width));
      out_.insert(out_.end(), head.begin(), head.end());
      out_.push_back(
          static_cast<uint8_t>((base_bytes - 1) << 5 | EncodeRleV2Width(best_patch.patch_width)));
      out_.push_back(static_cast<uint8_t>((best_patch.gap_width - 1) << 5 | best_patch.entries));
      const uint64_t base = magnitude | (minimum < 0 ? uint64_t{1} << (8 * base_bytes - 1) : 0);
      for (int i = base_bytes - 1; i >= 0; --i)
        out_.push_back(static_cast<uint8_t>(base >> (8 * i)));
      AppendPackedMsb64(reduced, count, best_patch.width, &out_);
      size_t entry = 0;
      ForEachPatchEntry(outliers_, best_patch.width, [&](size_t gap, int64_t index) {
        const uint64_t patch = index < 0 ? 0 : reduced[index] >> best_patch.width;
        entries[entry++] = static_cast<uint64_t>(gap) << best_patch.patch_width | patch;
      });
      AppendPackedMsb64(entries, entry, best_patch.entry_width, &out_);
      return best_patch.bytes;
    }
  }

  if (!write) return std::min(delta_bytes, direct_bytes);
  if (delta_bytes < direct_bytes) {
    const std::array<uint8_t, 2> head =
        header_length(3, delta_width == 0 ? 0 : EncodeRleV2Width(delta_width));
    out_.insert(out_.end(), head.begin(), head.end());
    AppendVarint(first_stored, &out_);
    AppendSignedVarint(first_delta, &out_);
    if (delta_width > 0) AppendPackedMsb64(deltas, count - 2, delta_width, &out_);
    return delta_bytes;
  }
  const std::array<uint8_t, 2> head = header_length(1, EncodeRleV2Width(direct_width));
  out_.insert(out_.end(), head.begin(), head.end());
  AppendPackedMsb64(direct, count, direct_width, &out_);
  return direct_bytes;
}

}  // namespace pqpage::orc
