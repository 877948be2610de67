// Fuzz target: every PlainDecoder on arbitrary bytes. Header: byte 0 picks the type (BOOLEAN,
// INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), byte 1 the FLBA type
// length (0 is invalid) and the batch pattern, bytes 2-3 the value count; the rest is the page.
// Decode, Skip, and the type-specific forms (DecodeToBitmap, DecodeToOffsets with small byte
// limits, DecodeBytes) in assorted batch sizes must either succeed or return an error, never read
// outside the input.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/plain.h"
#include "pqpage/types.h"

namespace {

using pqpage::fuzz::DecodeInThreeWayBatches;
using pqpage::fuzz::InBatches;

template <typename T>
void RunFixed(absl::Span<const uint8_t> page, int64_t count, uint8_t pattern) {
  pqpage::PlainDecoder<T> decoder;
  pqpage::fuzz::FuzzDecoder<T>(decoder, page, count, pattern);
}

void RunBool(absl::Span<const uint8_t> page, int64_t count, uint8_t pattern) {
  pqpage::PlainDecoder<bool> decoder;
  std::unique_ptr<bool[]> values(new bool[static_cast<size_t>(count) + 1]);
  const absl::Span<bool> out(values.get(), static_cast<size_t>(count));
  std::vector<uint8_t> bitmap(static_cast<size_t>(count) / 8 + 2);
  if (decoder.Reset(page, count).ok()) (void)decoder.Decode(out);
  if (decoder.Reset(page, count).ok()) {
    (void)decoder.DecodeToBitmap(bitmap.data(), pattern % 8, count);
  }
  if (decoder.Reset(page, count).ok()) {
    int64_t bit = pattern % 8;
    DecodeInThreeWayBatches(decoder, out, pattern, [&](int64_t n) {
      absl::StatusOr<int64_t> ones = decoder.DecodeToBitmap(bitmap.data(), bit, n);
      bit += n;
      return ones.status();
    });
    (void)decoder.DecodeToBitmap(bitmap.data(), 0, 1);
    (void)decoder.DecodeToBitmap(bitmap.data(), 0, -1);
    (void)decoder.Skip(1);
  }
}

void RunByteArray(absl::Span<const uint8_t> page, int64_t count, uint8_t pattern) {
  pqpage::PlainDecoder<pqpage::ByteArray> decoder;
  std::vector<pqpage::ByteArray> values(static_cast<size_t>(count));
  if (decoder.Reset(page, count).ok()) (void)decoder.Decode(absl::MakeSpan(values));
  if (decoder.Reset(page, count).ok()) {
    pqpage::fuzz::DecodeInMixedBatches(decoder, absl::MakeSpan(values), pattern,
                                       pqpage::fuzz::AnyValues{});
  }
  // Arrow-style decoding, with a byte limit small enough to be hit, starting new buffers each
  // time it is (as a caller would), and checking the offsets it reports.
  if (decoder.Reset(page, count).ok()) {
    const int64_t max_data_bytes =
        (pattern & 0x80) ? std::numeric_limits<int32_t>::max() : (pattern & 0x7F) * 3;
    std::vector<int32_t> offsets;
    std::vector<uint8_t> bytes;
    if (pattern & 0x40) {
      // A non-empty offsets vector whose last entry disagrees with the data must be refused.
      offsets = {0, 5};
      if (decoder.DecodeToOffsets(1, &offsets, &bytes, max_data_bytes).ok()) {
        pqpage::fuzz::AbortWithMessage("DecodeToOffsets accepted offsets not matching the data");
      }
      offsets.clear();
    }
    int stalls = 0;
    InBatches(decoder, pattern, [&](int, int64_t n) -> absl::Status {
      absl::StatusOr<int64_t> appended =
          decoder.DecodeToOffsets(n, &offsets, &bytes, max_data_bytes);
      if (!appended.ok()) return appended.status();
      if (*appended < 0 || *appended > n || offsets.back() != static_cast<int64_t>(bytes.size()) ||
          static_cast<int64_t>(bytes.size()) > max_data_bytes) {
        pqpage::fuzz::AbortWithMessage("DecodeToOffsets broke its contract");
      }
      if (*appended < n) {
        // The limit was reached: new buffers; a value larger than the limit stalls for good.
        if (++stalls > 1 && offsets.size() == 1) return absl::ResourceExhaustedError("stall");
        offsets.clear();
        bytes.clear();
      }
      return absl::OkStatus();
    });
    (void)decoder.DecodeToOffsets(-1, &offsets, &bytes);
    (void)decoder.DecodeToOffsets(1, &offsets, &bytes, -1);
  }
  // Copying decode: each call's lengths must add up to the one size it asked for, and a failed
  // call must ask for nothing.
  if (decoder.Reset(page, count).ok()) {
    std::vector<int32_t> lengths(static_cast<size_t>(count));
    std::vector<uint8_t> bytes;
    InBatches(decoder, pattern, [&](int, int64_t n) -> absl::Status {
      size_t asked = 0;
      int calls = 0;
      absl::Status status = decoder.DecodeCopies(n, lengths.data(), [&](size_t size) {
        ++calls;
        asked = size;
        bytes.resize(size);
        return bytes.data();
      });
      size_t total = 0;
      for (int64_t i = 0; status.ok() && i < n; ++i) {
        total += static_cast<size_t>(lengths[static_cast<size_t>(i)]);
      }
      if ((status.ok() && n > 0 && (calls != 1 || total != asked)) ||
          (!status.ok() && calls != 0)) {
        pqpage::fuzz::AbortWithMessage("DecodeCopies broke its contract");
      }
      return status;
    });
  }
  (void)decoder.Reset(page, -count - 1);
}

void RunFixedLen(absl::Span<const uint8_t> page, int64_t count, int type_length, uint8_t pattern) {
  pqpage::PlainDecoder<pqpage::ByteArray> decoder(type_length);
  pqpage::fuzz::FuzzFixedLenDecoder(decoder, page, count, type_length, pattern);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pqpage::fuzz::TypedPage in;
  if (!pqpage::fuzz::ReadTypedPage(data, size, &in)) return 0;
  const absl::Span<const uint8_t> page = in.page;
  const int64_t count = in.count;
  const uint8_t pattern = in.pattern;
  const int type = in.type_byte % 8;
  if (type == 0) {
    RunBool(page, count, pattern);
  } else if (type == 6) {
    RunByteArray(page, count, pattern);
  } else if (type == 7) {
    RunFixedLen(page, count, (in.type_byte / 8) % 20, pattern);
  } else {
    pqpage::fuzz::WithTypeAt<int32_t, int64_t, pqpage::Int96, float, double>(
        type - 1, [&]<typename T>() { RunFixed<T>(page, count, pattern); });
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  using pqpage::fuzz::TypedPageSeed;
  std::vector<std::vector<uint8_t>> seeds;
  {
    pqpage::PlainEncoder<bool> encoder;
    bool bits[77];
    for (int i = 0; i < 77; ++i) bits[i] = (i * 5) % 3 == 0;
    (void)encoder.Put(absl::MakeConstSpan(bits, 77));  // never fails
    seeds.push_back(TypedPageSeed(0, 3, 77, encoder.Finish()));
  }
  {
    pqpage::PlainEncoder<int32_t> encoder;
    std::vector<int32_t> values = {0, 1, -1, INT32_MIN, INT32_MAX, 42, 7, 8, 9};
    (void)encoder.Put(values);  // never fails
    seeds.push_back(TypedPageSeed(1, 1, values.size(), encoder.Finish()));
  }
  {
    pqpage::PlainEncoder<double> encoder;
    std::vector<double> values = {0.0, -0.0, 1.5, -2.25e300, 1e-310, 3.0, 4.0};
    (void)encoder.Put(values);  // never fails
    seeds.push_back(TypedPageSeed(5, 2, values.size(), encoder.Finish()));
  }
  {
    pqpage::PlainEncoder<pqpage::Int96> encoder;
    std::vector<pqpage::Int96> values(5);
    values[1].words[2] = 0x80000000u;
    (void)encoder.Put(values);  // never fails
    seeds.push_back(TypedPageSeed(3, 4, values.size(), encoder.Finish()));
  }
  {
    pqpage::PlainEncoder<pqpage::ByteArray> encoder;
    std::vector<std::string_view> values = {"",  "a",  "hello", "parquet page",    "", "zzzzzzzzzz",
                                            "x", "yy", "zzz",   "0123456789abcdef"};
    (void)encoder.Put(absl::MakeConstSpan(values));
    const std::vector<uint8_t> page = encoder.Finish();
    seeds.push_back(TypedPageSeed(6, 5, values.size(), page));
    seeds.push_back(TypedPageSeed(6, 0x85, values.size(), page));
    seeds.push_back(TypedPageSeed(6, 0x41, values.size(), page));
  }
  {
    pqpage::PlainEncoder<pqpage::ByteArray> encoder(3);
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 3 * 40; ++i) bytes.push_back(static_cast<uint8_t>(i * 11));
    (void)encoder.PutBytes(bytes);
    seeds.push_back(TypedPageSeed(7 + 8 * 3, 6, 40, encoder.Finish()));
  }
  return seeds;
}
