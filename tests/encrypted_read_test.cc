// Reading the encrypted reference files of parquet-testing (Arrow C++ and parquet-java): every
// variant decodes to the same values, keys given directly or through a retriever, and each way of
// getting the keys wrong is a named error.
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "encryption_test_helpers.h"
#include "gtest/gtest.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "pqpage/key_management.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

std::string DataDir() { return std::string(PQPAGE_SHARED_DIR) + "/parquet-testing/data/"; }

bool HaveReferenceFiles() {
  return std::ifstream(DataDir() + "uniform_encryption.parquet.encrypted").good();
}

#define SKIP_WITHOUT_REFERENCE_FILES()                            \
  if (!HaveReferenceFiles()) {                                    \
    GTEST_SKIP() << "no ../shared/parquet-testing (" << DataDir() \
                 << "; see README: reference files)";             \
  }

constexpr char kFooterKey[] = "0123456789012345";
constexpr char kDoubleKey[] = "1234567890123450";
constexpr char kFloatKey[] = "1234567890123451";

std::shared_ptr<FileDecryptionProperties> Keys128(const std::string& aad_prefix = "") {
  auto keys = std::make_shared<FileDecryptionProperties>();
  keys->footer_key = kFooterKey;
  keys->column_keys = {{"double_field", kDoubleKey}, {"float_field", kFloatKey}};
  keys->aad_prefix = aad_prefix;
  return keys;
}

std::shared_ptr<FileDecryptionProperties> Keys256() {
  auto keys = std::make_shared<FileDecryptionProperties>();
  keys->footer_key = "01234567890123456789012345678901";
  const char* columns[] = {"double_field",
                           "float_field",
                           "boolean_field",
                           "int32_field",
                           "ba_field",
                           "flba_field",
                           "int64_field.list.element",
                           "int96_field"};
  for (int i = 0; i < 8; ++i) {
    keys->column_keys[columns[i]] = absl::StrCat("123456789012345678901234567890", 12 + i);
  }
  return keys;
}

using testing::Columns;
using testing::ReadAllColumns;

absl::StatusOr<Columns> OpenAndReadAll(const std::string& path,
                                       std::shared_ptr<const FileDecryptionProperties> keys) {
  return testing::OpenAndReadAllColumns(path, std::move(keys));
}

TEST(EncryptedReadTest, EveryVariantDecodesToTheSameValues) {
  SKIP_WITHOUT_REFERENCE_FILES();
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Columns expected,
      OpenAndReadAll(DataDir() + "uniform_encryption.parquet.encrypted", Keys128()));
  ASSERT_EQ(expected.size(), 8u);
  EXPECT_EQ(expected.count("int64_field"), 1u);
  for (const char* name : {"encrypt_columns_and_footer.parquet.encrypted",
                           "encrypt_columns_and_footer_aad.parquet.encrypted",
                           "encrypt_columns_and_footer_ctr.parquet.encrypted",
                           "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    PQPAGE_EXPECT_OK_AND_EQ(OpenAndReadAll(DataDir() + name, Keys128()), expected);
  }
  PQPAGE_EXPECT_OK_AND_EQ(
      OpenAndReadAll(DataDir() + "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
                     Keys128("tester")),
      expected);
  // The 256-bit files hold the same table, but for int64_field, a list there.
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Columns expected256,
      OpenAndReadAll(DataDir() + "aes256/uniform_encryption.parquet.encrypted", Keys256()));
  ASSERT_EQ(expected256.size(), 8u);
  for (const auto& [path, values] : expected) {
    if (path != "int64_field") EXPECT_EQ(expected256.at(path), values) << path;
  }
  for (const char* name :
       {"uniform_encryption.parquet.encrypted", "encrypt_columns_and_footer.parquet.encrypted",
        "encrypt_columns_and_footer_ctr.parquet.encrypted",
        "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    SCOPED_TRACE(name);
    PQPAGE_EXPECT_OK_AND_EQ(OpenAndReadAll(DataDir() + "aes256/" + name, Keys256()), expected256);
  }
  auto aad = Keys256();
  aad->aad_prefix = "tester";
  PQPAGE_EXPECT_OK_AND_EQ(
      OpenAndReadAll(
          DataDir() + "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
          aad),
      expected256);
}

