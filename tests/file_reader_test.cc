// The file layer's reading side: footers, column chunk ranges, writer quirks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "file/writer_quirks.h"
#include "metadata/thrift_compact.h"
#include "parquet_types.h"
#include "pqpage/file.h"
#include "pqpage/plain.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using Bytes = std::vector<uint8_t>;

void AppendMagic(Bytes* out) { out->insert(out->end(), {'P', 'A', 'R', '1'}); }

// A one-column file (required INT32 "v", values 1, 2, 3 in one PLAIN page); `edit` may change
// the footer before it is written.
Bytes MakeFile(const std::function<void(format::FileMetaData*)>& edit = nullptr) {
  Bytes file;
  AppendMagic(&file);
  PlainEncoder<int32_t> plain;
  PQPAGE_EXPECT_OK(plain.Put(std::vector<int32_t>{1, 2, 3}));
  const Bytes body = plain.Finish();
  format::PageHeader header;
  header.__set_type(format::PageType::DATA_PAGE);
  header.__set_uncompressed_page_size(static_cast<int32_t>(body.size()));
  header.__set_compressed_page_size(static_cast<int32_t>(body.size()));
  format::DataPageHeader page;
  page.__set_num_values(3);
  page.__set_encoding(format::Encoding::PLAIN);
  page.__set_definition_level_encoding(format::Encoding::RLE);
  page.__set_repetition_level_encoding(format::Encoding::RLE);
  header.__set_data_page_header(page);
  EXPECT_TRUE(internal::SerializeCompact(header, &file).ok());
  file.insert(file.end(), body.begin(), body.end());

  format::FileMetaData metadata;
  metadata.__set_version(1);
  format::SchemaElement root;
  root.__set_name("schema");
  root.__set_num_children(1);
  format::SchemaElement leaf;
  leaf.__set_name("v");
  leaf.__set_type(format::Type::INT32);
  leaf.__set_repetition_type(format::FieldRepetitionType::REQUIRED);
  metadata.__set_schema({root, leaf});
  metadata.__set_num_rows(3);
  format::ColumnMetaData meta;
  meta.__set_type(format::Type::INT32);
  meta.__set_encodings({format::Encoding::PLAIN});
  meta.__set_path_in_schema({"v"});
  meta.__set_codec(format::CompressionCodec::UNCOMPRESSED);
  meta.__set_num_values(3);
  meta.__set_total_uncompressed_size(static_cast<int64_t>(file.size()) - 4);
  meta.__set_total_compressed_size(static_cast<int64_t>(file.size()) - 4);
  meta.__set_data_page_offset(4);
  format::ColumnChunk chunk;
  chunk.__set_file_offset(4);
  chunk.__set_meta_data(meta);
  format::RowGroup group;
  group.__set_columns({chunk});
  group.__set_num_rows(3);
  group.__set_total_byte_size(meta.total_uncompressed_size);
  metadata.__set_row_groups({group});
  metadata.__set_created_by("test");
  if (edit) edit(&metadata);
  Bytes footer;
  EXPECT_TRUE(internal::SerializeCompact(metadata, &footer).ok());
  file.insert(file.end(), footer.begin(), footer.end());
  const uint32_t length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; ++i) file.push_back(static_cast<uint8_t>(length >> (8 * i)));
  AppendMagic(&file);
  return file;
}

absl::StatusOr<std::unique_ptr<FileReader>> Open(const Bytes& file) {
  return FileReader::Open(MakeMemoryByteSource(file), "memory.parquet");
}

absl::StatusOr<std::vector<int32_t>> ReadColumn(const FileReader& reader) {
  absl::StatusOr<ColumnChunkReader> chunk = reader.OpenColumnChunk(0, 0);
  if (!chunk.ok()) return chunk.status();
  std::vector<int32_t> values(16);
  absl::StatusOr<BatchCounts> counts = chunk->ReadBatch<int32_t>({}, {}, absl::MakeSpan(values));
  if (!counts.ok()) return counts.status();
  values.resize(static_cast<size_t>(counts->values));
  std::vector<int32_t> more(16);  // the chunk must be drained
  absl::StatusOr<BatchCounts> end = chunk->ReadBatch<int32_t>({}, {}, absl::MakeSpan(more));
  if (!end.ok()) return end.status();
  return values;
}

