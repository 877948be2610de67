// Column chunks built page by page in a test, so that every header field (and every lie a header
// can tell) is under the test's control: ChunkBuilder appends pages exactly as given, and Fixture
// opens a ColumnChunkReader over them.
#ifndef PQPAGE_TESTS_CHUNK_BUILDER_H_
#define PQPAGE_TESTS_CHUNK_BUILDER_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/bit_packed.h"
#include "pqpage/byte_source.h"
#include "pqpage/column_chunk_reader.h"
#include "pqpage/compression.h"
#include "pqpage/plain.h"
#include "pqpage/rle_bit_packed_hybrid.h"
#include "status_matchers.h"

namespace pqpage::testing {

using Bytes = std::vector<uint8_t>;

inline Bytes Levels(const std::vector<int16_t>& levels, int bit_width) {
  RleBitPackedHybridEncoder encoder(bit_width);
  EXPECT_TRUE(encoder.Put(absl::MakeConstSpan(levels)).ok());
  return encoder.Finish();
}

inline Bytes Prefixed(const Bytes& stream) {
  Bytes out;
  AppendLengthPrefixed(stream, &out);
  return out;
}

template <typename T>
Bytes Plain(const std::vector<T>& values) {
  PlainEncoder<T> encoder;
  PQPAGE_EXPECT_OK(encoder.Put(absl::MakeConstSpan(values)));
  return encoder.Finish();
}

inline Bytes Concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// Builds a column chunk: each Add* appends a header and a body exactly as given.
class ChunkBuilder {
 public:
  explicit ChunkBuilder(Compression codec = Compression::kUncompressed) : codec_(codec) {}

  ChunkBuilder& Dictionary(const Bytes& body, int32_t entries,
                           int32_t encoding = format::Encoding::PLAIN) {
    format::PageHeader header = Header(format::PageType::DICTIONARY_PAGE, body);
    format::DictionaryPageHeader dictionary;
    dictionary.__set_num_values(entries);
    dictionary.__set_encoding(encoding);
    header.__set_dictionary_page_header(dictionary);
    return Add(header, Compressed(body));
  }

  // A v1 page; `body` is the uncompressed [rep][def][values].
  ChunkBuilder& V1(const Bytes& body, int32_t num_values, int32_t encoding,
                   int32_t level_encoding = format::Encoding::RLE) {
    format::PageHeader header = Header(format::PageType::DATA_PAGE, body);
    format::DataPageHeader page;
    page.__set_num_values(num_values);
    page.__set_encoding(encoding);
    page.__set_definition_level_encoding(level_encoding);
    page.__set_repetition_level_encoding(level_encoding);
    header.__set_data_page_header(page);
    return Add(header, Compressed(body));
  }

  ChunkBuilder& V2(const Bytes& repetition, const Bytes& definition, const Bytes& values,
                   int32_t num_values, int32_t num_nulls, int32_t num_rows, int32_t encoding,
                   bool compress = true) {
    const Bytes stored_values = compress && codec_ != Compression::kUncompressed && !values.empty()
                                    ? Compressed(values)
                                    : values;
    const Bytes stored = Concat({repetition, definition, stored_values});
    format::PageHeader header = Header(format::PageType::DATA_PAGE_V2, stored);
    header.__set_uncompressed_page_size(
        static_cast<int32_t>(repetition.size() + definition.size() + values.size()));
    format::DataPageHeaderV2 page;
    page.__set_num_values(num_values);
    page.__set_num_nulls(num_nulls);
    page.__set_num_rows(num_rows);
    page.__set_encoding(encoding);
    page.__set_repetition_levels_byte_length(static_cast<int32_t>(repetition.size()));
    page.__set_definition_levels_byte_length(static_cast<int32_t>(definition.size()));
    page.__set_is_compressed(compress);
    header.__set_data_page_header_v2(page);
    return Add(header, stored);
  }

  // Any header with `body` stored as is (for index pages, unknown types and lies).
  ChunkBuilder& Raw(const format::PageHeader& header, const Bytes& body) {
    return Add(header, body);
  }

  ChunkBuilder& WithCrc(bool corrupt = false) {
    crc_ = true;
    corrupt_crc_ = corrupt;
    return *this;
  }

  const Bytes& bytes() const { return bytes_; }
  Compression codec() const { return codec_; }

  format::PageHeader Header(int32_t type, const Bytes& body) const {
    format::PageHeader header;
    header.__set_type(type);
    header.__set_uncompressed_page_size(static_cast<int32_t>(body.size()));
    header.__set_compressed_page_size(0);  // set when stored
    return header;
  }

 private:
  Bytes Compressed(const Bytes& body) const {
    Bytes out;
    EXPECT_TRUE(Compress(codec_, body, &out).ok());
    return out;
  }

  ChunkBuilder& Add(format::PageHeader header, const Bytes& stored) {
    header.__set_compressed_page_size(static_cast<int32_t>(stored.size()));
    if (crc_) {
      const uint32_t crc = PageCrc32(stored) ^ (corrupt_crc_ ? 1u : 0u);
      header.__set_crc(static_cast<int32_t>(crc));
    }
    EXPECT_TRUE(internal::SerializeCompact(header, &bytes_).ok());
    bytes_.insert(bytes_.end(), stored.begin(), stored.end());
    return *this;
  }

  Compression codec_;
  Bytes bytes_;
  bool crc_ = false;
  bool corrupt_crc_ = false;
};

inline ColumnDescriptor Column(PhysicalType type, int16_t max_def, int16_t max_rep,
                               int type_length = 0) {
  ColumnDescriptor column;
  column.path = {"group", "leaf"};
  column.type = type;
  column.type_length = type_length;
  column.max_definition_level = max_def;
  column.max_repetition_level = max_rep;
  return column;
}

// Owns the chunk's bytes and source for the reader's lifetime.
struct Fixture {
  Bytes bytes;
  std::unique_ptr<ByteSource> source;
  std::unique_ptr<ColumnChunkReader> reader;

  Fixture(const ChunkBuilder& chunk, const ColumnDescriptor& column, int64_t num_values,
          ReaderOptions options = {}, int64_t num_rows = -1, bool carry_delta_prefix = false,
          BitPackedOrder bit_packed_levels = BitPackedOrder::kMostSignificantFirst)
      : bytes(chunk.bytes()), source(MakeMemoryByteSource(bytes)) {
    ColumnChunkLocation location;
    location.offset = 0;
    location.length = static_cast<int64_t>(bytes.size());
    location.codec = chunk.codec();
    location.num_values = num_values;
    location.num_rows = num_rows;
    location.context = "test chunk";
    location.carry_delta_byte_array_prefix = carry_delta_prefix;
    location.bit_packed_levels = bit_packed_levels;
    reader = std::make_unique<ColumnChunkReader>(column, source.get(), location, options);
  }
};

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_CHUNK_BUILDER_H_
