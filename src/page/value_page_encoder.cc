#include "page/value_page_encoder.h"

#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"

namespace pqpage::internal {
namespace {

// Wraps one codec class: they share Put / EstimatedSize / FinishInto, and differ only in whether
// Put can fail.
template <typename T, typename Codec>
class CodecPageEncoder final : public ValuePageEncoder<T> {
 public:
  CodecPageEncoder(Encoding encoding, Codec codec)
      : encoding_(encoding), codec_(std::move(codec)) {}

  Encoding encoding() const override { return encoding_; }

  absl::Status Put(absl::Span<const T> values) override {
    if constexpr (std::is_void_v<decltype(codec_.Put(values))>) {
      codec_.Put(values);
      return absl::OkStatus();
    } else {
      return codec_.Put(values);
    }
  }

  size_t EstimatedSize() const override { return codec_.EstimatedSize(); }

  absl::Status FinishInto(std::vector<uint8_t>* out) override {
    codec_.FinishInto(out);
    return absl::OkStatus();
  }

 private:
  Encoding encoding_;
  Codec codec_;
};

// BOOLEAN as RLE: the hybrid stream of bit width 1 behind its 4-byte length (both page versions).
class RleBooleanPageEncoder final : public ValuePageEncoder<bool> {
 public:
  Encoding encoding() const override { return Encoding::kRle; }
  absl::Status Put(absl::Span<const bool> values) override { return hybrid_.Put(values); }
  size_t EstimatedSize() const override { return 4 + hybrid_.EstimatedSize(); }
  absl::Status FinishInto(std::vector<uint8_t>* out) override {
    AppendLengthPrefixed(hybrid_.Finish(), out);
    return absl::OkStatus();
  }

 private:
  RleBitPackedHybridEncoder hybrid_{1};
};

template <typename T, typename Codec>
std::unique_ptr<ValuePageEncoder<T>> Wrap(Encoding encoding, Codec codec) {
  return std::make_unique<CodecPageEncoder<T, Codec>>(encoding, std::move(codec));
}

// Compressed size when that is smaller, else the raw size: what a v2 page stores.
absl::StatusOr<size_t> StoredSize(const std::vector<uint8_t>& section, Compression codec,
                                  int level) {
  if (codec == Compression::kUncompressed || section.empty()) return section.size();
  std::vector<uint8_t> compressed;
  PQPAGE_RETURN_IF_ERROR(Compress(codec, section, &compressed, level));
  return std::min(section.size(), compressed.size());
}

template <typename T>
class TrialPageEncoder final : public ValuePageEncoder<T> {
 public:
  TrialPageEncoder(std::vector<std::unique_ptr<ValuePageEncoder<T>>> candidates, Compression codec,
                   int level)
      : candidates_(std::move(candidates)), codec_(codec), level_(level) {}

  Encoding encoding() const override {
    return chosen_ >= 0 ? candidates_[chosen_]->encoding() : candidates_[0]->encoding();
  }

  absl::Status Put(absl::Span<const T> values) override {
    if (chosen_ >= 0) return candidates_[chosen_]->Put(values);
    for (auto& candidate : candidates_) PQPAGE_RETURN_IF_ERROR(candidate->Put(values));
    return absl::OkStatus();
  }

  size_t EstimatedSize() const override {
    if (chosen_ >= 0) return candidates_[chosen_]->EstimatedSize();
    size_t smallest = std::numeric_limits<size_t>::max();
    for (const auto& candidate : candidates_) {
      smallest = std::min(smallest, candidate->EstimatedSize());
    }
    return smallest;
  }

  absl::Status FinishInto(std::vector<uint8_t>* out) override {
    if (chosen_ >= 0) return candidates_[chosen_]->FinishInto(out);
    std::vector<uint8_t> best;
    size_t best_size = 0;
    for (size_t i = 0; i < candidates_.size(); ++i) {
      std::vector<uint8_t> section;
      PQPAGE_RETURN_IF_ERROR(candidates_[i]->FinishInto(&section));
      PQPAGE_ASSIGN_OR_RETURN(const size_t size, StoredSize(section, codec_, level_));
      if (chosen_ < 0 || size < best_size) {
        chosen_ = static_cast<int>(i);
        best_size = size;
        best = std::move(section);
      }
    }
    // The losers are no longer needed; the winner encodes the rest of the chunk.
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (static_cast<int>(i) != chosen_) candidates_[i].reset();
    }
    out->insert(out->end(), best.begin(), best.end());
    return absl::OkStatus();
  }

