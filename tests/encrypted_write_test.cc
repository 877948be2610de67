// Writing encrypted files (FileWriterOptions::encryption) and reading them back: every algorithm,
// footer mode, key layout and AAD prefix mode reads to the values of the same file written in the
// clear; page indexes, bloom filters and row selection work through the modules; and moving,
// swapping or cutting modules is a named error.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "column_data_helpers.h"
#include "encryption_test_helpers.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "pqpage/schema.h"
#include "status_matchers.h"
#include "temp_path.h"

namespace pqpage {
namespace {

using testing::ColumnData;
using testing::Columns;

constexpr int64_t kRows = 4000;
const std::string kFooterKey = "footer-key-0123.";                 // 16 bytes
const std::string kNameKey = "name-key-0123456789abcde";           // 24 bytes
const std::string kPriceKey = "price-key-0123456789abcdef012345";  // 32 bytes

Schema MakeSchema() {
  auto schema = Schema::Builder()
                    .AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
                    .AddPrimitive("name", Repetition::kOptional, PhysicalType::kByteArray)
                    .AddPrimitive("price", Repetition::kRequired, PhysicalType::kDouble)
                    .Build();
  EXPECT_TRUE(schema.ok());
  return *schema;
}

struct Table {
  ColumnData<int64_t> id;
  ColumnData<ByteArray> name;
  ColumnData<double> price;
};

Table MakeTable() {
  Table t;
  for (int64_t r = 0; r < kRows; ++r) {
    t.id.values.push_back(r * 3);
    if (r % 7 == 0) {
      t.name.def.push_back(0);
    } else {
      t.name.def.push_back(1);
      t.name.values.push_back(t.name.AddBytes(absl::StrCat("name-", (r * 13) % 300)));
    }
    t.price.values.push_back(static_cast<double>(r % 97) * 0.5);
  }
  return t;
}

// Small pages (many of them, a dictionary for names), bloom filters and the page index: every
// module kind the format encrypts.
WriterOptions Options() {
  WriterOptions options;
  options.data_page_size = 2048;
  options.bloom_filter.enabled = true;
  options.encoding = EncodingPolicy::kPlain;
  options.column_overrides["name"].encoding = EncodingPolicy::kDictionary;
  return options;
}

std::string Write(std::shared_ptr<const FileEncryptionProperties> encryption,
                  const std::string& name = "encrypted.parquet", int groups = 2) {
  const std::string path = testing::TestTempPath(name);
  const Schema schema = MakeSchema();
  FileWriterOptions file_options;
  file_options.encryption = std::move(encryption);
  auto file = FileWriter::Open(path, schema, file_options);
  EXPECT_TRUE(file.ok()) << file.status();
  if (!file.ok()) return path;
  const Table t = MakeTable();
  for (int g = 0; g < groups; ++g) {
    PQPAGE_EXPECT_OK(testing::WriteRowGroup(**file, schema, Options(), t.id, t.name, t.price));
  }
  PQPAGE_EXPECT_OK((*file)->Close());
  return path;
}

std::shared_ptr<FileEncryptionProperties> Encryption(EncryptionAlgorithm algorithm,
                                                     bool encrypted_footer, bool column_keys) {
  auto properties = std::make_shared<FileEncryptionProperties>();
  properties->algorithm = algorithm;
  properties->footer_key = kFooterKey;
  properties->footer_key_metadata = "footer";
  properties->encrypted_footer = encrypted_footer;
  if (column_keys) {
    properties->column_keys["name"] = {kNameKey, "name-key"};
    properties->column_keys["price"] = {kPriceKey, "price-key"};
  }
  return properties;
}

std::shared_ptr<FileDecryptionProperties> Keys(const std::string& aad_prefix = "") {
  auto keys = std::make_shared<FileDecryptionProperties>();
  keys->footer_key = kFooterKey;
  keys->column_keys = {{"name", kNameKey}, {"price", kPriceKey}};
  keys->aad_prefix = aad_prefix;
  return keys;
}

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

TEST(EncryptedWriteTest, EveryLayoutReadsToTheValuesWrittenInTheClear) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Columns expected,
      testing::OpenAndReadAllColumns(Write(nullptr, "plain.parquet"), nullptr));
  for (const EncryptionAlgorithm algorithm :
       {EncryptionAlgorithm::kAesGcmV1, EncryptionAlgorithm::kAesGcmCtrV1}) {
    for (const bool encrypted_footer : {true, false}) {
      for (const bool column_keys : {false, true}) {
        SCOPED_TRACE(absl::StrCat(EncryptionAlgorithmName(algorithm),
                                  encrypted_footer ? " encrypted footer" : " plaintext footer",
                                  column_keys ? ", column keys" : ", footer key"));
        const std::string path = Write(Encryption(algorithm, encrypted_footer, column_keys));
        const std::vector<uint8_t> bytes = ReadBytes(path);
        ASSERT_GT(bytes.size(), 8u);
        EXPECT_EQ(std::string(bytes.end() - 4, bytes.end()), encrypted_footer ? "PARE" : "PAR1");
        PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(path, Keys()), expected);
        // Through the key metadata alone.
        auto retrieved = std::make_shared<FileDecryptionProperties>();
        retrieved->key_retriever = [](std::string_view metadata) -> absl::StatusOr<std::string> {
          if (metadata == "footer") return kFooterKey;
          if (metadata == "name-key") return kNameKey;
          if (metadata == "price-key") return kPriceKey;
          return absl::NotFoundError("no such key");
        };
        PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(path, retrieved), expected);
      }
    }
  }
}

