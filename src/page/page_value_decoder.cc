#include "page/page_value_decoder.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/value_type.h"

namespace pqpage::internal {
namespace {

// The codecs each value type can meet in a page: exactly the encodings the format allows for the
// physical types behind it. A member's presence is what enables an encoding below.
template <typename T>
struct Codecs {  // int32_t, int64_t
  PlainDecoder<T> plain;
  DictionaryDecoder<T> dictionary;
  DeltaBinaryPackedDecoder<T> delta;
  ByteStreamSplitDecoder<T> byte_stream_split;
  Codecs(const ColumnDescriptor&, bool) {}
};

template <typename T>
struct FloatCodecs {
  PlainDecoder<T> plain;
  DictionaryDecoder<T> dictionary;
  ByteStreamSplitDecoder<T> byte_stream_split;
  FloatCodecs(const ColumnDescriptor&, bool) {}
};
template <>
struct Codecs<float> : FloatCodecs<float> {
  using FloatCodecs::FloatCodecs;
};
template <>
struct Codecs<double> : FloatCodecs<double> {
  using FloatCodecs::FloatCodecs;
};

template <>
struct Codecs<Int96> {
  PlainDecoder<Int96> plain;
  DictionaryDecoder<Int96> dictionary;
  Codecs(const ColumnDescriptor&, bool) {}
};

template <>
struct Codecs<bool> {
  PlainDecoder<bool> plain;
  RleBitPackedHybridDecoder rle;
  Codecs(const ColumnDescriptor&, bool) {}
};

template <>
struct Codecs<ByteArray> {
  bool fixed_length;
  PlainDecoder<ByteArray> plain;
  PlainFixedLenByteArrayDecoder plain_fixed;
  DictionaryDecoder<ByteArray> dictionary;
  DeltaLengthByteArrayDecoder delta_length;
  DeltaByteArrayDecoder delta;
  ByteStreamSplitFixedLenByteArrayDecoder byte_stream_split_fixed;
  // BYTE_STREAM_SPLIT scatters a value's bytes over K streams, so the page's values are gathered
  // here once and handed out as views.
  std::vector<uint8_t> gathered;
  int64_t gathered_next = 0;

  Codecs(const ColumnDescriptor& column, bool carry_delta_prefix)
      : fixed_length(column.type == PhysicalType::kFixedLenByteArray),
        plain_fixed(column.type_length),
        dictionary(fixed_length ? column.type_length : 0),
        delta(DeltaByteArrayOptions{.type = column.type,
                                    .type_length = column.type_length,
                                    .carry_prefix_across_pages = carry_delta_prefix}),
        byte_stream_split_fixed(column.type_length) {}
};

template <typename T>
class TypedPageValueDecoder final : public PageValueDecoder<T> {
  static constexpr bool kHasDictionary = requires(Codecs<T> & c) { c.dictionary; };
  static constexpr bool kHasDelta = requires(Codecs<T> & c) { c.delta; };
  static constexpr bool kHasByteStreamSplit = requires(Codecs<T> & c) { c.byte_stream_split; };

 public:
  TypedPageValueDecoder(const ColumnDescriptor& column, bool carry_delta_prefix)
      : column_(column), codecs_(column, carry_delta_prefix) {}

  absl::Status SetDictionary(absl::Span<const uint8_t> page, int64_t num_entries) override {
    if constexpr (kHasDictionary) {
      absl::Status status = codecs_.dictionary.SetDictionary(page, num_entries);
      if (!status.ok()) return status;
      has_dictionary_ = true;
      return absl::OkStatus();
    } else {
      return absl::UnimplementedError("BOOLEAN columns have no dictionary encoding");
    }
  }

  bool has_dictionary() const override { return has_dictionary_; }

  absl::Span<const T> dictionary() const override {
    if constexpr (kHasDictionary) {
      return codecs_.dictionary.dictionary();
    } else {
      return {};
    }
  }

