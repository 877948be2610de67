// The codec interface and factory (pqpage/codec.h): every (physical type, encoding) pair the format
// allows round-trips through MakeEncoder / MakeDecoder, dense and spaced, FIXED_LEN_BYTE_ARRAY at
// several lengths; every other pair is Unimplemented, a value type that does not match the column
// is InvalidArgument, and the spaced forms check their bitmap.
#include "pqpage/codec_factory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "column_data_helpers.h"
#include "pqpage/byte_stream_split.h"
#include "pqpage/codec.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/delta_byte_array.h"
#include "pqpage/delta_length_byte_array.h"
#include "pqpage/dictionary.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "pqpage/value_type.h"
#include "status_matchers.h"
#include "type_and_encoding_lists.h"

namespace pqpage {
namespace {

using ::absl::StatusCode;

using testing::kAllEncodings;
using testing::kAllPhysicalTypes;

ColumnDescriptor Column(PhysicalType type, int type_length = 0) {
  ColumnDescriptor column;
  column.path = {"c"};
  column.type = type;
  column.type_length = type_length;
  return column;
}

using testing::SameValue;

// An owning array of T (std::vector<bool> has no bool* to make a span of).
template <typename T>
class Array {
 public:
  explicit Array(size_t size, const T& fill = T{}) : data_(new T[size]), size_(size) {
    std::fill_n(data_.get(), size, fill);
  }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  absl::Span<T> span() { return absl::MakeSpan(data_.get(), size_); }
  absl::Span<const T> span() const { return absl::MakeConstSpan(data_.get(), size_); }

 private:
  std::unique_ptr<T[]> data_;
  size_t size_;
};

// `n` values with repeats (so dictionaries and deltas have something to work on); byte arrays are
// views into `arena`, of `type_length` bytes each (or of varying length for kVariableLength).
template <typename T>
Array<T> Values(size_t n, int type_length, uint64_t seed, std::string* arena) {
  std::mt19937_64 rng(seed);
  Array<T> values(n);
  if constexpr (std::is_same_v<T, ByteArray>) {
    std::vector<std::pair<size_t, size_t>> spans;
    for (size_t i = 0; i < n; ++i) {
      const size_t length =
          type_length == kVariableLength ? rng() % 12 : static_cast<size_t>(type_length);
      spans.emplace_back(arena->size(), length);
      const uint64_t pick = rng() % 9;  // few distinct contents: shared prefixes and repeats
      for (size_t k = 0; k < length; ++k) arena->push_back(static_cast<char>('a' + (pick + k) % 5));
    }
    for (size_t i = 0; i < n; ++i) {
      values[i] = ByteArray(reinterpret_cast<const uint8_t*>(arena->data()) + spans[i].first,
                            static_cast<uint32_t>(spans[i].second));
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < n; ++i) values[i] = (rng() % 3) == 0 || (i / 50) % 2 == 1;
  } else {
    for (size_t i = 0; i < n; ++i) {
      uint64_t bits = rng() % 17;
      if (i % 7 == 3) bits = rng();  // now and then a value of every bit
      T value{};
      std::memcpy(&value, &bits, std::min(sizeof(T), sizeof(bits)));
      values[i] = value;
    }
  }
  return values;
}

// A T that is not T{}: what null slots hold before DecodeSpaced must overwrite them.
template <typename T>
T Garbage() {
  if constexpr (std::is_same_v<T, ByteArray>) {
    static const uint8_t kByte = 0x5A;
    return ByteArray(&kByte, 1);
  } else if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else {
    T value;
    std::memset(&value, 0x5A, sizeof(T));
    return value;
  }
}

// BOOLEAN has no dictionary encoding, hence no DictionaryEncoder<bool> to cast to.
template <typename T>
constexpr bool kHasDictionary = !std::is_same_v<T, bool>;

// A finished values section, and the dictionary page for dictionary encodings.
template <typename T>
struct Page {
  std::vector<uint8_t> dictionary;
  std::vector<uint8_t> bytes;
};

template <typename T>
Page<T> FinishPage(Encoder<T>& encoder) {
  Page<T> page;
  if constexpr (kHasDictionary<T>) {
    if (auto* dictionary = dynamic_cast<DictionaryEncoder<T>*>(&encoder)) {
      page.dictionary = dictionary->DictionaryPage();
    }
  }
  encoder.FinishInto(&page.bytes);
  return page;
}

template <typename T>
void StartPage(Decoder<T>& decoder, const Page<T>& page, int64_t num_entries, int64_t count) {
  if constexpr (kHasDictionary<T>) {
    if (auto* dictionary = dynamic_cast<DictionaryDecoder<T>*>(&decoder)) {
      PQPAGE_ASSERT_OK(dictionary->SetDictionary(page.dictionary, num_entries));
    }
  }
  PQPAGE_ASSERT_OK(decoder.Reset(page.bytes, count));
  ASSERT_EQ(decoder.values_left(), count);
}

template <typename T>
int64_t NumEntries(Encoder<T>& encoder) {
  if constexpr (kHasDictionary<T>) {
    auto* dictionary = dynamic_cast<DictionaryEncoder<T>*>(&encoder);
    if (dictionary != nullptr) return dictionary->num_entries();
  }
  return 0;
}

// Dense: values put in two calls, decoded in batches with a skip; then spaced: slots with nulls
// put with PutSpaced at a bit offset, decoded with DecodeSpaced in two calls.
template <typename T>
void RoundTrip(Encoding encoding, const ColumnDescriptor& column) {
  SCOPED_TRACE(::testing::Message()
               << EncodingName(encoding) << " " << PhysicalTypeName(column.type) << " type_length "
               << column.type_length);
  const int type_length = CodecTypeLength(column);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Encoder<T>> encoder,
                              MakeEncoder<T>(encoding, column));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<Decoder<T>> decoder,
                              MakeDecoder<T>(encoding, column));
  std::string arena;
  const Array<T> values = Values<T>(1000, type_length, 7, &arena);