TEST(EncryptedWriteTest, AadPrefixStoredOrSupplied) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Columns expected,
      testing::OpenAndReadAllColumns(Write(nullptr, "plain.parquet"), nullptr));
  auto stored = Encryption(EncryptionAlgorithm::kAesGcmV1, true, true);
  stored->aad_prefix = "table-7";
  const std::string stored_path = Write(stored, "stored.parquet");
  PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(stored_path, Keys()), expected);
  PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(stored_path, Keys("table-7")), expected);
  PQPAGE_EXPECT_ERROR(testing::OpenAndReadAllColumns(stored_path, Keys("table-8")).status(),
                      absl::StatusCode::kDataLoss);

  auto supplied = Encryption(EncryptionAlgorithm::kAesGcmCtrV1, false, true);
  supplied->aad_prefix = "table-7";
  supplied->store_aad_prefix = false;
  const std::string supplied_path = Write(supplied, "supplied.parquet");
  PQPAGE_EXPECT_OK_AND_EQ(testing::OpenAndReadAllColumns(supplied_path, Keys("table-7")), expected);
  // Without the prefix, a plaintext footer still opens; its encrypted columns cannot be read.
  PQPAGE_EXPECT_ERROR(testing::OpenAndReadAllColumns(supplied_path, Keys()).status(),
                      absl::StatusCode::kPermissionDenied);
  PQPAGE_EXPECT_ERROR(testing::OpenAndReadAllColumns(supplied_path, Keys("table-8")).status(),
                      absl::StatusCode::kDataLoss);
}

TEST(EncryptedWriteTest, IndexesFiltersAndRowSelectionReadThroughTheModules) {
  const std::string path = Write(Encryption(EncryptionAlgorithm::kAesGcmV1, true, true));
  ReaderOptions options;
  options.decryption = Keys();
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path, options));
  const Table t = MakeTable();
  for (int g = 0; g < 2; ++g) {
    for (int c = 0; c < 3; ++c) {
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> index, file->ReadPageIndex(g, c));
      ASSERT_TRUE(index.has_value());
      EXPECT_GE(index->pages.size(), 3u) << c;
      PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> filter, file->ReadBloomFilter(g, c));
      ASSERT_TRUE(filter.has_value());
    }
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> names, file->ReadBloomFilter(g, 1));
    for (const ByteArray& v : t.name.values) ASSERT_TRUE(names->MayContain(v));
  }
  // Rows from the middle of a chunk: the reader jumps to a page through the offset index, and
  // that page's modules carry its ordinal.
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader reader,
                              OpenColumnChunkRows(*file, 1, 0, RowRange{3001, 3011}, nullptr));
  std::vector<int64_t> ids(10);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const BatchCounts counts,
                              reader.ReadBatch<int64_t>({}, {}, absl::MakeSpan(ids)));
  ASSERT_EQ(counts.values, 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(ids[static_cast<size_t>(i)], (3001 + i) * 3);
}

