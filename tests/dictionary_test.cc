#include "pqpage/dictionary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "pqpage/rle_bit_packed_hybrid.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using absl::StatusCode;

template <typename T>
bool BitEqual(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return a == b;
  } else {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
}

// Encodes `values` into pages of `page_size` values and decodes every page back through a
// dictionary decoder fed with the encoder's dictionary page.
// A codec of T, given `type_length` when it takes one (the ByteArray codecs).
template <typename Codec>
Codec MakeCodec(int type_length) {
  if constexpr (std::is_constructible_v<Codec, int>) {
    return Codec(type_length);
  } else {
    return Codec();
  }
}

template <typename T>
void ExpectRoundTrip(const std::vector<T>& values, size_t page_size,
                     int type_length = kVariableLength) {
  DictionaryEncoder<T> encoder = MakeCodec<DictionaryEncoder<T>>(type_length);
  std::vector<std::vector<uint8_t>> pages;
  std::vector<size_t> page_counts;
  for (size_t start = 0; start < values.size() || pages.empty(); start += page_size) {
    const size_t n = std::min(page_size, values.size() - start);
    PQPAGE_ASSERT_OK_AND_ASSIGN(
        size_t taken, encoder.PutUntilFull(absl::MakeConstSpan(values).subspan(start, n)));
    ASSERT_EQ(taken, n);
    pages.push_back(encoder.FinishDataPage());
    page_counts.push_back(n);
    if (values.empty()) break;
  }
  const std::vector<uint8_t> dictionary_page = encoder.DictionaryPage();
  ASSERT_EQ(static_cast<int64_t>(dictionary_page.size()), encoder.dictionary_bytes());
  DictionaryDecoder<T> decoder = MakeCodec<DictionaryDecoder<T>>(type_length);
  PQPAGE_ASSERT_OK(decoder.SetDictionary(dictionary_page, encoder.num_entries()));
  size_t position = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    PQPAGE_ASSERT_OK(decoder.Reset(pages[p], page_counts[p]));
    std::vector<T> out(page_counts[p]);
    PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
    for (size_t i = 0; i < out.size(); ++i) {
      ASSERT_TRUE(BitEqual(out[i], values[position + i])) << "value " << position + i;
    }
    position += page_counts[p];
  }
  EXPECT_EQ(position, values.size());
}

TEST(DictionaryTest, RoundTripsEveryTypeAndLength) {
  std::mt19937 rng(11);
  for (size_t n : {0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 20000}) {
    std::vector<int32_t> i32(n);
    std::vector<int64_t> i64(n);
    std::vector<float> f32(n);
    std::vector<double> f64(n);
    std::vector<Int96> i96(n);
    std::vector<std::string> storage(n);
    std::vector<ByteArray> strings(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t pick = rng() % 50;
      i32[i] = pick % 2 ? std::numeric_limits<int32_t>::min() + pick : -static_cast<int32_t>(pick);
      i64[i] = static_cast<int64_t>(pick) << 40;
      f32[i] = static_cast<float>(pick) / 3;
      f64[i] = pick / 7.0;
      i96[i].words[0] = pick;
      i96[i].words[2] = pick * 3;
      storage[i] = pick == 0 ? "" : std::string(pick, static_cast<char>('a' + pick % 26));
      strings[i] = ByteArray(storage[i]);
    }
    for (size_t page : {size_t{7}, size_t{1000}}) {
      ExpectRoundTrip(i32, page);
      ExpectRoundTrip(i64, page);
      ExpectRoundTrip(f32, page);
      ExpectRoundTrip(f64, page);
      ExpectRoundTrip(i96, page);
      ExpectRoundTrip(strings, page);
    }
  }
}

TEST(DictionaryTest, FloatEntriesAreKeyedOnTheirBits) {
  const float nan_a = std::numeric_limits<float>::quiet_NaN();
  uint32_t payload = 0x7FC00123;
  float nan_b;
  std::memcpy(&nan_b, &payload, 4);
  const std::vector<float> values = {0.0f,
                                     -0.0f,
                                     nan_a,
                                     nan_b,
                                     nan_a,
                                     0.0f,
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity()};
  DictionaryEncoder<float> encoder;
  PQPAGE_ASSERT_OK(encoder.Put(values));
  EXPECT_EQ(encoder.num_entries(), 6);  // +0, -0, two NaN payloads, +inf, -inf
  ExpectRoundTrip(values, 3);
}