  PQPAGE_ASSERT_OK(encoder->Put(values.span().first(333)));
  PQPAGE_ASSERT_OK(encoder->Put(values.span().subspan(333)));
  EXPECT_GT(encoder->EstimatedSize(), 0u);
  const Page<T> dense = FinishPage(*encoder);
  StartPage(*decoder, dense, NumEntries(*encoder), 1000);
  Array<T> out(1000);
  PQPAGE_ASSERT_OK(decoder->Decode(out.span().first(100)));
  PQPAGE_ASSERT_OK(decoder->Skip(50));
  PQPAGE_ASSERT_OK(decoder->Decode(out.span().subspan(150)));
  EXPECT_EQ(decoder->values_left(), 0);
  PQPAGE_EXPECT_ERROR(decoder->Decode(out.span().first(1)), StatusCode::kInvalidArgument);
  for (size_t i = 0; i < out.size(); ++i) {
    if (i >= 100 && i < 150) continue;
    ASSERT_TRUE(SameValue(out[i], values[i])) << "value " << i;
  }

  // Slot i is null when bit 3 + i is clear: runs of nulls and of values of every length.
  constexpr int64_t kOffset = 3;
  std::vector<uint8_t> validity((values.size() + kOffset + 7) / 8);
  std::mt19937 rng(11);
  int64_t present = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const bool set = (i / 64) % 4 == 0 || (i / 64) % 4 == 2 ? (rng() % 4) != 0 : (i / 64) % 4 == 1;
    if (set) validity[(i + kOffset) / 8] |= static_cast<uint8_t>(1u << ((i + kOffset) % 8));
    present += set;
  }
  PQPAGE_ASSERT_OK(encoder->PutSpaced(values.span(), validity, kOffset));
  const Page<T> spaced = FinishPage(*encoder);
  StartPage(*decoder, spaced, NumEntries(*encoder), present);
  Array<T> slots(values.size(), Garbage<T>());
  PQPAGE_ASSERT_OK(decoder->DecodeSpaced(slots.span().first(517), validity, kOffset));
  PQPAGE_ASSERT_OK(decoder->DecodeSpaced(slots.span().subspan(517), validity, kOffset + 517));
  EXPECT_EQ(decoder->values_left(), 0);
  for (size_t i = 0; i < slots.size(); ++i) {
    const bool set = (validity[(i + kOffset) / 8] >> ((i + kOffset) % 8)) & 1;
    ASSERT_TRUE(SameValue(slots[i], set ? values[i] : T{}))
        << "slot " << i << (set ? "" : " (null)");
  }
}

