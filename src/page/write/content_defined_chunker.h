// Content-defined chunking for the page builder (WriterOptions::content_defined_chunking): a gear
// rolling hash over a column chunk's levels and values that says at which levels pages start.
// The cuts depend on the stream of levels and values only (never on where pages were cut for other
// reasons), and the hash on the last 64 bytes fed, so after an edit the cuts fall where they fell
// before once the stream is past it.
#ifndef PQPAGE_PAGE_WRITE_CONTENT_DEFINED_CHUNKER_H_
#define PQPAGE_PAGE_WRITE_CONTENT_DEFINED_CHUNKER_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"
#include "pqpage/writer_options.h"

namespace pqpage::internal {

// The gear hash's table: one pseudo-random 64-bit constant per byte value (splitmix64 from a fixed
// seed), so the same bytes cut at the same places in every build.
extern const std::array<uint64_t, 256> kGearTable;

// What ContentDefinedChunking means for a column written with `data_page_size`: the unset sizes
// derived, the average page chosen, and the match thresholds solved for.
struct ChunkingPlan {
  int64_t min_bytes = 0;
  int64_t max_bytes = 0;
  int64_t average_bytes = 0;
  // A byte's hash matches when it is below the threshold: `early` until a page took average_bytes,
  // `late` after (equal at norm_level 0).
  uint64_t early_threshold = 0;
  uint64_t late_threshold = 0;
};

// The plan, or InvalidArgument (for CheckWriterSetup) when the options are out of range.
absl::StatusOr<ChunkingPlan> PlanChunking(const ContentDefinedChunking& options,
                                          int64_t data_page_size);

// The expected bytes of a page cut with these thresholds between min and max (each byte a match
// with probability threshold / 2^64), which PlanChunking makes average_bytes.
double ExpectedPageBytes(const ChunkingPlan& plan);

class ContentDefinedChunker {
 public:
  // `plan` as PlanChunking made it.
  ContentDefinedChunker(const ColumnDescriptor& column, const ChunkingPlan& plan)
      : plan_(plan),
        max_def_(column.max_definition_level),
        has_def_(column.max_definition_level > 0),
        has_rep_(column.max_repetition_level > 0) {}

  // Feeds the next `levels` levels of the chunk and their present values (`def` and `rep` empty
  // when the column's maximum is 0; `values` a span of T or anything indexed like one) and
  // appends to `cuts` the levels of this batch, in order, at which a new page must start: row
  // starts, the first after each match. A cut decided at the batch's end is appended by the next
  // call, at its first row start.
  template <typename Values>
  void Feed(absl::Span<const int16_t> def, absl::Span<const int16_t> rep, const Values& values,
            int64_t levels, std::vector<int64_t>* cuts) {
    size_t v = 0;
    for (int64_t i = 0; i < levels; ++i) {
      const bool present = !has_def_ || def[i] == max_def_;
      if (cut_pending_) {
        if (has_rep_ && rep[i] != 0) {
          v += present ? 1 : 0;  // the rest of the row stays on the page the cut ends
          continue;
        }
        cuts->push_back(i);
        cut_pending_ = false;
        hash_ = 0;
        fed_ = 0;
      }
      // Below the minimum nothing may match (a threshold of 0 matches no hash); the rate changes
      // at value boundaries, which keeps the byte loop free of size checks.
      const uint64_t threshold = fed_ < plan_.min_bytes       ? 0
                                 : fed_ < plan_.average_bytes ? plan_.early_threshold
                                                              : plan_.late_threshold;
      bool matched = false;
      if (has_def_) matched |= Roll(static_cast<uint8_t>(def[i]), threshold);
      if (has_rep_) matched |= Roll(static_cast<uint8_t>(rep[i]), threshold);
      if (present) matched |= RollValue(values[v++], threshold);
      if (matched || fed_ >= plan_.max_bytes) cut_pending_ = true;
    }
  }

 private:
  bool Roll(uint8_t byte, uint64_t threshold) {
    hash_ = (hash_ << 1) + kGearTable[byte];
    ++fed_;
    return hash_ < threshold;
  }

  bool RollBytes(const uint8_t* bytes, size_t size, uint64_t threshold) {
    uint64_t hash = hash_;
    bool matched = false;
    for (size_t k = 0; k < size; ++k) {
      hash = (hash << 1) + kGearTable[bytes[k]];
      matched |= hash < threshold;
    }
    hash_ = hash;
    fed_ += static_cast<int64_t>(size);
    return matched;
  }

  // The value's PLAIN bytes (little-endian, as the platforms pqpage builds for store them).
  template <typename T>
  bool RollValue(const T& value, uint64_t threshold) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      return RollBytes(value.data, value.size, threshold);
    } else if constexpr (std::is_same_v<T, bool>) {
      return Roll(value ? 1 : 0, threshold);
    } else {
      std::array<uint8_t, sizeof(T)> bytes;
      std::memcpy(bytes.data(), &value, sizeof(T));
      return RollBytes(bytes.data(), bytes.size(), threshold);
    }
  }

  ChunkingPlan plan_;
  int16_t max_def_;
  bool has_def_;
  bool has_rep_;
  uint64_t hash_ = 0;
  int64_t fed_ = 0;           // bytes fed since the last cut
  bool cut_pending_ = false;  // a cut was decided; it waits for the next row start
};

// The page builder's view of one batch's cuts: the chunker sees the batch once, from the level
// where pages may first be cut (kAuto's held-back sample is fed when it is written), and the
// builder then asks at each row start whether a page starts there and where the page must end.
class BatchCuts {
 public:
  // Feeds the batch from level `from` on (spans already starting there) the first time only.
  template <typename Values>
  void FeedOnce(ContentDefinedChunker& chunker, absl::Span<const int16_t> def,
                absl::Span<const int16_t> rep, const Values& values, int64_t from, int64_t levels) {
    if (fed_) return;
    fed_ = true;
    chunker.Feed(def, rep, values, levels - from, &cuts_);
    for (int64_t& cut : cuts_) cut += from;
  }
  // @return whether a page starts at level `level` (each cut answers once).
  bool StartsAt(int64_t level) {
    if (next_ >= cuts_.size() || cuts_[next_] != level) return false;
    ++next_;
    return true;
  }
  // @return the level at which the page being filled ends, or `levels` (the batch's end).
  int64_t End(int64_t levels) const { return next_ < cuts_.size() ? cuts_[next_] : levels; }

 private:
  std::vector<int64_t> cuts_;
  size_t next_ = 0;
  bool fed_ = false;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_CONTENT_DEFINED_CHUNKER_H_