TEST(DictionaryTest, FixedLenByteArray) {
  std::vector<std::string> storage = {"abcd", "wxyz", "abcd", "0000"};
  std::vector<ByteArray> values;
  for (const auto& s : storage) values.emplace_back(s);
  ExpectRoundTrip(values, 2, 4);
  DictionaryEncoder<ByteArray> encoder(4);
  PQPAGE_ASSERT_OK(encoder.Put(values));
  EXPECT_EQ(encoder.DictionaryPage(),
            (std::vector<uint8_t>{'a', 'b', 'c', 'd', 'w', 'x', 'y', 'z', '0', '0', '0', '0'}));
  const std::string wrong = "abc";
  const ByteArray bad(wrong);
  PQPAGE_EXPECT_ERROR(encoder.Put(absl::MakeConstSpan(&bad, 1)), StatusCode::kInvalidArgument);
  // Entries are PLAIN, which has no FIXED_LEN_BYTE_ARRAY(0).
  DictionaryEncoder<ByteArray> zero(0);
  const ByteArray empty;
  PQPAGE_EXPECT_ERROR(zero.Put(absl::MakeConstSpan(&empty, 1)), StatusCode::kInvalidArgument);
  DictionaryDecoder<ByteArray> zero_decoder(0);
  PQPAGE_EXPECT_ERROR(zero_decoder.SetDictionary(std::vector<uint8_t>(4), 1),
                      StatusCode::kInvalidArgument);
}

TEST(DictionaryTest, DataPageLayoutIsWidthByteThenHybridIndices) {
  DictionaryEncoder<int32_t> encoder;
  const std::vector<int32_t> values = {10, 20, 10, 30, 30, 30, 30, 30, 30, 30, 30, 30};
  PQPAGE_ASSERT_OK(encoder.Put(values));
  EXPECT_EQ(encoder.index_bit_width(), 2);
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  ASSERT_FALSE(page.empty());
  EXPECT_EQ(page[0], 2);
  RleBitPackedHybridDecoder indices;
  PQPAGE_ASSERT_OK(indices.Reset(absl::MakeConstSpan(page).subspan(1), 2, values.size()));
  std::vector<uint32_t> got(values.size());
  PQPAGE_ASSERT_OK(indices.Decode(absl::MakeSpan(got)));
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2, 2}));
  // The dictionary page is the PLAIN entries in index order.
  EXPECT_EQ(encoder.DictionaryPage(),
            (std::vector<uint8_t>{10, 0, 0, 0, 20, 0, 0, 0, 30, 0, 0, 0}));
}

TEST(DictionaryTest, IndexWidthIsBitsForSizeMinusOne) {
  for (auto [entries, width] : std::vector<std::pair<int, int>>{
           {1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {256, 8}, {257, 9}, {65536, 16}}) {
    DictionaryEncoder<int64_t> encoder;
    std::vector<int64_t> values(entries);
    for (int i = 0; i < entries; ++i) values[i] = i * 1000;
    PQPAGE_ASSERT_OK(encoder.Put(values));
    EXPECT_EQ(encoder.index_bit_width(), width) << entries;
    EXPECT_EQ(encoder.FinishDataPage()[0], width) << entries;
  }
}

TEST(DictionaryTest, LimitsStopTheEncoderSoTheCallerCanFallBack) {
  DictionaryOptions options;
  options.max_entries = 3;
  DictionaryEncoder<int32_t> encoder(options);
  const std::vector<int32_t> values = {1, 2, 1, 3, 3, 4, 1, 2};
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t taken, encoder.PutUntilFull(values));
  EXPECT_EQ(taken, 5u);
  EXPECT_TRUE(encoder.is_full());
  EXPECT_EQ(encoder.buffered_values(), 5);
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t more, encoder.PutUntilFull(values));
  EXPECT_EQ(more, 0u);
  // Through the Encoder interface a full dictionary is ResourceExhausted, the values before the
  // first that does not fit taken.
  DictionaryEncoder<int32_t> interface_encoder(options);
  Encoder<int32_t>& as_interface = interface_encoder;
  PQPAGE_EXPECT_ERROR(as_interface.Put(values), StatusCode::kResourceExhausted);
  EXPECT_EQ(interface_encoder.buffered_values(), 5);
  PQPAGE_EXPECT_ERROR(as_interface.Put(absl::MakeConstSpan(values).first(1)),
                      StatusCode::kResourceExhausted);
  EXPECT_EQ(interface_encoder.buffered_values(), 5);

  DictionaryOptions bytes_limit;
  bytes_limit.max_dictionary_bytes = 20;  // 4 + 5 per "hello"-sized entry
  DictionaryEncoder<ByteArray> strings(kVariableLength, bytes_limit);
  std::vector<std::string> storage = {"aaaaa", "bbbbb", "aaaaa", "ccccc"};
  std::vector<ByteArray> views;
  for (const auto& s : storage) views.emplace_back(s);
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t taken_strings, strings.PutUntilFull(views));
  EXPECT_EQ(taken_strings, 3u);
  EXPECT_EQ(strings.dictionary_bytes(), 18);
  EXPECT_TRUE(strings.is_full());
}