TEST(CodecFactoryTest, EveryAllowedPairRoundTrips) {
  int pairs = 0;
  for (PhysicalType type : kAllPhysicalTypes) {
    for (Encoding encoding : kAllEncodings) {
      if (!EncodingAllowed(encoding, type)) continue;
      const std::vector<int> lengths = type == PhysicalType::kFixedLenByteArray
                                           ? std::vector<int>{1, 3, 4, 8, 12, 16, 33}
                                           : std::vector<int>{0};
      for (int type_length : lengths) {
        VisitValueType(type, [&](auto tag) {
          RoundTrip<typename decltype(tag)::Type>(encoding, Column(type, type_length));
        });
        if (HasFatalFailure()) return;
      }
      ++pairs;
    }
  }
  // PLAIN 8, dictionaries 2 x 7, RLE 1, DELTA_BINARY_PACKED 2, DELTA_LENGTH_BYTE_ARRAY 1,
  // DELTA_BYTE_ARRAY 2, BYTE_STREAM_SPLIT 5.
  EXPECT_EQ(pairs, 33);
}

TEST(CodecFactoryTest, PairsTheFormatDoesNotAllowAreUnimplemented) {
  int refused = 0;
  for (PhysicalType type : kAllPhysicalTypes) {
    for (Encoding encoding : kAllEncodings) {
      if (EncodingAllowed(encoding, type)) continue;
      SCOPED_TRACE(::testing::Message() << EncodingName(encoding) << " " << PhysicalTypeName(type));
      VisitValueType(type, [&](auto tag) {
        using T = typename decltype(tag)::Type;
        const ColumnDescriptor column = Column(type, 4);
        PQPAGE_EXPECT_ERROR(MakeDecoder<T>(encoding, column).status(), StatusCode::kUnimplemented);
        PQPAGE_EXPECT_ERROR(MakeEncoder<T>(encoding, column).status(), StatusCode::kUnimplemented);
      });
      ++refused;
    }
  }
  EXPECT_EQ(refused, 8 * 9 - 33);
  // BIT_PACKED holds levels, never values; an id the format does not define holds nothing.
  PQPAGE_EXPECT_ERROR(
      MakeDecoder<int32_t>(Encoding::kBitPacked, Column(PhysicalType::kInt32)).status(),
      StatusCode::kUnimplemented);
  PQPAGE_EXPECT_ERROR(
      MakeEncoder<int32_t>(static_cast<Encoding>(1), Column(PhysicalType::kInt32)).status(),
      StatusCode::kUnimplemented);
}

