#include "page/write/page_value_encoder.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/value_type_list.h"
#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/status_macros.h"

namespace pqpage::internal {
namespace {

// A codec from the factory and the encoding its pages' headers name.
template <typename T>
class CodecPageEncoder final : public PageValueEncoder<T> {
 public:
  CodecPageEncoder(Encoding encoding, std::unique_ptr<Encoder<T>> codec)
      : encoding_(encoding), codec_(std::move(codec)) {}

  Encoding encoding() const override { return encoding_; }
  absl::Status Put(absl::Span<const T> values) override { return codec_->Put(values); }
  size_t EstimatedSize() const override { return codec_->EstimatedSize(); }
  absl::Status FinishInto(std::vector<uint8_t>* out) override {
    codec_->FinishInto(out);
    return absl::OkStatus();
  }

 private:
  Encoding encoding_;
  std::unique_ptr<Encoder<T>> codec_;
};

template <typename T>
class TrialPageEncoder final : public PageValueEncoder<T> {
 public:
  TrialPageEncoder(std::vector<std::unique_ptr<PageValueEncoder<T>>> candidates, PhysicalType type,
                   const PageSetup& setup, double tie_margin)
      : candidates_(std::move(candidates)), type_(type), setup_(setup), tie_margin_(tie_margin) {}

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
    std::vector<std::vector<uint8_t>> sections(candidates_.size());
    std::vector<CandidateSize> sizes;
    for (size_t i = 0; i < candidates_.size(); ++i) {
      PQPAGE_RETURN_IF_ERROR(candidates_[i]->FinishInto(&sections[i]));
      PQPAGE_ASSIGN_OR_RETURN(const int64_t size, StoredSectionBytes(sections[i], setup_));
      sizes.push_back({candidates_[i]->encoding(), size});
    }
    const Encoding chosen = ChooseEncoding(sizes, type_, tie_margin_);
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (sizes[i].encoding == chosen) chosen_ = static_cast<int>(i);
    }
    const std::vector<uint8_t>& best = sections[static_cast<size_t>(chosen_)];
    // The losers are no longer needed; the winner encodes the rest of the chunk.
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (static_cast<int>(i) != chosen_) candidates_[i].reset();
    }
    out->insert(out->end(), best.begin(), best.end());
    return absl::OkStatus();
  }

 private:
  std::vector<std::unique_ptr<PageValueEncoder<T>>> candidates_;
  PhysicalType type_;
  PageSetup setup_;
  double tie_margin_;
  int chosen_ = -1;
};

}  // namespace

template <typename T>
absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakePageValueEncoder(
    Encoding encoding, const ColumnDescriptor& column) {
  if (encoding == Encoding::kPlainDictionary || encoding == Encoding::kRleDictionary) {
    return absl::UnimplementedError(absl::StrCat(
        "the page builder writes ", EncodingName(encoding).data(), " through its dictionary"));
  }
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<Encoder<T>> codec, MakeEncoder<T>(encoding, column));
  return std::unique_ptr<PageValueEncoder<T>>(
      std::make_unique<CodecPageEncoder<T>>(encoding, std::move(codec)));
}

template <typename T>
absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakeTrialPageValueEncoder(
    const std::vector<Encoding>& candidates, const ColumnDescriptor& column, const PageSetup& setup,
    double tie_margin) {
  if (candidates.empty()) return absl::InternalError("no candidate encodings to try");
  std::vector<std::unique_ptr<PageValueEncoder<T>>> encoders;
  for (Encoding encoding : candidates) {
    PQPAGE_ASSIGN_OR_RETURN(auto encoder, MakePageValueEncoder<T>(encoding, column));
    encoders.push_back(std::move(encoder));
  }
  if (encoders.size() == 1) return std::move(encoders[0]);
  return std::unique_ptr<PageValueEncoder<T>>(
      std::make_unique<TrialPageEncoder<T>>(std::move(encoders), column.type, setup, tie_margin));
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE(T)                                                                 \
  template absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakePageValueEncoder<T>(      \
      Encoding, const ColumnDescriptor&);                                                     \
  template absl::StatusOr<std::unique_ptr<PageValueEncoder<T>>> MakeTrialPageValueEncoder<T>( \
      const std::vector<Encoding>&, const ColumnDescriptor&, const PageSetup&, double);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_FOR_EACH_VALUE_TYPE(PQPAGE_INSTANTIATE)
#undef PQPAGE_INSTANTIATE

}  // namespace pqpage::internal