// EntryIndex and PutIndices build the page and dictionary Put of the same values builds, and
// stop at the same value when a limit is reached.
TEST(DictionaryTest, EntriesLookedUpOnceThenPutByIndex) {
  DictionaryOptions options;
  options.max_entries = 3;
  const std::vector<int32_t> values = {7, 9, 7, 4, 9, 5, 7};
  DictionaryEncoder<int32_t> by_value(options);
  PQPAGE_ASSERT_OK_AND_ASSIGN(size_t taken, by_value.PutUntilFull(values));
  ASSERT_EQ(taken, 5u);  // 5 would be the fourth entry

  DictionaryEncoder<int32_t> by_index(options);
  std::vector<uint32_t> indices;
  for (size_t i = 0; i < values.size(); ++i) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(int64_t entry, by_index.EntryIndex(values[i]));
    if (i < 5) {
      ASSERT_GE(entry, 0) << i;
      indices.push_back(static_cast<uint32_t>(entry));
    } else if (i == 5) {
      EXPECT_EQ(entry, -1);
      EXPECT_TRUE(by_index.is_full());
    } else {
      EXPECT_EQ(entry, -1) << "a full dictionary takes nothing more, known values included";
    }
  }
  EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(by_index.buffered_values(), 0) << "EntryIndex puts nothing into the page";
  PQPAGE_ASSERT_OK(by_index.PutIndices(indices));
  EXPECT_EQ(by_index.DictionaryPage(), by_value.DictionaryPage());
  EXPECT_EQ(by_index.FinishDataPage(), by_value.FinishDataPage());

  // An index past the entries takes nothing.
  const std::vector<uint32_t> bad = {1, 3};
  PQPAGE_EXPECT_ERROR(by_index.PutIndices(bad), StatusCode::kInvalidArgument);
  EXPECT_EQ(by_index.buffered_values(), 0);

  // Byte arrays are checked as PutUntilFull checks them.
  DictionaryEncoder<ByteArray> fixed(4);
  const std::string three = "abc";
  PQPAGE_EXPECT_ERROR(fixed.EntryIndex(ByteArray(three)).status(), StatusCode::kInvalidArgument);
  EXPECT_EQ(fixed.num_entries(), 0);
}

TEST(DictionaryTest, DecoderKeepsIndicesAndSkips) {
  DictionaryEncoder<int32_t> encoder;
  std::vector<int32_t> values(3000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>((i * 7) % 13);
  PQPAGE_ASSERT_OK(encoder.Put(values));
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  DictionaryDecoder<int32_t> decoder;
  PQPAGE_ASSERT_OK(decoder.SetDictionary(encoder.DictionaryPage(), encoder.num_entries()));
  PQPAGE_ASSERT_OK(decoder.Reset(page, values.size()));
  std::vector<uint32_t> indices(1000);
  PQPAGE_ASSERT_OK(decoder.DecodeIndices(absl::MakeSpan(indices)));
  for (size_t i = 0; i < indices.size(); ++i) {
    ASSERT_EQ(decoder.dictionary()[indices[i]], values[i]);
  }
  PQPAGE_ASSERT_OK(decoder.Skip(1001));
  std::vector<int32_t> rest(999);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(rest)));
  EXPECT_EQ(rest, std::vector<int32_t>(values.begin() + 2001, values.end()));
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(rest).first(1)), StatusCode::kInvalidArgument);
}

TEST(DictionaryTest, BitWidthZeroMeansAOneEntryDictionary) {
  // Width 0 and an RLE run of 5: every index is 0, the run header is still there.
  const std::vector<uint8_t> page = {0x00, 0x0A};
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(std::vector<int32_t>{42});
  PQPAGE_ASSERT_OK(decoder.Reset(page, 5));
  std::vector<int32_t> out(5);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(out)));
  EXPECT_EQ(out, std::vector<int32_t>(5, 42));
}

