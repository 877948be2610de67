#include "page/choice/encoding_measure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

#include "common/value_type_list.h"
#include "page/choice/decode_costs.h"
#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

// How many samples long kAuto assumes a chunk that goes on past its sample to be, to share the
// dictionary page among them (chunks are usually many pages; the projection only needs to be
// of the right order).
constexpr double kProjectedSamples = 8;

}  // namespace

absl::StatusOr<int64_t> StoredSectionBytes(const std::vector<uint8_t>& section,
                                           const PageSetup& setup) {
  const auto raw = static_cast<int64_t>(section.size());
  if (setup.codec == Compression::kUncompressed || section.empty()) return raw;
  std::vector<uint8_t> compressed;
  PQPAGE_RETURN_IF_ERROR(Compress(setup.codec, section, &compressed, setup.compression_level));
  const auto stored = static_cast<int64_t>(compressed.size());
  return setup.data_page_version == 2 ? std::min(raw, stored) : stored;
}

namespace {

// The dictionary candidate's size (see MeasureEncodings), nullopt when it fills up.
template <typename T>
absl::StatusOr<std::optional<int64_t>> DictionaryBytes(absl::Span<const T> values,
                                                       const PageSetup& setup, bool chunk_ends,
                                                       DictionaryEncoder<T>* dictionary) {
  // In two halves, to see how fast new entries still come.
  const size_t half = values.size() / 2;
  PQPAGE_ASSIGN_OR_RETURN(const size_t first_taken, dictionary->PutUntilFull(values.first(half)));
  const int64_t first_entries = dictionary->num_entries();
  size_t taken = first_taken;
  if (first_taken == half) {
    PQPAGE_ASSIGN_OR_RETURN(const size_t second_taken,
                            dictionary->PutUntilFull(values.subspan(half)));
    taken += second_taken;
  }
  std::vector<uint8_t> section;
  dictionary->FinishInto(&section);
  if (taken < values.size()) return std::nullopt;
  PQPAGE_ASSIGN_OR_RETURN(const int64_t data_bytes, StoredSectionBytes(section, setup));
  // The dictionary page is always compressed, in both page versions.
  PageSetup dictionary_setup = setup;
  dictionary_setup.data_page_version = 1;
  PQPAGE_ASSIGN_OR_RETURN(const int64_t page_bytes,
                          StoredSectionBytes(dictionary->DictionaryPage(), dictionary_setup));
  const auto entries = static_cast<double>(dictionary->num_entries());
  if (chunk_ends || first_entries == 0 || entries == 0) return data_bytes + page_bytes;
  // The entries of a chunk kProjectedSamples samples long: growing like values^growth, as from
  // the first half of the sample to all of it (0: none new in the second half, 1: every value
  // new), but no more than Chao's estimate of the number of distinct values there are at all
  // (entries + f1^2 / (2 f2), from the entries seen once and twice), which keeps a bounded
  // domain (prices, say) from being projected to grow forever.
  const double growth =
      std::clamp(std::log2(entries / static_cast<double>(first_entries)), 0.0, 1.0);
  double projected = entries * std::pow(kProjectedSamples, growth);
  const int width = section.empty() ? 0 : section[0];
  std::vector<uint32_t> indices(values.size());
  RleBitPackedHybridDecoder decoder;
  PQPAGE_RETURN_IF_ERROR(decoder.Reset(absl::MakeConstSpan(section).subspan(1), width,
                                       static_cast<int64_t>(values.size())));
  PQPAGE_RETURN_IF_ERROR(decoder.Decode(absl::MakeSpan(indices)));
  std::vector<uint32_t> counts(static_cast<size_t>(entries));
  for (uint32_t index : indices) ++counts[index];
  const auto seen_once = static_cast<double>(std::count(counts.begin(), counts.end(), 1u));
  const auto seen_twice = static_cast<double>(std::count(counts.begin(), counts.end(), 2u));
  projected = std::min(projected, entries + seen_once * seen_once / (2.0 * (seen_twice + 1.0)));
  // One sample's share of the projected page, and its indices at the projected width.
  const double share = projected / (entries * kProjectedSamples);
  const double index_growth =
      width == 0 ? 1.0 : std::max(1.0, std::ceil(std::log2(projected)) / width);
  return static_cast<int64_t>(std::llround(static_cast<double>(data_bytes) * index_growth +
                                           static_cast<double>(page_bytes) * share));
}

}  // namespace

