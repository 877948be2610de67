// Fuzz target: the page decoder on an arbitrary column chunk. Byte 0 picks the column's shape
// (physical type, maximum definition and repetition levels), byte 1 the codec and the batch
// pattern (and bit 4 whether the chunk is read in place or copied out through ReadAt), byte 2 the
// value count the metadata claims; the rest is the chunk's pages. Every read
// form must succeed or return an error, never read outside the input or allocate for a count the
// input merely claims.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/column_chunk_read_loop.h"
#include "fuzz/fuzz_seeds.h"
#include "fuzz/read_at_only_source.h"
#include "pqpage/column_chunk_writer.h"

namespace {

pqpage::ColumnDescriptor Shape(uint8_t selector) {
  pqpage::ColumnDescriptor column;
  column.path = {"fuzz"};
  column.type = static_cast<pqpage::PhysicalType>(selector % 8);
  column.max_repetition_level = static_cast<int16_t>((selector >> 5) & 1);
  column.max_definition_level =
      std::max<int16_t>(static_cast<int16_t>((selector >> 3) & 3), column.max_repetition_level);
  column.type_length = 1 + (selector >> 6);
  return column;
}

constexpr pqpage::Compression kCodecs[] = {
    pqpage::Compression::kUncompressed, pqpage::Compression::kSnappy,
    pqpage::Compression::kGzip,         pqpage::Compression::kBrotli,
    pqpage::Compression::kLz4Hadoop,    pqpage::Compression::kZstd,
    pqpage::Compression::kLz4Raw,       pqpage::Compression::kUncompressed};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const pqpage::ColumnDescriptor column = Shape(data[0]);
  const auto chunk = absl::MakeConstSpan(data + 3, size - 3);
  std::unique_ptr<pqpage::ByteSource> source;
  if ((data[1] & 16) != 0) {
    source = std::make_unique<pqpage::fuzz::ReadAtOnlySource>(chunk);
  } else {
    source = pqpage::MakeMemoryByteSource(chunk);
  }
  pqpage::ColumnChunkLocation location;
  location.length = static_cast<int64_t>(chunk.size());
  location.codec = kCodecs[data[1] % 8];
  location.num_values = data[2] * 4;
  location.num_rows = data[2] % 2 ? -1 : location.num_values;
  pqpage::ReaderOptions options;
  options.verify_checksums = (data[1] & 8) != 0;
  options.max_page_bytes = 1 << 20;
  pqpage::ColumnChunkReader reader(column, source.get(), location, options);
  pqpage::fuzz::ReadChunk(reader, data[1], location.num_values + 1);
  return 0;
}

namespace {

// A chunk written by pqpage's own page builder, behind the harness's three header bytes.
template <typename T>
std::vector<uint8_t> Seed(uint8_t shape, uint8_t codec_index, absl::Span<const T> values,
                          const std::vector<int16_t>& definition,
                          const std::vector<int16_t>& repetition, pqpage::WriterOptions options) {
  const pqpage::ColumnDescriptor column = Shape(shape);
  options.compression = kCodecs[codec_index];
  options.data_page_size = 64;  // several pages per chunk
  pqpage::ColumnChunkWriter writer(column, options);
  if (!writer.WriteBatch<T>(definition, repetition, values).ok()) std::abort();
  auto chunk = writer.Finish(0);
  if (!chunk.ok()) std::abort();
  const size_t levels = definition.empty() ? values.size() : definition.size();
  return pqpage::fuzz::SeedWithHeader(
      // Odd codecs' seeds are read through ReadAt, the others in place: the replay covers both.
      {shape,
       static_cast<uint8_t>(codec_index | (options.write_checksums ? 8 : 0) |
                            (codec_index % 2 ? 16 : 0)),
       static_cast<uint8_t>(levels / 4)},
      chunk->bytes);
}

}  // namespace

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  using pqpage::ByteArray;
  std::vector<std::vector<uint8_t>> seeds;
  pqpage::WriterOptions v1;
  pqpage::WriterOptions v2;
  v2.data_page_version = 2;
  v2.write_checksums = true;
  // INT32, optional (max_def 1), dictionary-encoded, snappy, v1: 40 levels with nulls.
  std::vector<int32_t> ints;
  std::vector<int16_t> definition;
  for (int i = 0; i < 40; ++i) {
    definition.push_back(i % 5 == 0 ? 0 : 1);
    if (i % 5 != 0) ints.push_back(i % 7);
  }
  seeds.push_back(Seed<int32_t>(1 | (1 << 3), 1, absl::MakeConstSpan(ints), definition, {}, v1));
  // A list of strings (max_def 2, max_rep 1), delta, zstd, v2 with CRCs.
  const std::vector<std::string> words = {"axis", "axle", "babble", "babyhood", ""};
  std::vector<ByteArray> strings;
  std::vector<int16_t> list_definition, list_repetition;
  for (int i = 0; i < 24; ++i) {
    list_repetition.push_back(i % 3 == 0 ? 0 : 1);
    list_definition.push_back(i % 7 == 0 ? 1 : 2);
    if (i % 7 != 0) strings.emplace_back(words[static_cast<size_t>(i) % words.size()]);
  }
  pqpage::WriterOptions delta = v2;
  delta.encoding = pqpage::EncodingPolicy::kDelta;
  seeds.push_back(Seed<ByteArray>(6 | (2 << 3) | (1 << 5), 5, absl::MakeConstSpan(strings),
                                  list_definition, list_repetition, delta));
  // Required BOOLEAN in v2 (RLE), gzip.
  bool flags[36];
  for (int i = 0; i < 36; ++i) flags[i] = i % 3 != 0;
  seeds.push_back(Seed<bool>(0, 2, absl::MakeConstSpan(flags), {}, {}, v2));
  // Required DOUBLE, BYTE_STREAM_SPLIT, LZ4_RAW.
  std::vector<double> doubles;
  for (int i = 0; i < 32; ++i) doubles.push_back(i * 0.25 - 3);
  pqpage::WriterOptions split = v1;
  split.encoding = pqpage::EncodingPolicy::kByteStreamSplit;
  seeds.push_back(Seed<double>(5, 6, absl::MakeConstSpan(doubles), {}, {}, split));
  return seeds;
}