TEST(FileReaderTest, ReadsAFooterAndItsColumnChunk) {
  const Bytes file = MakeFile();
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
  EXPECT_EQ(reader->num_rows(), 3);
  EXPECT_EQ(reader->num_row_groups(), 1);
  EXPECT_EQ(reader->created_by(), "test");
  ASSERT_EQ(reader->schema().columns().size(), 1u);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int32_t> values, ReadColumn(*reader));
  EXPECT_EQ(values, (std::vector<int32_t>{1, 2, 3}));
}

std::string WriteTempFile(const std::string& name, const Bytes& bytes) {
  const std::string path = testing::TestTempPath(name);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return path;
}

// The three sources agree byte for byte, and only those in memory say so.
TEST(ByteSourceTest, MappedFilesReadLikeFilesAndLikeMemory) {
  const Bytes file = MakeFile();
  const std::string path = WriteTempFile("byte_source_mapped.parquet", file);
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto mapped, OpenMappedFileByteSource(path));
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto read, OpenFileByteSource(path));
  auto memory = MakeMemoryByteSource(file);
  ASSERT_EQ(mapped->size(), static_cast<int64_t>(file.size()));
  EXPECT_EQ(read->size(), mapped->size());
  EXPECT_TRUE(read->InMemory().empty());
  ASSERT_EQ(mapped->InMemory().size(), file.size());
  EXPECT_TRUE(std::equal(file.begin(), file.end(), mapped->InMemory().begin()));
  ASSERT_EQ(memory->InMemory().data(), file.data());
  for (const ByteSource* source : {mapped.get(), read.get(), memory.get()}) {
    Bytes middle(5);
    PQPAGE_ASSERT_OK(source->ReadAt(3, absl::MakeSpan(middle)));
    EXPECT_EQ(middle, Bytes(file.begin() + 3, file.begin() + 8));
    PQPAGE_EXPECT_ERROR(source->ReadAt(source->size() - 2, absl::MakeSpan(middle)),
                        absl::StatusCode::kDataLoss);
    PQPAGE_EXPECT_ERROR(source->ReadAt(-1, absl::MakeSpan(middle)), absl::StatusCode::kDataLoss);
    PQPAGE_EXPECT_OK(source->ReadAt(source->size(), {}));
  }
  // A file reader over the mapping reads the column like any other.
  ReaderOptions options;
  options.memory_map = true;
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, FileReader::Open(path, options));
  EXPECT_FALSE(reader->source().InMemory().empty());
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int32_t> values, ReadColumn(*reader));
  EXPECT_EQ(values, (std::vector<int32_t>{1, 2, 3}));
  std::remove(path.c_str());
}

TEST(ByteSourceTest, MappingAnEmptyFileOrSomethingElse) {
  const std::string path = WriteTempFile("byte_source_empty.parquet", {});
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto empty, OpenMappedFileByteSource(path));
  EXPECT_EQ(empty->size(), 0);
  EXPECT_TRUE(empty->InMemory().empty());
  PQPAGE_EXPECT_OK(empty->ReadAt(0, {}));
  Bytes one(1);
  PQPAGE_EXPECT_ERROR(empty->ReadAt(0, absl::MakeSpan(one)), absl::StatusCode::kDataLoss);
  ReaderOptions options;
  options.memory_map = true;
  PQPAGE_EXPECT_ERROR(FileReader::Open(path, options), absl::StatusCode::kDataLoss);
  std::remove(path.c_str());
  PQPAGE_EXPECT_ERROR(OpenMappedFileByteSource(path), absl::StatusCode::kNotFound);
  PQPAGE_EXPECT_ERROR(OpenMappedFileByteSource(::testing::TempDir()),
                      absl::StatusCode::kInvalidArgument);
}