TEST(EncryptedReadTest, TheValuesAreTheTableWritten) {
  SKIP_WITHOUT_REFERENCE_FILES();
  ReaderOptions options;
  options.decryption = Keys128();
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<FileReader> file,
      FileReader::Open(DataDir() + "encrypt_columns_and_footer.parquet.encrypted", options));
  // int32_field holds 0, 1, 2, ... and boolean_field alternates from true.
  int int32_column = -1;
  int boolean_column = -1;
  for (int c = 0; c < static_cast<int>(file->schema().columns().size()); ++c) {
    const std::string path = file->schema().columns()[static_cast<size_t>(c)].PathString();
    if (path == "int32_field") int32_column = c;
    if (path == "boolean_field") boolean_column = c;
  }
  ASSERT_GE(int32_column, 0);
  ASSERT_GE(boolean_column, 0);
  std::vector<int32_t> ints;
  std::vector<bool> bools;
  ChunkSelection selection;
  selection.columns = {int32_column, boolean_column};
  PQPAGE_ASSERT_OK(ReadChunks(
      *file, selection,
      [](const SelectedChunk&, const ColumnChunkReader&) { return absl::OkStatus(); },
      [&](const SelectedChunk&, const auto& batch, const BatchCounts& counts) {
        for (int64_t i = 0; i < counts.values; ++i) {
          using T = std::decay_t<decltype(batch.values[0])>;
          if constexpr (std::is_same_v<T, int32_t>) ints.push_back(batch.values[i]);
          if constexpr (std::is_same_v<T, bool>) bools.push_back(batch.values[i]);
        }
        return absl::OkStatus();
      }));
  ASSERT_EQ(ints.size(), static_cast<size_t>(file->num_rows()));
  ASSERT_EQ(bools.size(), ints.size());
  for (size_t i = 0; i < ints.size(); ++i) {
    EXPECT_EQ(ints[i], static_cast<int32_t>(i));
    EXPECT_EQ(bools[i], i % 2 == 0);
  }
}

TEST(EncryptedReadTest, KeysComeFromTheRetrieverByTheirMetadata) {
  SKIP_WITHOUT_REFERENCE_FILES();
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const Columns expected,
      OpenAndReadAll(DataDir() + "uniform_encryption.parquet.encrypted", Keys128()));
  auto keys = std::make_shared<FileDecryptionProperties>();
  std::map<std::string, int> asked;
  keys->key_retriever = [&asked](std::string_view metadata) -> absl::StatusOr<std::string> {
    ++asked[std::string(metadata)];
    if (metadata == "kf") return std::string(kFooterKey);
    if (metadata == "kc1") return std::string(kDoubleKey);
    if (metadata == "kc2") return std::string(kFloatKey);
    return absl::NotFoundError("unknown key");
  };
  PQPAGE_EXPECT_OK_AND_EQ(
      OpenAndReadAll(DataDir() + "encrypt_columns_and_footer.parquet.encrypted", keys), expected);
  // Each key is asked for once per file, however many chunks use it.
  EXPECT_EQ(asked, (std::map<std::string, int>{{"kf", 1}, {"kc1", 1}, {"kc2", 1}}));
}

// parquet-java's key tools, with the key material outside the file: the retriever unwraps each key
// with the master keys of its in-memory KMS.
TEST(EncryptedReadTest, ExternalKeyMaterialThroughTheKeyTools) {
  SKIP_WITHOUT_REFERENCE_FILES();
  const std::string path = DataDir() + "external_key_material_java.parquet.encrypted";
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::shared_ptr<InMemoryKmsClient> kms,
      InMemoryKmsClient::Make({{"kf", kFooterKey}, {"kc1", kDoubleKey}, {"kc2", kFloatKey}}));
  std::ifstream in(ExternalKeyMaterialPath(path));
  const std::string material((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  ASSERT_FALSE(material.empty());
  auto keys =
      std::make_shared<FileDecryptionProperties>(DecryptionPropertiesFromKms(kms, material));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const Columns columns, OpenAndReadAll(path, keys));
  ASSERT_EQ(columns.size(), 2u);
  // 100 rows: integers 0..99.
  std::string integers;
  for (int32_t i = 0; i < 100; ++i) testing::AppendValueBytes(i, &integers);
  EXPECT_EQ(columns.at("integers"), integers);
  // Without the external material the keys cannot be found.
  auto without = std::make_shared<FileDecryptionProperties>(DecryptionPropertiesFromKms(kms));
  EXPECT_EQ(OpenAndReadAll(path, without).status().code(), absl::StatusCode::kNotFound);
}

TEST(EncryptedReadTest, BloomFiltersAndPageIndexesDecrypt) {
  SKIP_WITHOUT_REFERENCE_FILES();
  ReaderOptions options;
  options.decryption = Keys128();
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<FileReader> file,
      FileReader::Open(DataDir() + "encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
                       options));
  int filters = 0;
  for (int c = 0; c < static_cast<int>(file->schema().columns().size()); ++c) {
    PQPAGE_ASSERT_OK_AND_ASSIGN(std::optional<BloomFilter> filter, file->ReadBloomFilter(0, c));
    if (filter.has_value()) ++filters;
    PQPAGE_ASSERT_OK(file->ReadPageIndex(0, c).status());
  }
  EXPECT_EQ(filters, 2);
  PQPAGE_ASSERT_OK(ReadAllColumns(*file).status());
}