TEST(CodecFactoryTest, ValueTypeMustMatchTheColumn) {
  for (Encoding encoding : {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle}) {
    PQPAGE_EXPECT_ERROR(MakeDecoder<int64_t>(encoding, Column(PhysicalType::kInt32)).status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(MakeEncoder<int32_t>(encoding, Column(PhysicalType::kInt64)).status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(MakeDecoder<float>(encoding, Column(PhysicalType::kDouble)).status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(MakeEncoder<bool>(encoding, Column(PhysicalType::kInt32)).status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(MakeDecoder<ByteArray>(encoding, Column(PhysicalType::kInt96)).status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(
        MakeEncoder<int32_t>(encoding, Column(PhysicalType::kFixedLenByteArray, 4)).status(),
        StatusCode::kInvalidArgument);
  }
  // The value type is checked before the encoding: ByteArray for INT32 is the caller's mistake
  // even with an encoding INT32 could have.
  PQPAGE_EXPECT_ERROR(
      MakeDecoder<ByteArray>(Encoding::kDeltaBinaryPacked, Column(PhysicalType::kInt32)).status(),
      StatusCode::kInvalidArgument);
  // FIXED_LEN_BYTE_ARRAY needs its length.
  for (int type_length : {0, -1}) {
    PQPAGE_EXPECT_ERROR(MakeDecoder<ByteArray>(
                            Encoding::kPlain, Column(PhysicalType::kFixedLenByteArray, type_length))
                            .status(),
                        StatusCode::kInvalidArgument);
    PQPAGE_EXPECT_ERROR(
        MakeEncoder<ByteArray>(Encoding::kByteStreamSplit,
                               Column(PhysicalType::kFixedLenByteArray, type_length))
            .status(),
        StatusCode::kInvalidArgument);
  }
}

// The factory makes the concrete classes of the encodings' headers, with the column's length.
TEST(CodecFactoryTest, MakesTheDocumentedClasses) {
  const ColumnDescriptor flba = Column(PhysicalType::kFixedLenByteArray, 6);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto plain, MakeDecoder<ByteArray>(Encoding::kPlain, flba));
  auto* plain_decoder = dynamic_cast<PlainDecoder<ByteArray>*>(plain.get());
  ASSERT_NE(plain_decoder, nullptr);
  EXPECT_EQ(plain_decoder->type_length(), 6);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto split, MakeEncoder<ByteArray>(Encoding::kByteStreamSplit, flba));
  auto* split_encoder = dynamic_cast<ByteStreamSplitEncoder<ByteArray>*>(split.get());
  ASSERT_NE(split_encoder, nullptr);
  EXPECT_EQ(split_encoder->type_length(), 6);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto delta, MakeDecoder<ByteArray>(Encoding::kDeltaByteArray, flba));
  auto* delta_decoder = dynamic_cast<DeltaByteArrayDecoder*>(delta.get());
  ASSERT_NE(delta_decoder, nullptr);
  EXPECT_EQ(delta_decoder->type_length(), 6);
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      auto strings, MakeEncoder<ByteArray>(Encoding::kPlain, Column(PhysicalType::kByteArray)));
  auto* strings_encoder = dynamic_cast<PlainEncoder<ByteArray>*>(strings.get());
  ASSERT_NE(strings_encoder, nullptr);
  EXPECT_EQ(strings_encoder->type_length(), kVariableLength);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto dictionary,
                              MakeDecoder<ByteArray>(Encoding::kPlainDictionary, flba));
  EXPECT_NE(dynamic_cast<DictionaryDecoder<ByteArray>*>(dictionary.get()), nullptr);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto booleans,
                              MakeDecoder<bool>(Encoding::kRle, Column(PhysicalType::kBoolean)));
  EXPECT_NE(dynamic_cast<RleBooleanDecoder*>(booleans.get()), nullptr);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto deltas, MakeEncoder<int64_t>(Encoding::kDeltaBinaryPacked,
                                                                Column(PhysicalType::kInt64)));
  EXPECT_NE(dynamic_cast<DeltaBinaryPackedEncoder<int64_t>*>(deltas.get()), nullptr);
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      auto lengths,
      MakeDecoder<ByteArray>(Encoding::kDeltaLengthByteArray, Column(PhysicalType::kByteArray)));
  EXPECT_NE(dynamic_cast<DeltaLengthByteArrayDecoder*>(lengths.get()), nullptr);
  EXPECT_EQ(CodecTypeLength(flba), 6);
  EXPECT_EQ(CodecTypeLength(Column(PhysicalType::kByteArray, 6)), kVariableLength);
}

// RLE booleans carry their 4-byte length prefix, in the encoder's output and the decoder's input.
TEST(CodecFactoryTest, RleBooleansAreLengthPrefixed) {
  const ColumnDescriptor column = Column(PhysicalType::kBoolean);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto encoder, MakeEncoder<bool>(Encoding::kRle, column));
  const bool values[] = {true, true, true, true, true, true, true, true, true, true};
  PQPAGE_ASSERT_OK(encoder->Put(values));
  std::vector<uint8_t> page = {0xAB};  // FinishInto appends
  encoder->FinishInto(&page);
  ASSERT_GT(page.size(), 5u);
  EXPECT_EQ(page[0], 0xAB);
  // The prefix: the stream's length, little-endian; the stream: the hybrid of width 1.
  EXPECT_EQ(page[1] | page[2] << 8 | page[3] << 16 | page[4] << 24, page.size() - 5);
  RleBitPackedHybridDecoder hybrid;
  PQPAGE_ASSERT_OK(hybrid.Reset(absl::MakeConstSpan(page).subspan(5), 1, 10));
  bool bare[10] = {};
  PQPAGE_ASSERT_OK(hybrid.DecodeBooleans(absl::MakeSpan(bare)));
  for (bool value : bare) EXPECT_TRUE(value);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoder, MakeDecoder<bool>(Encoding::kRle, column));
  PQPAGE_EXPECT_ERROR(decoder->Reset(absl::MakeConstSpan(page).subspan(1, 3), 10),
                      StatusCode::kDataLoss);
  EXPECT_EQ(decoder->values_left(), 0);
  // The prefix says one byte more than follows.
  PQPAGE_EXPECT_ERROR(decoder->Reset(absl::MakeConstSpan(page).subspan(1, page.size() - 2), 10),
                      StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder->Reset(absl::MakeConstSpan(page).subspan(1), -1),
                      StatusCode::kInvalidArgument);
  PQPAGE_ASSERT_OK(decoder->Reset(absl::MakeConstSpan(page).subspan(1), 10));
  bool out[10] = {};
  PQPAGE_ASSERT_OK(decoder->Decode(absl::MakeSpan(out)));
  for (bool value : out) EXPECT_TRUE(value);
}