template <typename T>
absl::StatusOr<std::vector<CandidateSize>> MeasureEncodings(absl::Span<const T> values,
                                                            const std::vector<Encoding>& candidates,
                                                            const ColumnDescriptor& column,
                                                            const PageSetup& setup, bool chunk_ends,
                                                            DictionaryEncoder<T>* dictionary) {
  std::vector<CandidateSize> sizes;
  std::vector<uint8_t> section;
  for (Encoding encoding : candidates) {
    section.clear();
    if (encoding == Encoding::kRleDictionary || encoding == Encoding::kPlainDictionary) {
      if constexpr (std::is_same_v<T, bool>) {
        continue;  // BOOLEAN has no dictionary encoding
      } else {
        if (dictionary == nullptr) continue;
        PQPAGE_ASSIGN_OR_RETURN(const std::optional<int64_t> bytes,
                                DictionaryBytes(values, setup, chunk_ends, dictionary));
        if (bytes.has_value()) sizes.push_back({encoding, *bytes});
        continue;
      }
    }
    PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<Encoder<T>> encoder, MakeEncoder<T>(encoding, column));
    PQPAGE_RETURN_IF_ERROR(encoder->Put(values));
    encoder->FinishInto(&section);
    PQPAGE_ASSIGN_OR_RETURN(const int64_t bytes, StoredSectionBytes(section, setup));
    sizes.push_back({encoding, bytes});
  }
  return sizes;
}

namespace {

// Differences this small are within what a sample cannot predict (a page header, a codec's frame
// and its restart on every page), and not worth a slower decode: with zstd, 3,356 time-ordered
// file paths stored 114 bytes PLAIN and 120 as a dictionary, and the whole chunk half as much as
// a dictionary as PLAIN. (Not more: a small chunk's 49 bytes as a dictionary against 100 as
// delta is a real difference.)
constexpr double kTieSlackBytes = 16;

}  // namespace

size_t ChooseSmallOrFast(absl::Span<const SizeAndCost> contenders, const TieRule& rule) {
  int64_t smallest = std::numeric_limits<int64_t>::max();
  for (const SizeAndCost& contender : contenders) {
    smallest = std::min(smallest, contender.stored_bytes);
  }
  const double limit =
      static_cast<double>(smallest) +
      std::max(static_cast<double>(smallest) * std::max(0.0, rule.margin), rule.slack_bytes);
  std::optional<size_t> best;
  for (size_t i = 0; i < contenders.size(); ++i) {
    const SizeAndCost& contender = contenders[i];
    if (static_cast<double>(contender.stored_bytes) > limit) continue;
    if (!best) {
      best = i;
      continue;
    }
    const SizeAndCost& kept = contenders[*best];
    const bool faster = contender.decode_cost < kept.decode_cost * (1.0 - rule.same_cost);
    const bool as_fast = contender.decode_cost * (1.0 - rule.same_cost) <= kept.decode_cost;
    if (faster || (as_fast && contender.stored_bytes < kept.stored_bytes)) best = i;
  }
  return *best;
}

Encoding ChooseEncoding(const std::vector<CandidateSize>& sizes, PhysicalType type,
                        double tie_margin) {
  std::vector<SizeAndCost> contenders;
  contenders.reserve(sizes.size());
  for (const CandidateSize& size : sizes) {
    contenders.push_back({.stored_bytes = size.stored_bytes,
                          .decode_cost = DecodeNanosPerValue(type, size.encoding)
                                             .value_or(std::numeric_limits<double>::infinity())});
  }
  return sizes[ChooseSmallOrFast(
                   contenders,
                   TieRule{.margin = tie_margin, .slack_bytes = kTieSlackBytes, .same_cost = 0})]
      .encoding;
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE(T)                                                     \
  template absl::StatusOr<std::vector<CandidateSize>> MeasureEncodings<T>(        \
      absl::Span<const T>, const std::vector<Encoding>&, const ColumnDescriptor&, \
      const PageSetup&, bool, DictionaryEncoder<T>*);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_FOR_EACH_VALUE_TYPE(PQPAGE_INSTANTIATE)
#undef PQPAGE_INSTANTIATE

}  // namespace pqpage::internal
