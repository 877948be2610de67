#include "page/encoding_choice.h"

#include <string_view>

#include "pqpage/codec.h"

namespace pqpage {

std::string_view EncodingPolicyName(EncodingPolicy policy) {
  switch (policy) {
    case EncodingPolicy::kAuto:
      return "auto";
    case EncodingPolicy::kPlain:
      return "plain";
    case EncodingPolicy::kDictionary:
      return "dictionary";
    case EncodingPolicy::kDelta:
      return "delta";
    case EncodingPolicy::kDeltaLengthByteArray:
      return "delta_length_byte_array";
    case EncodingPolicy::kByteStreamSplit:
      return "byte_stream_split";
  }
  return "unknown";
}

std::optional<EncodingPolicy> ParseEncodingPolicy(std::string_view name) {
  for (EncodingPolicy policy :
       {EncodingPolicy::kAuto, EncodingPolicy::kPlain, EncodingPolicy::kDictionary,
        EncodingPolicy::kDelta, EncodingPolicy::kDeltaLengthByteArray,
        EncodingPolicy::kByteStreamSplit}) {
    if (EncodingPolicyName(policy) == name) return policy;
  }
  return std::nullopt;
}

namespace internal {
namespace {

// The encoding an explicit policy asks for when it applies to the type, else PLAIN.
Encoding OrPlain(Encoding wanted, PhysicalType type) {
  return EncodingAllowed(wanted, type) ? wanted : Encoding::kPlain;
}

}  // namespace

EncodingPlan PlanEncodings(EncodingPolicy policy, PhysicalType type, int data_page_version) {
  EncodingPlan plan;
  const bool is_boolean = type == PhysicalType::kBoolean;
  switch (policy) {
    case EncodingPolicy::kAuto:
      if (is_boolean) {
        // RLE booleans are a v2-era encoding; v1 readers commonly expect PLAIN.
        plan.fallback = {data_page_version == 2 ? Encoding::kRle : Encoding::kPlain};
        return plan;
      }
      plan.use_dictionary = true;
      if (data_page_version != 2) {
        plan.fallback = {Encoding::kPlain};
        return plan;
      }
      // PLAIN first, so that it wins ties (every reader has it).
      plan.fallback = {Encoding::kPlain};
      for (Encoding candidate : {Encoding::kDeltaBinaryPacked, Encoding::kDeltaLengthByteArray,
                                 Encoding::kDeltaByteArray, Encoding::kByteStreamSplit}) {
        if (EncodingAllowed(candidate, type)) plan.fallback.push_back(candidate);
      }
      return plan;
    case EncodingPolicy::kPlain:
      plan.fallback = {Encoding::kPlain};
      return plan;
    case EncodingPolicy::kDictionary:
      plan.use_dictionary = !is_boolean;
      plan.fallback = {Encoding::kPlain};
      return plan;
    case EncodingPolicy::kDelta:
      plan.fallback = {
          OrPlain(type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray
                      ? Encoding::kDeltaByteArray
                      : Encoding::kDeltaBinaryPacked,
                  type)};
      return plan;
    case EncodingPolicy::kDeltaLengthByteArray:
      plan.fallback = {OrPlain(Encoding::kDeltaLengthByteArray, type)};
      return plan;
    case EncodingPolicy::kByteStreamSplit:
      plan.fallback = {OrPlain(Encoding::kByteStreamSplit, type)};
      return plan;
  }
  plan.fallback = {Encoding::kPlain};
  return plan;
}

}  // namespace internal
}  // namespace pqpage