TEST(FileReaderTest, DamagedTailsAreDataLoss) {
  const Bytes file = MakeFile();
  PQPAGE_EXPECT_ERROR(Open(Bytes(file.begin(), file.begin() + 10)), absl::StatusCode::kDataLoss);
  Bytes no_magic = file;
  no_magic[0] = 'X';
  PQPAGE_EXPECT_ERROR(Open(no_magic), absl::StatusCode::kDataLoss);
  Bytes long_footer = file;
  long_footer[long_footer.size() - 5] = 0x7f;  // footer length's high byte
  PQPAGE_EXPECT_ERROR(Open(long_footer), absl::StatusCode::kDataLoss);
  // PAR1, a footer length of 0, PAR1: refused before the empty footer reaches Thrift, whose
  // buffer would compute nullptr + 1 on it (undefined behaviour that clang's UBSan halts on).
  const Bytes empty_footer = {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', '1'};
  const absl::Status empty = Open(empty_footer).status();
  PQPAGE_EXPECT_ERROR(empty, absl::StatusCode::kDataLoss);
  EXPECT_NE(empty.message().find("footer is empty"), std::string::npos) << empty;
  // An encrypted footer's magic at the end only: an encrypted file starts with PARE too.
  Bytes encrypted = file;
  encrypted[encrypted.size() - 1] = 'E';
  PQPAGE_EXPECT_ERROR(Open(encrypted), absl::StatusCode::kDataLoss);
  encrypted[3] = 'E';
  PQPAGE_EXPECT_ERROR(Open(encrypted), absl::StatusCode::kDataLoss);
  // Every truncation of the tail is refused, never a crash.
  for (size_t cut = 1; cut < 40; ++cut) {
    EXPECT_FALSE(Open(Bytes(file.begin(), file.end() - static_cast<ptrdiff_t>(cut))).ok()) << cut;
  }
}

TEST(FileReaderTest, ChunkRangesAndCountsAreChecked) {
  {
    const Bytes file = MakeFile([](format::FileMetaData* m) {
      m->row_groups[0].columns[0].meta_data.__set_data_page_offset(100000);
    });
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
    PQPAGE_EXPECT_ERROR(reader->LocateColumnChunk(0, 0), absl::StatusCode::kDataLoss);
  }
  {
    const Bytes file = MakeFile(
        [](format::FileMetaData* m) { m->row_groups[0].columns[0].meta_data.__set_num_values(4); });
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
    PQPAGE_EXPECT_ERROR(reader->LocateColumnChunk(0, 0), absl::StatusCode::kDataLoss);
  }
  {
    const Bytes file = MakeFile([](format::FileMetaData* m) { m->row_groups[0].columns.clear(); });
    PQPAGE_EXPECT_ERROR(Open(file), absl::StatusCode::kDataLoss);
  }
  {
    const Bytes file = MakeFile([](format::FileMetaData* m) {
      m->row_groups[0].columns[0].meta_data.__set_type(format::Type::INT64);
    });
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
    PQPAGE_EXPECT_ERROR(reader->LocateColumnChunk(0, 0), absl::StatusCode::kDataLoss);
  }
}

// A zero-row row group as pyarrow writes it without a dictionary: every chunk at offset 0 with 0
// bytes and 0 values. `chunk_edit` may then spoil the chunk.
Bytes MakeZeroRowFile(const std::function<void(format::ColumnMetaData*)>& chunk_edit = nullptr) {
  return MakeFile([&](format::FileMetaData* m) {
    m->__set_num_rows(0);
    m->row_groups[0].__set_num_rows(0);
    m->row_groups[0].__set_total_byte_size(0);
    format::ColumnChunk& chunk = m->row_groups[0].columns[0];
    chunk.__set_file_offset(0);
    chunk.meta_data.__set_num_values(0);
    chunk.meta_data.__set_data_page_offset(0);
    chunk.meta_data.__set_total_compressed_size(0);
    chunk.meta_data.__set_total_uncompressed_size(0);
    if (chunk_edit) chunk_edit(&chunk.meta_data);
  });
}

TEST(FileReaderTest, ReadsZeroRowChunksAtOffsetZero) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(MakeZeroRowFile()));
  EXPECT_EQ(reader->num_rows(), 0);
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation location, reader->LocateColumnChunk(0, 0));
  EXPECT_EQ(location.length, 0);
  EXPECT_EQ(location.num_values, 0);
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int32_t> values, ReadColumn(*reader));
  EXPECT_TRUE(values.empty());
}

TEST(FileReaderTest, ZeroRowToleranceCoversOnlyEmptyChunks) {
  // Bytes claimed at offset 0, values claimed with no bytes, or an empty chunk past the data:
  // each still lies about the file and is refused.
  const std::function<void(format::ColumnMetaData*)> lies[] = {
      [](format::ColumnMetaData* c) { c->__set_total_compressed_size(5); },
      [](format::ColumnMetaData* c) { c->__set_num_values(3); },
      [](format::ColumnMetaData* c) { c->__set_data_page_offset(100000); },
      [](format::ColumnMetaData* c) { c->__set_data_page_offset(-4); },
  };
  for (size_t i = 0; i < std::size(lies); ++i) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(MakeZeroRowFile(lies[i])));
    const absl::Status status = reader->LocateColumnChunk(0, 0).status();
    PQPAGE_EXPECT_ERROR(status, absl::StatusCode::kDataLoss) << "case " << i;
  }
}