 private:
  std::vector<std::unique_ptr<ValuePageEncoder<T>>> candidates_;
  Compression codec_;
  int level_;
  int chosen_ = -1;
};

absl::Status NotApplicable(Encoding encoding, const ColumnDescriptor& column) {
  return absl::UnimplementedError(
      absl::StrCat("the page builder cannot write ", EncodingName(encoding).data(), " for a ",
                   std::string(PhysicalTypeName(column.type)), " column"));
}

}  // namespace

bool EncodingApplies(Encoding encoding, PhysicalType type) {
  switch (encoding) {
    case Encoding::kPlain:
      return true;
    case Encoding::kRle:
      return type == PhysicalType::kBoolean;
    case Encoding::kDeltaBinaryPacked:
      return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
    case Encoding::kDeltaLengthByteArray:  // NOLINT(bugprone-branch-clone): alike only for some T
      return type == PhysicalType::kByteArray;
    case Encoding::kDeltaByteArray:
      return type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return type == PhysicalType::kFloat || type == PhysicalType::kDouble ||
             type == PhysicalType::kInt32 || type == PhysicalType::kInt64 ||
             type == PhysicalType::kFixedLenByteArray;
    default:
      return false;
  }
}

template <typename T>
absl::StatusOr<std::unique_ptr<ValuePageEncoder<T>>> MakeValuePageEncoder(
    Encoding encoding, const ColumnDescriptor& column) {
  if (!EncodingApplies(encoding, column.type)) return NotApplicable(encoding, column);
  const bool fixed = column.type == PhysicalType::kFixedLenByteArray;
  switch (encoding) {
    case Encoding::kPlain:
      if constexpr (std::is_same_v<T, ByteArray>) {
        if (fixed) return Wrap<T>(encoding, PlainFixedLenByteArrayEncoder(column.type_length));
      }
      return Wrap<T>(encoding, PlainEncoder<T>());
    case Encoding::kRle:
      if constexpr (std::is_same_v<T, bool>) return std::make_unique<RleBooleanPageEncoder>();
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return Wrap<T>(encoding, DeltaBinaryPackedEncoder<T>());
      }
      break;
    case Encoding::kDeltaLengthByteArray:  // NOLINT(bugprone-branch-clone): alike only for some T
      if constexpr (std::is_same_v<T, ByteArray>) {
        return Wrap<T>(encoding, DeltaLengthByteArrayEncoder());
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (std::is_same_v<T, ByteArray>) {
        DeltaByteArrayOptions options;
        options.type = column.type;
        options.type_length = fixed ? column.type_length : 0;
        return Wrap<T>(encoding, DeltaByteArrayEncoder(options));
      }
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (std::is_same_v<T, ByteArray>) {
        return Wrap<T>(encoding, ByteStreamSplitFixedLenByteArrayEncoder(column.type_length));
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                           std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        return Wrap<T>(encoding, ByteStreamSplitEncoder<T>());
      }
      break;
    default:
      break;
  }
  // The value type does not match the column's physical type (a page builder bug).
  return NotApplicable(encoding, column);
}

template <typename T>
absl::StatusOr<std::unique_ptr<ValuePageEncoder<T>>> MakeTrialValuePageEncoder(
    const std::vector<Encoding>& candidates, const ColumnDescriptor& column, Compression codec,
    int compression_level) {
  if (candidates.empty()) return absl::InternalError("no candidate encodings to try");
  std::vector<std::unique_ptr<ValuePageEncoder<T>>> encoders;
  for (Encoding encoding : candidates) {
    PQPAGE_ASSIGN_OR_RETURN(auto encoder, MakeValuePageEncoder<T>(encoding, column));
    encoders.push_back(std::move(encoder));
  }
  if (encoders.size() == 1) return std::move(encoders[0]);
  return std::unique_ptr<ValuePageEncoder<T>>(
      std::make_unique<TrialPageEncoder<T>>(std::move(encoders), codec, compression_level));
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE(T)                                                                 \
  template absl::StatusOr<std::unique_ptr<ValuePageEncoder<T>>> MakeValuePageEncoder<T>(      \
      Encoding, const ColumnDescriptor&);                                                     \
  template absl::StatusOr<std::unique_ptr<ValuePageEncoder<T>>> MakeTrialValuePageEncoder<T>( \
      const std::vector<Encoding>&, const ColumnDescriptor&, Compression, int);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_INSTANTIATE(bool)
PQPAGE_INSTANTIATE(int32_t)
PQPAGE_INSTANTIATE(int64_t)
PQPAGE_INSTANTIATE(Int96)
PQPAGE_INSTANTIATE(float)
PQPAGE_INSTANTIATE(double)
PQPAGE_INSTANTIATE(ByteArray)
#undef PQPAGE_INSTANTIATE

}  // namespace pqpage::internal
