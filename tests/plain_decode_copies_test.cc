// PlainDecoder<ByteArray>::DecodeCopies: the values Decode views, copied into one buffer with
// their lengths, and on bad data an error that consumes nothing and asks for no memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "pqpage/plain.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

std::vector<uint8_t> Encode(const std::vector<std::string>& strings, int type_length) {
  std::vector<ByteArray> values;
  for (const std::string& text : strings) values.emplace_back(text);
  PlainEncoder<ByteArray> encoder(type_length);
  PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values)));
  return encoder.Finish();
}

// Copies all of `decoder`'s values in calls of `step`, checking that each call asks for its exact
// total once.
std::vector<std::string> CopyAll(PlainDecoder<ByteArray>& decoder, int64_t step) {
  std::vector<std::string> out;
  while (decoder.values_left() > 0) {
    const int64_t count = std::min(step, decoder.values_left());
    std::vector<int32_t> lengths(static_cast<size_t>(count), -1);
    std::vector<uint8_t> buffer;
    int calls = 0;
    PQPAGE_EXPECT_OK(decoder.DecodeCopies(count, lengths.data(), [&](size_t bytes) {
      ++calls;
      buffer.resize(bytes);
      return buffer.data();
    }));
    EXPECT_EQ(calls, 1);
    size_t at = 0;
    for (const int32_t length : lengths) {
      EXPECT_GE(length, 0);
      out.emplace_back(reinterpret_cast<const char*>(buffer.data()) + at,
                       static_cast<size_t>(length));
      at += static_cast<size_t>(length);
    }
    EXPECT_EQ(at, buffer.size());
  }
  return out;
}

TEST(PlainDecodeCopiesTest, ByteArraysOfEveryLengthClass) {
  // Lengths across the inline copy's classes (0, 1-3, 4-7, 8-15, 16-32) and past them.
  std::vector<std::string> strings;
  for (int length = 0; length <= 80; ++length) {
    std::string text;
    for (int i = 0; i < length; ++i) text.push_back(static_cast<char>('a' + (i * 7 + length) % 26));
    strings.push_back(text);
  }
  // In order, and mixed so that short values, whose copies may run past their end, sit between
  // longer and shorter ones.
  std::vector<std::string> mixed;
  for (size_t i = 0; i < strings.size(); ++i) mixed.push_back(strings[(i * 37) % strings.size()]);
  for (const std::vector<std::string>* values : {&strings, &mixed}) {
    const std::vector<uint8_t> page = Encode(*values, kVariableLength);
    for (const int64_t step : {1, 3, 16, 81}) {
      PlainDecoder<ByteArray> decoder;
      PQPAGE_ASSERT_OK(decoder.Reset(page, static_cast<int64_t>(values->size())));
      EXPECT_EQ(CopyAll(decoder, step), *values) << "step " << step;
    }
  }
}

TEST(PlainDecodeCopiesTest, FixedLengthValuesMoveInOneBlock) {
  const std::vector<std::string> strings = {"abcd", "efgh", "ijkl", "mnop", "qrst"};
  const std::vector<uint8_t> page = Encode(strings, 4);
  PlainDecoder<ByteArray> decoder(4);
  PQPAGE_ASSERT_OK(decoder.Reset(page, 5));
  EXPECT_EQ(CopyAll(decoder, 2), strings);
}

TEST(PlainDecodeCopiesTest, NothingIsAskedForWhenThereIsNothingToCopy) {
  const std::vector<uint8_t> page = Encode({"x"}, kVariableLength);
  PlainDecoder<ByteArray> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(page, 1));
  int calls = 0;
  PQPAGE_EXPECT_OK(decoder.DecodeCopies(0, nullptr, [&](size_t) -> uint8_t* {
    ++calls;
    return nullptr;
  }));
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(decoder.values_left(), 1);
}

TEST(PlainDecodeCopiesTest, BadLengthsConsumeNothingAndAskForNoMemory) {
  std::vector<uint8_t> page = Encode({"first", "second", "third"}, kVariableLength);
  // The third value's prefix claims one byte more than the page holds.
  page[4 + 5 + 4 + 6] = 6;
  PlainDecoder<ByteArray> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(page, 3));
  std::vector<int32_t> lengths(3);
  int calls = 0;
  const auto reserve = [&](size_t) -> uint8_t* {
    ++calls;
    return nullptr;
  };
  PQPAGE_EXPECT_ERROR(decoder.DecodeCopies(3, lengths.data(), reserve),
                      absl::StatusCode::kDataLoss);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(decoder.values_left(), 3);
  // The two good values still decode, as views.
  std::vector<ByteArray> views(2);
  PQPAGE_ASSERT_OK(decoder.Decode(absl::MakeSpan(views)));
  EXPECT_EQ(views[1].AsStringView(), "second");

  // A prefix cut short is DataLoss too.
  const std::vector<uint8_t> cut(page.begin(), page.begin() + 4 + 5 + 2);
  PlainDecoder<ByteArray> short_page;
  PQPAGE_ASSERT_OK(short_page.Reset(cut, 2));
  PQPAGE_EXPECT_ERROR(short_page.DecodeCopies(2, lengths.data(), reserve),
                      absl::StatusCode::kDataLoss);
  EXPECT_EQ(calls, 0);
}

TEST(PlainDecodeCopiesTest, AskingForMoreThanThePageHoldsIsInvalidArgument) {
  const std::vector<uint8_t> page = Encode({"a", "b"}, kVariableLength);
  PlainDecoder<ByteArray> decoder;
  PQPAGE_ASSERT_OK(decoder.Reset(page, 2));
  std::vector<int32_t> lengths(3);
  const auto reserve = [](size_t) -> uint8_t* { return nullptr; };
  PQPAGE_EXPECT_ERROR(decoder.DecodeCopies(3, lengths.data(), reserve),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(decoder.DecodeCopies(-1, lengths.data(), reserve),
                      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
