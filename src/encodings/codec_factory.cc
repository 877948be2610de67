// The factory of the Parquet value codecs (pqpage/codec_factory.h): which concrete class
// implements which encoding for which value type.
#include "pqpage/codec_factory.h"

#include <memory>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage {

bool EncodingAllowed(Encoding encoding, PhysicalType type) {
  switch (encoding) {
    case Encoding::kPlain:
      return true;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      return type != PhysicalType::kBoolean;
    case Encoding::kRle:
      return type == PhysicalType::kBoolean;
    case Encoding::kDeltaBinaryPacked:
      return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
    case Encoding::kDeltaLengthByteArray:
      return type == PhysicalType::kByteArray;
    case Encoding::kDeltaByteArray:
      return type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return type == PhysicalType::kFloat || type == PhysicalType::kDouble ||
             type == PhysicalType::kInt32 || type == PhysicalType::kInt64 ||
             type == PhysicalType::kFixedLenByteArray;
    case Encoding::kBitPacked:
      return false;
  }
  return false;
}

namespace {

// The concrete classes of one direction (decoders when kDecode, else encoders), so that one
// switch serves both.
template <bool kDecode>
struct Classes {
  template <typename D, typename E>
  using Pick = std::conditional_t<kDecode, D, E>;
  template <typename T>
  using Interface = Pick<Decoder<T>, Encoder<T>>;
  template <typename T>
  using Plain = Pick<PlainDecoder<T>, PlainEncoder<T>>;
  template <typename T>
  using Dictionary = Pick<DictionaryDecoder<T>, DictionaryEncoder<T>>;
  using RleBoolean = Pick<RleBooleanDecoder, RleBooleanEncoder>;
  template <typename T>
  using DeltaBinaryPacked = Pick<DeltaBinaryPackedDecoder<T>, DeltaBinaryPackedEncoder<T>>;
  using DeltaLengthByteArray = Pick<DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder>;
  using DeltaByteArray = Pick<DeltaByteArrayDecoder, DeltaByteArrayEncoder>;
  template <typename T>
  using ByteStreamSplit = Pick<ByteStreamSplitDecoder<T>, ByteStreamSplitEncoder<T>>;
};

// A codec, given the type length when it takes one (the codecs that can hold
// FIXED_LEN_BYTE_ARRAY take it as their constructor's first argument).
template <typename Codec>
std::unique_ptr<Codec> New(int type_length) {
  if constexpr (std::is_constructible_v<Codec, int>) {
    return std::make_unique<Codec>(type_length);
  } else {
    return std::make_unique<Codec>();
  }
}

template <typename T>
constexpr bool kIsInteger = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;
template <typename T>
constexpr bool kIsByteArray = std::is_same_v<T, ByteArray>;

// The codec of an allowed (encoding, T) pair. The run-time table is EncodingAllowed; the
// compile-time tests only keep each T to the classes instantiated for it.
template <typename Side, typename T>
std::unique_ptr<typename Side::template Interface<T>> NewCodec(Encoding encoding, int type_length) {
  switch (encoding) {
    case Encoding::kPlain:
      return New<typename Side::template Plain<T>>(type_length);
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary:
      if constexpr (!std::is_same_v<T, bool>) {
        return New<typename Side::template Dictionary<T>>(type_length);
      }
      break;
    case Encoding::kRle:
      if constexpr (std::is_same_v<T, bool>) return New<typename Side::RleBoolean>(type_length);
      break;
    case Encoding::kDeltaBinaryPacked:
      if constexpr (kIsInteger<T>) {
        return New<typename Side::template DeltaBinaryPacked<T>>(type_length);
      }
      break;
    case Encoding::kDeltaLengthByteArray:  // NOLINT(bugprone-branch-clone): alike only for some T
      if constexpr (kIsByteArray<T>) {
        return New<typename Side::DeltaLengthByteArray>(type_length);
      }
      break;
    case Encoding::kDeltaByteArray:
      if constexpr (kIsByteArray<T>) return New<typename Side::DeltaByteArray>(type_length);
      break;
    case Encoding::kByteStreamSplit:
      if constexpr (kIsInteger<T> || kIsByteArray<T> || std::is_floating_point_v<T>) {
        return New<typename Side::template ByteStreamSplit<T>>(type_length);
      }
      break;
    case Encoding::kBitPacked:
      break;
  }
  return nullptr;
}

template <typename T>
constexpr const char* ValueTypeName() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  if constexpr (std::is_same_v<T, Int96>) return "Int96";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  return "ByteArray";
}

template <typename Side, typename T>
absl::StatusOr<std::unique_ptr<typename Side::template Interface<T>>> MakeCodec(
    Encoding encoding, const ColumnDescriptor& column) {
  if (!ValueTypeMatches<T>(column.type)) {
    return absl::InvalidArgumentError(
        absl::StrCat("a codec of ", ValueTypeName<T>(), " values for ",
                     PhysicalTypeName(column.type).data(), " column '", column.PathString(), "'"));
  }
  if (column.type == PhysicalType::kFixedLenByteArray && column.type_length <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("FIXED_LEN_BYTE_ARRAY column '",
                                                   column.PathString(), "' has type_length ",
                                                   column.type_length, ", not a positive one"));
  }
  if (!EncodingAllowed(encoding, column.type)) {
    return absl::UnimplementedError(absl::StrCat("encoding ", EncodingName(encoding).data(),
                                                 " is not defined for ",
                                                 PhysicalTypeName(column.type).data(), " values"));
  }
  auto codec = NewCodec<Side, T>(encoding, CodecTypeLength(column));
  if (codec == nullptr) {
    return absl::InternalError(
        absl::StrCat("no codec for allowed encoding ", EncodingName(encoding).data()));
  }
  return codec;
}

}  // namespace

template <typename T>
absl::StatusOr<std::unique_ptr<Decoder<T>>> MakeDecoder(Encoding encoding,
                                                        const ColumnDescriptor& column) {
  return MakeCodec<Classes<true>, T>(encoding, column);
}

template <typename T>
absl::StatusOr<std::unique_ptr<Encoder<T>>> MakeEncoder(Encoding encoding,
                                                        const ColumnDescriptor& column) {
  return MakeCodec<Classes<false>, T>(encoding, column);
}

// NOLINTBEGIN(bugprone-macro-parentheses): T is a type in template arguments.
#define PQPAGE_INSTANTIATE_CODEC(T)                                                             \
  template absl::StatusOr<std::unique_ptr<Decoder<T>>> MakeDecoder<T>(Encoding,                 \
                                                                      const ColumnDescriptor&); \
  template absl::StatusOr<std::unique_ptr<Encoder<T>>> MakeEncoder<T>(Encoding,                 \
                                                                      const ColumnDescriptor&);
// NOLINTEND(bugprone-macro-parentheses)
PQPAGE_INSTANTIATE_CODEC(bool)
PQPAGE_INSTANTIATE_CODEC(int32_t)
PQPAGE_INSTANTIATE_CODEC(int64_t)
PQPAGE_INSTANTIATE_CODEC(Int96)
PQPAGE_INSTANTIATE_CODEC(float)
PQPAGE_INSTANTIATE_CODEC(double)
PQPAGE_INSTANTIATE_CODEC(ByteArray)
#undef PQPAGE_INSTANTIATE_CODEC
}  // namespace pqpage
