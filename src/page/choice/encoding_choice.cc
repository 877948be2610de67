#include "page/choice/encoding_choice.h"

#include <string_view>
#include <utility>
#include <vector>

#include "pqpage/codec.h"
#include "pqpage/codec_factory.h"
#include "pqpage/peer_readers.h"

namespace pqpage::internal {
namespace {

// The encoding an explicit policy asks for when it applies to the type, else PLAIN.
Encoding OrPlain(Encoding wanted, PhysicalType type) {
  return EncodingAllowed(wanted, type) ? wanted : Encoding::kPlain;
}

}  // namespace

std::vector<Encoding> AutoCandidates(const ColumnDescriptor& column, int data_page_version,
                                     AutoEncodings set, bool with_dictionary) {
  const PhysicalType type = column.type;
  std::vector<Encoding> candidates;
  for (Encoding encoding : WrittenValueEncodings(type)) {
    if (encoding == Encoding::kRleDictionary && !with_dictionary) continue;
    if (set == AutoEncodings::kInteroperable &&
        !InteroperableEncoding(encoding, column, data_page_version)) {
      continue;
    }
    if (set == AutoEncodings::kDictionaryOrPlain && encoding != Encoding::kPlain &&
        encoding != Encoding::kRleDictionary) {
      continue;
    }
    candidates.push_back(encoding);
  }
  return candidates;
}

EncodingPlan PlanEncodings(const WriterOptions& options, const ColumnDescriptor& column) {
  const PhysicalType type = column.type;
  EncodingPlan plan;
  const bool is_boolean = type == PhysicalType::kBoolean;
  const bool dictionary_off = options.dictionary.has_value() && !*options.dictionary;
  const bool dictionary_on = options.dictionary.value_or(false) && !is_boolean;
  switch (options.encoding) {
    case EncodingPolicy::kAuto: {
      std::vector<Encoding> others =
          AutoCandidates(column, options.data_page_version, options.auto_encodings, false);
      if (dictionary_on) {
        plan.use_dictionary = true;
        plan.fallback = std::move(others);
      } else if (others.size() == 1 && (dictionary_off || is_boolean)) {
        plan.fallback = std::move(others);
      } else {
        plan.measure = true;
        plan.measured = AutoCandidates(column, options.data_page_version, options.auto_encodings,
                                       !dictionary_off);
        plan.fallback = std::move(others);
      }
      return plan;
    }
    case EncodingPolicy::kPlain:
      plan.fallback = {Encoding::kPlain};
      break;
    case EncodingPolicy::kDictionary:
      plan.use_dictionary = !is_boolean;
      plan.fallback = {Encoding::kPlain};
      break;
    case EncodingPolicy::kDelta:
      plan.fallback = {
          OrPlain(type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray
                      ? Encoding::kDeltaByteArray
                      : Encoding::kDeltaBinaryPacked,
                  type)};
      break;
    case EncodingPolicy::kDeltaLengthByteArray:
      plan.fallback = {OrPlain(Encoding::kDeltaLengthByteArray, type)};
      break;
    case EncodingPolicy::kByteStreamSplit:
      plan.fallback = {OrPlain(Encoding::kByteStreamSplit, type)};
      break;
  }
  if (plan.fallback.empty()) plan.fallback = {Encoding::kPlain};
  if (dictionary_off) plan.use_dictionary = false;
  if (dictionary_on) plan.use_dictionary = true;
  return plan;
}

}  // namespace pqpage::internal