TEST(DictionaryTest, HostileInput) {
  DictionaryDecoder<int32_t> decoder;
  const std::vector<uint8_t> dictionary_page = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  PQPAGE_EXPECT_ERROR(decoder.SetDictionary(dictionary_page, -1), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.SetDictionary(dictionary_page, 4), StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(decoder.SetDictionary(dictionary_page, int64_t{1} << 62),
                      StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK(decoder.SetDictionary(dictionary_page, 3));
  std::vector<int32_t> out(8);
  // The decoder keeps a view of its input (its contract), so every page outlives its decoding.
  // RLE run of 8 copies of index 3 in a 3-entry dictionary.
  const std::vector<uint8_t> rle_out_of_range = {2, 0x10, 0x03};
  PQPAGE_ASSERT_OK(decoder.Reset(rle_out_of_range, 8));
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss);
  // Bit-packed group of 8 holding index 3 at its end.
  // Width 2: one group is 2 bytes; the last value (bits 14-15) is 3.
  const std::vector<uint8_t> packed_out_of_range = {2, 0x03, 0x00, 0xC0};
  PQPAGE_ASSERT_OK(decoder.Reset(packed_out_of_range, 8));
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out)), StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK(decoder.Reset(packed_out_of_range, 8));
  std::vector<uint32_t> indices(8);
  PQPAGE_EXPECT_ERROR(decoder.DecodeIndices(absl::MakeSpan(indices)), StatusCode::kDataLoss);
  const std::vector<uint8_t> width_33 = {33, 0x10, 0x01};
  PQPAGE_EXPECT_ERROR(decoder.Reset(width_33, 8), StatusCode::kDataLoss);
  const std::vector<uint8_t> empty;
  PQPAGE_EXPECT_ERROR(decoder.Reset(empty, 8), StatusCode::kDataLoss);
  PQPAGE_EXPECT_OK(decoder.Reset(empty, 0));
  const std::vector<uint8_t> width_1 = {1};
  PQPAGE_EXPECT_ERROR(decoder.Reset(width_1, -1), StatusCode::kInvalidArgument);
  // An empty dictionary (an all-null chunk) is legal; any index into it is not.
  PQPAGE_ASSERT_OK(decoder.SetDictionary(empty, 0));
  const std::vector<uint8_t> one_zero_index = {0, 0x02};
  PQPAGE_ASSERT_OK(decoder.Reset(one_zero_index, 1));
  PQPAGE_EXPECT_ERROR(decoder.Decode(absl::MakeSpan(out).first(1)), StatusCode::kDataLoss);
  // A byte-array dictionary whose entry runs past the page.
  DictionaryDecoder<ByteArray> strings;
  PQPAGE_EXPECT_ERROR(strings.SetDictionary(std::vector<uint8_t>{9, 0, 0, 0, 'a'}, 1),
                      StatusCode::kDataLoss);
  DictionaryDecoder<ByteArray> fixed(4);
  PQPAGE_EXPECT_ERROR(fixed.SetDictionary(std::vector<uint8_t>{1, 2, 3, 4, 5}, 2),
                      StatusCode::kDataLoss);
}

TEST(DictionaryTest, EveryTruncatedDataPageIsAnError) {
  DictionaryEncoder<int64_t> encoder;
  std::vector<int64_t> values(700);
  for (size_t i = 0; i < values.size(); ++i) values[i] = (i / 3) % 41;
  PQPAGE_ASSERT_OK(encoder.Put(values));
  const std::vector<uint8_t> page = encoder.FinishDataPage();
  DictionaryDecoder<int64_t> decoder;
  PQPAGE_ASSERT_OK(decoder.SetDictionary(encoder.DictionaryPage(), encoder.num_entries()));
  // 41 entries: width 6. The last group holds 700 % 8 = 4 values in 3 of its 6 bytes; cutting
  // only the padding after them leaves every value readable, which the decoder accepts. Any
  // other cut must be an error, and no cut may produce wrong values.
  ASSERT_EQ(page[0], 6);
  const size_t padding = 3;
  for (size_t cut = 0; cut < page.size(); ++cut) {
    const std::vector<uint8_t> truncated(page.begin(), page.begin() + cut);
    std::vector<int64_t> out(values.size());
    absl::Status status = decoder.Reset(truncated, values.size());
    if (status.ok()) status = decoder.Decode(absl::MakeSpan(out));
    if (cut < page.size() - padding) {
      EXPECT_FALSE(status.ok()) << "cut " << cut;
    } else {
      PQPAGE_EXPECT_OK(status);
      EXPECT_EQ(out, values) << "cut " << cut;
    }
  }
}

}  // namespace
}  // namespace pqpage