TEST(CodecFactoryTest, SpacedFormsCheckTheirBitmap) {
  const ColumnDescriptor column = Column(PhysicalType::kInt32);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto encoder, MakeEncoder<int32_t>(Encoding::kPlain, column));
  const std::vector<int32_t> values = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<uint8_t> validity = {0xFF, 0x01};  // 9 bits set
  PQPAGE_EXPECT_ERROR(encoder->PutSpaced(values, validity, 8), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(encoder->PutSpaced(values, validity, -1), StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(encoder->PutSpaced(values, absl::MakeConstSpan(validity).first(1), 0),
                      StatusCode::kInvalidArgument);
  EXPECT_EQ(encoder->EstimatedSize(), 0u);  // nothing appended by a refused call
  PQPAGE_ASSERT_OK(encoder->PutSpaced(values, validity, 0));
  EXPECT_EQ(encoder->EstimatedSize(), 36u);  // all present: a plain Put
  const std::vector<uint8_t> page = encoder->Finish();

  PQPAGE_ASSERT_OK_AND_ASSIGN(auto decoder, MakeDecoder<int32_t>(Encoding::kPlain, column));
  PQPAGE_ASSERT_OK(decoder->Reset(page, 5));
  std::vector<int32_t> slots(9, -1);
  // Nine set bits for five values left: refused, nothing consumed.
  PQPAGE_EXPECT_ERROR(decoder->DecodeSpaced(absl::MakeSpan(slots), validity, 0),
                      StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder->DecodeSpaced(absl::MakeSpan(slots), validity, 8),
                      StatusCode::kInvalidArgument);
  EXPECT_EQ(decoder->values_left(), 5);
  EXPECT_EQ(slots, std::vector<int32_t>(9, -1));
  // Bits 2..10 of 0b...0101_0101 01: slots 0, 2, 4, 6 and 8 hold values 1..5.
  const std::vector<uint8_t> sparse = {0x54, 0x05};
  PQPAGE_ASSERT_OK(decoder->DecodeSpaced(absl::MakeSpan(slots), sparse, 2));
  EXPECT_EQ(slots, (std::vector<int32_t>{1, 0, 2, 0, 3, 0, 4, 0, 5}));
  EXPECT_EQ(decoder->values_left(), 0);
  // No slots: nothing to check, nothing to do.
  PQPAGE_EXPECT_OK(decoder->DecodeSpaced({}, {}, 0));
  PQPAGE_EXPECT_OK(encoder->PutSpaced({}, {}, 0));
}

// Through the interface a full dictionary is ResourceExhausted (a writer that falls back uses
// DictionaryEncoder::PutUntilFull, with its own limits).
TEST(CodecFactoryTest, FactoryDictionaryHasTheDefaultLimits) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      auto encoder, MakeEncoder<int64_t>(Encoding::kRleDictionary, Column(PhysicalType::kInt64)));
  std::vector<int64_t> values(DictionaryOptions{}.max_dictionary_bytes / 8 + 1);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int64_t>(i);
  PQPAGE_EXPECT_ERROR(encoder->Put(values), StatusCode::kResourceExhausted);
  auto* dictionary = dynamic_cast<DictionaryEncoder<int64_t>*>(encoder.get());
  ASSERT_NE(dictionary, nullptr);
  EXPECT_TRUE(dictionary->is_full());
  EXPECT_EQ(dictionary->buffered_values(), static_cast<int64_t>(values.size()) - 1);
}

}  // namespace
}  // namespace pqpage