TEST(EncryptedReadTest, MissingKeysArePermissionDenied) {
  SKIP_WITHOUT_REFERENCE_FILES();
  // An encrypted footer cannot be read at all without its key.
  EXPECT_EQ(
      OpenAndReadAll(DataDir() + "uniform_encryption.parquet.encrypted", nullptr).status().code(),
      absl::StatusCode::kPermissionDenied);
  // A plaintext footer opens without keys; its plain columns read, its encrypted ones are refused.
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::unique_ptr<FileReader> file,
      FileReader::Open(DataDir() + "encrypt_columns_plaintext_footer.parquet.encrypted"));
  ASSERT_TRUE(file->metadata().encryption.has_value());
  EXPECT_FALSE(file->metadata().encryption->encrypted_footer);
  int refused = 0;
  for (int c = 0; c < static_cast<int>(file->schema().columns().size()); ++c) {
    absl::StatusOr<ColumnChunkReader> reader = file->OpenColumnChunk(0, c);
    const std::string path = file->schema().columns()[static_cast<size_t>(c)].PathString();
    if (path == "double_field" || path == "float_field") {
      EXPECT_EQ(reader.status().code(), absl::StatusCode::kPermissionDenied) << path;
      EXPECT_NE(reader.status().message().find(path), std::string::npos);
      ++refused;
    } else {
      PQPAGE_EXPECT_OK(reader.status());
    }
  }
  EXPECT_EQ(refused, 2);
  // A column key missing: only that column is refused.
  auto keys = Keys128();
  keys->column_keys.erase("float_field");
  ReaderOptions options;
  options.decryption = keys;
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      file, FileReader::Open(DataDir() + "encrypt_columns_and_footer.parquet.encrypted", options));
  EXPECT_EQ(ReadAllColumns(*file).status().code(), absl::StatusCode::kPermissionDenied);
  // The AAD prefix the writer did not store.
  EXPECT_EQ(OpenAndReadAll(DataDir() + "encrypt_columns_and_footer_disable_aad_storage.parquet."
                                       "encrypted",
                           Keys128())
                .status()
                .code(),
            absl::StatusCode::kPermissionDenied);
}

TEST(EncryptedReadTest, WrongKeysAndPrefixesAreDataLoss) {
  SKIP_WITHOUT_REFERENCE_FILES();
  auto wrong_footer = Keys128();
  wrong_footer->footer_key = "0123456789012346";
  for (const char* name : {"uniform_encryption.parquet.encrypted",
                           "encrypt_columns_plaintext_footer.parquet.encrypted"}) {
    EXPECT_EQ(OpenAndReadAll(DataDir() + name, wrong_footer).status().code(),
              absl::StatusCode::kDataLoss)
        << name;
  }
  auto wrong_column = Keys128();
  wrong_column->column_keys["double_field"] = kFloatKey;
  EXPECT_EQ(OpenAndReadAll(DataDir() + "encrypt_columns_and_footer.parquet.encrypted", wrong_column)
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(OpenAndReadAll(DataDir() + "encrypt_columns_and_footer_disable_aad_storage.parquet."
                                       "encrypted",
                           Keys128("tester2"))
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(OpenAndReadAll(DataDir() + "encrypt_columns_and_footer_aad.parquet.encrypted",
                           Keys128("other"))
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
  auto short_key = Keys128();
  short_key->footer_key = "short";
  EXPECT_EQ(
      OpenAndReadAll(DataDir() + "uniform_encryption.parquet.encrypted", short_key).status().code(),
      absl::StatusCode::kInvalidArgument);
}

// Every byte of a file encrypted whole (GCM, every column with the footer key), changed: the
// file either reads to the same values or fails with an error, never with other values.
TEST(EncryptedReadTest, AChangedByteIsNeverAValue) {
  SKIP_WITHOUT_REFERENCE_FILES();
  std::ifstream in(DataDir() + "uniform_encryption.parquet.encrypted", std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  ReaderOptions options;
  options.decryption = Keys128();
  // The values, and every page index (which the values do not need).
  auto read = [&](const std::vector<uint8_t>& file) -> absl::StatusOr<Columns> {
    PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileReader> reader,
                            FileReader::Open(MakeMemoryByteSource(file), "changed", options));
    PQPAGE_ASSIGN_OR_RETURN(Columns columns, ReadAllColumns(*reader));
    for (int g = 0; g < reader->num_row_groups(); ++g) {
      for (int c = 0; c < static_cast<int>(reader->schema().columns().size()); ++c) {
        PQPAGE_ASSIGN_OR_RETURN(std::optional<ChunkPageIndex> index, reader->ReadPageIndex(g, c));
        if (index.has_value()) columns["index"] += std::to_string(index->pages.size());
      }
    }
    return columns;
  };
  PQPAGE_ASSERT_OK_AND_ASSIGN(const Columns expected, read(bytes));
  int failed = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<uint8_t> changed = bytes;
    changed[i] ^= 0x01;
    absl::StatusOr<Columns> got = read(changed);
    if (got.ok()) {
      EXPECT_EQ(*got, expected) << "byte " << i;
    } else {
      ++failed;
      EXPECT_TRUE(got.status().code() == absl::StatusCode::kDataLoss ||
                  got.status().code() == absl::StatusCode::kPermissionDenied ||
                  got.status().code() == absl::StatusCode::kUnimplemented)
          << "byte " << i << ": " << got.status();
    }
  }
  // Only bytes no reader looks at (unused Thrift padding is none here) may change unnoticed.
  EXPECT_GT(failed, static_cast<int>(bytes.size()) * 99 / 100);
}

}  // namespace
}  // namespace pqpage
