// Fuzz target: PLAIN encode then decode for every type (BOOLEAN, INT32, INT64, INT96, FLOAT,
// DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY). Byte 0 picks the type (and the FLBA length), byte 1
// where the values are split between the two Put forms and the batch pattern; the rest are the
// values. Checks: the page has exactly MaxEncodedSize bytes (and EstimatedSize said so), FinishInto
// appends and resets, and the page decodes (Decode, Skip and the type-specific forms, in batches)
// to exactly the values put, bit for bit. Any difference aborts.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/plain.h"
#include "pqpage/types.h"

namespace {

constexpr int kHeaderBytes = 2;
constexpr uint8_t kJunk[] = {0xDE, 0xAD};

[[noreturn]] void Fail(const char* what, size_t at) {
  pqpage::fuzz::AbortWithMessage("PLAIN round trip: %s (at %zu)", what, at);
}

// FinishInto must append after what is already in the buffer and reset the encoder.
template <typename Encoder>
std::vector<uint8_t> FinishChecked(Encoder& encoder, size_t expected_size) {
  if (encoder.EstimatedSize() != expected_size) Fail("EstimatedSize", encoder.EstimatedSize());
  std::vector<uint8_t> out(std::begin(kJunk), std::end(kJunk));
  encoder.FinishInto(&out);
  if (out.size() != expected_size + 2 || out[0] != kJunk[0] || out[1] != kJunk[1]) {
    Fail("FinishInto size or prefix", out.size());
  }
  if (encoder.EstimatedSize() != 0 || !encoder.Finish().empty()) Fail("not reset by Finish", 0);
  return std::vector<uint8_t>(out.begin() + 2, out.end());
}

template <typename T>
void RunFixed(absl::Span<const uint8_t> bytes, uint8_t pattern) {
  const size_t n = bytes.size() / sizeof(T);
  std::vector<T> values(n);
  if (n > 0) std::memcpy(values.data(), bytes.data(), n * sizeof(T));
  const size_t split = (pattern * 31u) % (n + 1);
  pqpage::PlainEncoder<T> encoder;
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", 0);
  if (!encoder.Put(absl::MakeConstSpan(values).subspan(split)).ok()) Fail("Put", 0);
  const std::vector<uint8_t> page =
      FinishChecked(encoder, pqpage::PlainEncoder<T>::MaxEncodedSize(n));
  if (n > 0 && std::memcmp(page.data(), values.data(), page.size()) != 0) Fail("layout", 0);
  pqpage::PlainDecoder<T> decoder;
  pqpage::fuzz::CheckDecodesTo(decoder, page, absl::MakeConstSpan(values), pattern, Fail);
}

void RunBool(absl::Span<const uint8_t> bytes, uint8_t pattern) {
  const size_t n = bytes.size() * 8 - pattern % 8 * (bytes.empty() ? 0 : 1);
  std::unique_ptr<bool[]> values(new bool[n + 1]);
  for (size_t i = 0; i < n; ++i) values[i] = (bytes[i / 8] >> (i % 8)) & 1;
  const size_t split = (pattern * 31u) % (n + 1);
  pqpage::PlainEncoder<bool> encoder;
  if (!encoder.Put(absl::MakeConstSpan(values.get(), split)).ok()) Fail("Put", 0);
  // The rest from the input bytes as a bitmap, from bit `split` on.
  encoder.PutBitmap(bytes.data(), static_cast<int64_t>(split), static_cast<int64_t>(n - split));
  const std::vector<uint8_t> page =
      FinishChecked(encoder, pqpage::PlainEncoder<bool>::MaxEncodedSize(n));
  for (size_t i = 0; i < page.size(); ++i) {
    const uint8_t used = i * 8 + 8 <= n ? 0xFF : static_cast<uint8_t>((1u << (n % 8)) - 1);
    if (page[i] != (bytes[i] & used)) Fail("layout or padding", i);
  }
  pqpage::PlainDecoder<bool> decoder;
  if (!decoder.Reset(page, static_cast<int64_t>(n)).ok()) Fail("Reset", 0);
  std::unique_ptr<bool[]> out(new bool[n + 1]);
  std::vector<uint8_t> bitmap(n / 8 + 2);
  pqpage::fuzz::CheckInMixedBatches(
      decoder, n, pattern,
      [&](int i, size_t position, size_t count) {
        if (i % 3 == 0) {
          if (!decoder.Decode(absl::MakeSpan(out.get(), count)).ok()) Fail("Decode", position);
          for (size_t k = 0; k < count; ++k) {
            if (out[k] != values[position + k]) Fail("Decode differs", position + k);
          }
        } else {
          const int64_t offset = static_cast<int64_t>(position % 8);
          std::fill(bitmap.begin(), bitmap.end(), 0x5A);
          absl::StatusOr<int64_t> ones =
              decoder.DecodeToBitmap(bitmap.data(), offset, static_cast<int64_t>(count));
          if (!ones.ok()) Fail("DecodeToBitmap", position);
          int64_t expected_ones = 0;
          for (size_t k = 0; k < count; ++k) {
            const size_t bit = k + static_cast<size_t>(offset);
            if (((bitmap[bit / 8] >> (bit % 8)) & 1) != values[position + k]) {
              Fail("DecodeToBitmap differs", position + k);
            }
            expected_ones += values[position + k];
          }
          if (*ones != expected_ones) Fail("DecodeToBitmap count", position);
          const size_t after = count + static_cast<size_t>(offset);
          for (size_t bit = after; bit < bitmap.size() * 8; ++bit) {
            if (((bitmap[bit / 8] >> (bit % 8)) & 1) != ((0x5A >> (bit % 8)) & 1)) {
              Fail("DecodeToBitmap wrote past its bits", position);
            }
          }
        }
      },
      Fail);
}

// Byte arrays: a byte gives each value's length, the following bytes its content.
void RunByteArray(absl::Span<const uint8_t> bytes, uint8_t pattern) {
  std::vector<pqpage::ByteArray> values;
  size_t total = 0;
  for (size_t at = 0; at < bytes.size();) {
    const size_t length = std::min<size_t>(bytes[at] % 48, bytes.size() - at - 1);
    values.emplace_back(bytes.data() + at + 1, static_cast<uint32_t>(length));
    total += length;
    at += 1 + length;
  }
  const size_t n = values.size();
  const size_t split = (pattern * 31u) % (n + 1);
  std::vector<std::string_view> views;
  for (size_t i = split; i < n; ++i) views.push_back(values[i].AsStringView());
  pqpage::PlainEncoder<pqpage::ByteArray> encoder;
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", 0);
  if (!encoder.Put(absl::MakeConstSpan(views)).ok()) Fail("Put string_view", split);
  const std::vector<uint8_t> page = FinishChecked(encoder, encoder.MaxEncodedSize(n, total));
  pqpage::PlainDecoder<pqpage::ByteArray> decoder;
  pqpage::fuzz::CheckDecodesTo(
      decoder, page, absl::MakeConstSpan(values), pattern, Fail,
      [&](absl::Span<const pqpage::ByteArray> decoded, size_t position) {
        for (size_t k = 0; k < decoded.size(); ++k) {
          if (decoded[k].size > 0 &&
              (decoded[k].data < page.data() || decoded[k].data >= page.data() + page.size())) {
            Fail("view outside the page", position + k);
          }
        }
      });
  // Arrow-style, with a byte limit from the pattern: every value must come out once, in order.
  const int64_t max_data_bytes = (pattern & 0x80) ? int64_t{0x7FFFFFFF} : 48 + pattern % 64;
  if (!decoder.Reset(page, static_cast<int64_t>(n)).ok()) Fail("Reset", 0);
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
  size_t position = 0;
  for (int i = 0; decoder.values_left() > 0; ++i) {
    const int64_t count = pqpage::fuzz::BatchSize(pattern, i, decoder.values_left());
    absl::StatusOr<int64_t> appended =
        decoder.DecodeToOffsets(count, &offsets, &data, max_data_bytes);
    if (!appended.ok() || *appended < 0 || *appended > count) Fail("DecodeToOffsets", position);
    const size_t first = offsets.size() - 1 - static_cast<size_t>(*appended);
    for (size_t k = 0; k < static_cast<size_t>(*appended); ++k) {
      const pqpage::ByteArray value(
          data.data() + offsets[first + k],
          static_cast<uint32_t>(offsets[first + k + 1] - offsets[first + k]));
      if (!pqpage::fuzz::SameValue(value, values[position + k])) {
        Fail("DecodeToOffsets differs", position + k);
      }
    }
    position += static_cast<size_t>(*appended);
    if (static_cast<int64_t>(data.size()) > max_data_bytes) Fail("max_data_bytes passed", position);
    if (*appended < count) {
      if (offsets.size() <= 1) Fail("DecodeToOffsets stalled on a value under the limit", position);
      offsets.clear();
      data.clear();
    }
  }
  if (position != n) Fail("DecodeToOffsets count", position);
}

void RunFixedLen(absl::Span<const uint8_t> bytes, int type_length, uint8_t pattern) {
  const size_t width = static_cast<size_t>(type_length);
  const size_t n = bytes.size() / width;
  std::vector<pqpage::ByteArray> values;
  for (size_t i = 0; i < n; ++i) {
    values.emplace_back(bytes.data() + i * width, static_cast<uint32_t>(width));
  }
  const size_t split = (pattern * 31u) % (n + 1);
  pqpage::PlainEncoder<pqpage::ByteArray> encoder(type_length);
  if (!encoder.Put(absl::MakeConstSpan(values).first(split)).ok()) Fail("Put", 0);
  if (!encoder.PutBytes(bytes.subspan(split * width, (n - split) * width)).ok()) {
    Fail("PutBytes", split);
  }
  if (n > 0) {
    const uint8_t wrong[1] = {0};
    // A value of the wrong length must be refused, and leave the page unchanged.
    if (type_length != 1 && encoder.Put(absl::MakeConstSpan({pqpage::ByteArray(wrong, 1)})).ok()) {
      Fail("Put accepted a value of the wrong length", 0);
    }
  }
  const std::vector<uint8_t> page = FinishChecked(encoder, encoder.MaxEncodedSize(n, n * width));
  if (n > 0 && std::memcmp(page.data(), bytes.data(), n * width) != 0) Fail("layout", 0);
  pqpage::PlainDecoder<pqpage::ByteArray> decoder(type_length);
  if (!decoder.Reset(page, static_cast<int64_t>(n)).ok()) Fail("Reset", 0);
  std::vector<pqpage::ByteArray> out(n);
  std::vector<uint8_t> out_bytes(n * width);
  pqpage::fuzz::CheckInMixedBatches(
      decoder, n, pattern,
      [&](int i, size_t position, size_t count) {
        if (i % 3 == 0) {
          if (!decoder.Decode(absl::MakeSpan(out).first(count)).ok()) Fail("Decode", position);
          for (size_t k = 0; k < count; ++k) {
            if (!pqpage::fuzz::SameValue(out[k], values[position + k])) {
              Fail("Decode differs", position + k);
            }
          }
        } else {
          if (!decoder.DecodeBytes(absl::MakeSpan(out_bytes).first(count * width)).ok()) {
            Fail("DecodeBytes", position);
          }
          if (count > 0 &&
              std::memcmp(out_bytes.data(), bytes.data() + position * width, count * width) != 0) {
            Fail("DecodeBytes differs", position);
          }
        }
      },
      Fail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kHeaderBytes) return 0;
  const uint8_t pattern = data[1];
  const absl::Span<const uint8_t> bytes(data + kHeaderBytes, size - kHeaderBytes);
  const int type = data[0] % 8;
  if (type == 0) {
    RunBool(bytes, pattern);
  } else if (type == 6) {
    RunByteArray(bytes, pattern);
  } else if (type == 7) {
    RunFixedLen(bytes, 1 + (data[0] / 8) % 20, pattern);
  } else {
    pqpage::fuzz::WithTypeAt<int32_t, int64_t, pqpage::Int96, float, double>(
        type - 1, [&]<typename T>() { RunFixed<T>(bytes, pattern); });
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (uint8_t head : {0, 1, 2, 3, 4, 5, 6, 7, 7 + 8 * 4, 7 + 8 * 15}) {
    std::vector<uint8_t> seed = {head, static_cast<uint8_t>(head * 37 + 3)};
    for (int i = 0; i < 150; ++i) seed.push_back(static_cast<uint8_t>(i * 73 + (i >> 3)));
    seeds.push_back(seed);
  }
  // -0.0, NaN with a payload, +inf as DOUBLE.
  seeds.push_back({5, 1, 0, 0,    0,    0, 0, 0, 0, 0x80, 1, 0,    0,
                   0, 0, 0, 0xF8, 0x7F, 0, 0, 0, 0, 0,    0, 0xF0, 0x7F});
  return seeds;
}