// Pages read from a file are decrypted in the walker's own buffer: seeking back reads them again
// from the file, never the decrypted bytes as if they were stored ones.
TEST(EncryptedWriteTest, SeekingBackReadsPagesAgain) {
  for (const EncryptionAlgorithm algorithm :
       {EncryptionAlgorithm::kAesGcmV1, EncryptionAlgorithm::kAesGcmCtrV1}) {
    const std::string path = Write(Encryption(algorithm, true, true));
    ReaderOptions options;
    options.decryption = Keys();
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path, options));
    for (const bool use_index : {false, true}) {
      for (int column = 0; column < 3; ++column) {
        SCOPED_TRACE(absl::StrCat(EncryptionAlgorithmName(algorithm), " column ", column,
                                  use_index ? " through the offset index" : ""));
        PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkReader reader, file->OpenColumnChunk(1, column));
        if (use_index) {
          PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<ChunkPageIndex> index,
                                      file->ReadPageIndex(1, column));
          PQPAGE_ASSERT_OK(reader.UseOffsetIndex(*index));
        }
        std::vector<int16_t> def(kRows);
        std::vector<double> doubles(kRows);
        std::vector<int64_t> ints(kRows);
        std::vector<ByteArray> names(kRows);
        auto read = [&](int64_t rows) -> absl::StatusOr<BatchCounts> {
          const auto levels = absl::MakeSpan(def).subspan(0, static_cast<size_t>(rows));
          if (column == 0) return reader.ReadBatch<int64_t>({}, {}, absl::MakeSpan(ints));
          if (column == 1) {
            return reader.ReadBatch<ByteArray>(
                levels, {}, absl::MakeSpan(names).subspan(0, static_cast<size_t>(rows)));
          }
          return reader.ReadBatch<double>({}, {}, absl::MakeSpan(doubles));
        };
        PQPAGE_ASSERT_OK(reader.SeekToRow(kRows - 10));
        PQPAGE_ASSERT_OK(read(10).status());
        PQPAGE_ASSERT_OK(reader.SeekToRow(5));
        PQPAGE_ASSERT_OK_AND_ASSIGN(BatchCounts counts, read(kRows));
        if (column == 0) EXPECT_EQ(ints[0], 15);
        if (column == 2) EXPECT_EQ(doubles[0], 2.5);
        int64_t levels = counts.levels;
        while (counts.levels > 0) {
          PQPAGE_ASSERT_OK_AND_ASSIGN(counts, read(kRows));
          levels += counts.levels;
        }
        EXPECT_EQ(levels, kRows - 5);
      }
    }
  }
}

TEST(EncryptedWriteTest, ColumnsLeftInTheClearReadWithoutKeys) {
  const std::string path = Write(Encryption(EncryptionAlgorithm::kAesGcmV1, false, true));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(path));
  PQPAGE_EXPECT_OK(file->OpenColumnChunk(0, 0).status());
  PQPAGE_EXPECT_ERROR(file->OpenColumnChunk(0, 1).status(), absl::StatusCode::kPermissionDenied);
  PQPAGE_EXPECT_ERROR(file->OpenColumnChunk(1, 2).status(), absl::StatusCode::kPermissionDenied);
  // The footer keeps the encrypted chunks' metadata without their statistics.
  const ColumnChunk& price = file->metadata().row_groups[0].columns[2];
  ASSERT_TRUE(price.meta_data.has_value());
  EXPECT_FALSE(price.meta_data->statistics.has_value());
  EXPECT_TRUE(price.encrypted_column_metadata);
  ASSERT_TRUE(price.crypto_metadata.has_value());
  EXPECT_EQ(price.crypto_metadata->key_metadata, "price-key");
  // A wrong column key: that column's metadata does not authenticate, and only it is lost.
  auto wrong = Keys();
  wrong->column_keys["name"] = kNameKey.substr(0, 8) + kNameKey.substr(0, 16);
  ReaderOptions wrong_options;
  wrong_options.decryption = wrong;
  PQPAGE_ASSERT_OK_AND_ASSIGN(file, FileReader::Open(path, wrong_options));
  PQPAGE_EXPECT_OK(file->OpenColumnChunk(0, 2).status());
  PQPAGE_EXPECT_ERROR(file->OpenColumnChunk(0, 1).status(), absl::StatusCode::kDataLoss);
  // With the keys, the statistics are back.
  ReaderOptions options;
  options.decryption = Keys();
  PQPAGE_ASSERT_OK_AND_ASSIGN(file, FileReader::Open(path, options));
  EXPECT_TRUE(file->metadata().row_groups[0].columns[2].meta_data->statistics.has_value());
}