  absl::Status StartPage(Encoding encoding, absl::Span<const uint8_t> data,
                         int64_t num_values) override {
    encoding_ = encoding;
    this->dictionary_encoded_ = false;
    switch (encoding) {
      case Encoding::kPlain:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (codecs_.fixed_length) return codecs_.plain_fixed.Reset(data, num_values);
        }
        return codecs_.plain.Reset(data, num_values);
      case Encoding::kPlainDictionary:
      case Encoding::kRleDictionary:
        if constexpr (kHasDictionary) {
          if (!has_dictionary_) {
            return absl::DataLossError(absl::StrCat(EncodingName(encoding).data(),
                                                    " page without a dictionary page before it"));
          }
          this->dictionary_encoded_ = true;
          return codecs_.dictionary.Reset(data, num_values);
        }
        break;
      case Encoding::kRle:
        if constexpr (std::is_same_v<T, bool>) {
          // RLE booleans carry the 4-byte length prefix in v1 and v2 pages alike.
          size_t consumed = 0;
          absl::StatusOr<absl::Span<const uint8_t>> stream = SplitLengthPrefixed(data, &consumed);
          if (!stream.ok()) return stream.status();
          return codecs_.rle.Reset(*stream, 1, num_values);
        }
        break;
      case Encoding::kDeltaBinaryPacked:
        if constexpr (kHasDelta && !std::is_same_v<T, ByteArray>) {
          return codecs_.delta.Reset(data, num_values);
        }
        break;
      case Encoding::kDeltaLengthByteArray:  // NOLINT(bugprone-branch-clone): alike only for some T
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (!codecs_.fixed_length) return codecs_.delta_length.Reset(data, num_values);
        }
        break;
      case Encoding::kDeltaByteArray:
        if constexpr (std::is_same_v<T, ByteArray>) return codecs_.delta.Reset(data, num_values);
        break;
      case Encoding::kByteStreamSplit:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (codecs_.fixed_length) return StartGatheredPage(data, num_values);
        } else if constexpr (kHasByteStreamSplit) {
          return codecs_.byte_stream_split.Reset(data, num_values);
        }
        break;
      case Encoding::kBitPacked:
        break;
    }
    return absl::UnimplementedError(absl::StrCat("encoding ", EncodingName(encoding).data(),
                                                 " is not defined for ",
                                                 PhysicalTypeName(column_.type).data(), " values"));
  }

  absl::Status Decode(T* out, int64_t count) override {
    if (count == 0) return absl::OkStatus();
    const absl::Span<T> span(out, static_cast<size_t>(count));
    switch (encoding_) {
      case Encoding::kPlain:
        if constexpr (std::is_same_v<T, ByteArray>) {
          if (codecs_.fixed_length) return codecs_.plain_fixed.Decode(span);
        }
        return codecs_.plain.Decode(span);
      case Encoding::kPlainDictionary:
      case Encoding::kRleDictionary:
        if constexpr (kHasDictionary) return codecs_.dictionary.Decode(span);
        break;
      case Encoding::kRle:
        if constexpr (std::is_same_v<T, bool>) return codecs_.rle.DecodeBooleans(span);
        break;
      case Encoding::kDeltaBinaryPacked:
        if constexpr (kHasDelta && !std::is_same_v<T, ByteArray>) {
          return codecs_.delta.Decode(span);
        }
        break;
      case Encoding::kDeltaLengthByteArray:  // NOLINT(bugprone-branch-clone): alike only for some T
        if constexpr (std::is_same_v<T, ByteArray>) return codecs_.delta_length.Decode(span);
        break;
      case Encoding::kDeltaByteArray:
        if constexpr (std::is_same_v<T, ByteArray>) return codecs_.delta.Decode(span);
        break;
      case Encoding::kByteStreamSplit:
        if constexpr (std::is_same_v<T, ByteArray>) {
          return DecodeGathered(span);
        } else if constexpr (kHasByteStreamSplit) {
          return codecs_.byte_stream_split.Decode(span);
        }
        break;
      case Encoding::kBitPacked:
        break;
    }
    return absl::InternalError("Decode without a started page");
  }

  absl::Status DecodeIndices(uint32_t* out, int64_t count) override {
    if constexpr (kHasDictionary) {
      if (!this->dictionary_encoded_) {
        return absl::InvalidArgumentError("the current page is not dictionary-encoded");
      }
      if (count == 0) return absl::OkStatus();
      return codecs_.dictionary.DecodeIndices(absl::MakeSpan(out, static_cast<size_t>(count)));
    } else {
      return absl::InvalidArgumentError("BOOLEAN columns have no dictionary encoding");
    }
  }

 private:
  absl::Status StartGatheredPage(absl::Span<const uint8_t> data, int64_t num_values) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      absl::Status status = codecs_.byte_stream_split_fixed.Reset(data, num_values);
      if (!status.ok()) return status;
      // num_values * type_length <= data.size(), checked by Reset: the allocation is bounded by the
      // page's own bytes.
      codecs_.gathered.resize(static_cast<size_t>(num_values) *
                              static_cast<size_t>(column_.type_length));
      codecs_.gathered_next = 0;
      return codecs_.byte_stream_split_fixed.DecodeBytes(absl::MakeSpan(codecs_.gathered));
    }
    return absl::OkStatus();
  }

  absl::Status DecodeGathered(absl::Span<ByteArray> out) {
    if constexpr (std::is_same_v<T, ByteArray>) {
      const size_t length = static_cast<size_t>(column_.type_length);
      const int64_t available =
          static_cast<int64_t>(codecs_.gathered.size() / length) - codecs_.gathered_next;
      if (static_cast<int64_t>(out.size()) > available) {
        return absl::InvalidArgumentError("more values asked for than the page holds");
      }
      const uint8_t* next = codecs_.gathered.data() + codecs_.gathered_next * length;
      for (ByteArray& value : out) {
        value = ByteArray(next, static_cast<uint32_t>(length));
        next += length;
      }
      codecs_.gathered_next += static_cast<int64_t>(out.size());
    }
    return absl::OkStatus();
  }

  ColumnDescriptor column_;
  Codecs<T> codecs_;
  Encoding encoding_ = Encoding::kPlain;
  bool has_dictionary_ = false;
};

}  // namespace

std::unique_ptr<PageValueDecoderBase> MakePageValueDecoder(const ColumnDescriptor& column,
                                                           bool carry_delta_prefix) {
  return VisitValueType(column.type, [&](auto tag) -> std::unique_ptr<PageValueDecoderBase> {
    using T = typename decltype(tag)::Type;
    return std::make_unique<TypedPageValueDecoder<T>>(column, carry_delta_prefix);
  });
}

}  // namespace pqpage::internal