TEST(FileReaderTest, ToleratesADictionaryPageOffsetOfZero) {
  const Bytes file = MakeFile([](format::FileMetaData* m) {
    m->row_groups[0].columns[0].meta_data.__set_dictionary_page_offset(0);
  });
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto reader, Open(file));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<int32_t> values, ReadColumn(*reader));
  EXPECT_EQ(values, (std::vector<int32_t>{1, 2, 3}));
}

TEST(WriterQuirksTest, OldParquetMrUndercountsDictionaryHeaders) {
  EXPECT_TRUE(internal::UndercountsDictionaryHeader("parquet-mr"));
  EXPECT_TRUE(internal::UndercountsDictionaryHeader("parquet-mr version 1.2.8"));
  EXPECT_FALSE(internal::UndercountsDictionaryHeader("parquet-mr version 1.2.9"));
  EXPECT_FALSE(internal::UndercountsDictionaryHeader("parquet-mr version 1.10.0 (build abc)"));
  EXPECT_FALSE(internal::UndercountsDictionaryHeader("parquet-cpp-arrow version 17.0.0"));
  EXPECT_FALSE(internal::UndercountsDictionaryHeader(""));
}

TEST(WriterQuirksTest, ParquetMrBefore180CarriesDeltaByteArrayState) {
  EXPECT_TRUE(internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-mr version 1.7.0"));
  EXPECT_TRUE(
      internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-mr version 1.6.0 (build x)"));
  EXPECT_FALSE(internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-mr version 1.8.0"));
  EXPECT_FALSE(internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-mr version 1.12.3"));
  EXPECT_FALSE(internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-mr"));
  EXPECT_FALSE(internal::CarriesDeltaByteArrayPrefixAcrossPages("parquet-rs version 1.0.0"));
  // The file layer hands the decision to the page layer in the chunk's location.
  for (const auto& [writer, carry] : {std::pair{"parquet-mr version 1.7.0 (build x)", true},
                                      std::pair{"parquet-mr version 1.8.1 (build x)", false},
                                      std::pair{"parquet-cpp-arrow version 26.0.1", false}}) {
    const std::string created_by = writer;  // a structured binding cannot be captured (C++20)
    PQPAGE_ASSERT_OK_AND_ASSIGN(
        auto reader,
        Open(MakeFile([&](format::FileMetaData* m) { m->__set_created_by(created_by); })));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation location, reader->LocateColumnChunk(0, 0));
    EXPECT_EQ(location.carry_delta_byte_array_prefix, carry) << created_by;
  }
}

TEST(WriterQuirksTest, ImpalaParquetCppAndParquetRsPackBitPackedLevelsLsbFirst) {
  EXPECT_TRUE(internal::PacksBitPackedLevelsLsbFirst(
      "impala version 2.11.0-SNAPSHOT (build 6320ae238e7be0ca7343e08fe740f9995c76ef06)"));
  EXPECT_TRUE(internal::PacksBitPackedLevelsLsbFirst("parquet-cpp version 1.0.0"));
  EXPECT_TRUE(internal::PacksBitPackedLevelsLsbFirst("parquet-cpp-arrow version 26.0.1"));
  EXPECT_TRUE(internal::PacksBitPackedLevelsLsbFirst("parquet-rs version 57.0.0"));
  EXPECT_FALSE(internal::PacksBitPackedLevelsLsbFirst("parquet-mr version 1.2.8 (build x)"));
  EXPECT_FALSE(internal::PacksBitPackedLevelsLsbFirst("pqpage version 0.1.0"));
  EXPECT_FALSE(internal::PacksBitPackedLevelsLsbFirst(""));
  // The file layer hands the order to the page layer in the chunk's location.
  for (const auto& [writer, order] :
       {std::pair{"impala version 2.11.0 (build x)", BitPackedOrder::kLeastSignificantFirst},
        std::pair{"parquet-mr version 1.8.1 (build x)", BitPackedOrder::kMostSignificantFirst},
        std::pair{"test", BitPackedOrder::kMostSignificantFirst}}) {
    const std::string created_by = writer;
    PQPAGE_ASSERT_OK_AND_ASSIGN(
        auto reader,
        Open(MakeFile([&](format::FileMetaData* m) { m->__set_created_by(created_by); })));
    PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation location, reader->LocateColumnChunk(0, 0));
    EXPECT_EQ(location.bit_packed_levels, order) << created_by;
  }
}

}  // namespace
}  // namespace pqpage