// The byte range [offset, offset + size) of each data page (header and page) of chunk
// (row_group, column), from its offset index.
std::vector<std::pair<int64_t, int32_t>> DataPages(const std::string& path, int row_group,
                                                   int column) {
  ReaderOptions options;
  options.decryption = Keys();
  auto file = FileReader::Open(path, options);
  EXPECT_TRUE(file.ok()) << file.status();
  auto index = (*file)->ReadPageIndex(row_group, column);
  EXPECT_TRUE(index.ok() && index->has_value());
  std::vector<std::pair<int64_t, int32_t>> pages;
  for (const IndexedPage& page : (**index).pages) {
    pages.emplace_back(page.offset, page.compressed_page_size);
  }
  return pages;
}

TEST(EncryptedWriteTest, ModulesMovedOrCutAreDataLoss) {
  for (const EncryptionAlgorithm algorithm :
       {EncryptionAlgorithm::kAesGcmV1, EncryptionAlgorithm::kAesGcmCtrV1}) {
    SCOPED_TRACE(EncryptionAlgorithmName(algorithm));
    const std::string path = Write(Encryption(algorithm, true, false));
    const std::vector<uint8_t> bytes = ReadBytes(path);
    const std::string changed_path = testing::TestTempPath("changed.parquet");
    auto expect_data_loss = [&](const std::vector<uint8_t>& changed, const char* what) {
      WriteBytes(changed_path, changed);
      PQPAGE_EXPECT_ERROR(testing::OpenAndReadAllColumns(changed_path, Keys()).status(),
                          absl::StatusCode::kDataLoss)
          << what;
    };
    // The first two pages of the id column swapped: each module still parses where it lands.
    const auto pages = DataPages(path, 0, 0);
    ASSERT_GE(pages.size(), 2u);
    ASSERT_EQ(pages[1].first, pages[0].first + pages[0].second);
    std::vector<uint8_t> swapped = bytes;
    std::copy(bytes.begin() + pages[1].first, bytes.begin() + pages[1].first + pages[1].second,
              swapped.begin() + pages[0].first);
    std::copy(bytes.begin() + pages[0].first, bytes.begin() + pages[0].first + pages[0].second,
              swapped.begin() + pages[0].first + pages[1].second);
    expect_data_loss(swapped, "two pages swapped");
    // The same page of the two row groups (the same values, so the same size) swapped.
    const auto other = DataPages(path, 1, 0);
    ASSERT_EQ(other[0].second, pages[0].second);
    swapped = bytes;
    std::swap_ranges(swapped.begin() + pages[0].first,
                     swapped.begin() + pages[0].first + pages[0].second,
                     swapped.begin() + other[0].first);
    expect_data_loss(swapped, "row groups' pages swapped");
    // One page replaced by the other row group's copy of it: a replay.
    std::vector<uint8_t> replayed = bytes;
    std::copy(bytes.begin() + other[0].first, bytes.begin() + other[0].first + other[0].second,
              replayed.begin() + pages[0].first);
    expect_data_loss(replayed, "a page replayed from another row group");
    // A page header's byte changed (GCM: authenticated in both algorithms).
    std::vector<uint8_t> flipped = bytes;
    flipped[static_cast<size_t>(pages[1].first) + 20] ^= 0x40;
    expect_data_loss(flipped, "a header byte changed");
    // Cut short.
    expect_data_loss(std::vector<uint8_t>(bytes.begin(), bytes.end() - 100), "truncated");
    expect_data_loss(std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2),
                     "half the file");
  }
}

TEST(EncryptedWriteTest, BadPropertiesAreRefusedAtOpen) {
  const Schema schema = MakeSchema();
  auto bad = Encryption(EncryptionAlgorithm::kAesGcmV1, true, true);
  bad->footer_key = "short";
  FileWriterOptions options;
  options.encryption = bad;
  PQPAGE_EXPECT_ERROR(
      FileWriter::Open(testing::TestTempPath("bad.parquet"), schema, options).status(),
      absl::StatusCode::kInvalidArgument);
  bad = Encryption(EncryptionAlgorithm::kAesGcmV1, true, true);
  bad->column_keys["nope"] = {kNameKey, ""};
  options.encryption = bad;
  PQPAGE_EXPECT_ERROR(
      FileWriter::Open(testing::TestTempPath("bad.parquet"), schema, options).status(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pqpage
