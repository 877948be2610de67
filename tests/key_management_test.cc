// Key management through a KMS (pqpage/key_management.h): data keys wrapped into the key material
// of parquet-java, Arrow C++ and pyarrow and unwrapped again, single and double wrapping, the
// strict reader of that material, and parquet-java's external key material from parquet-testing.
#include "pqpage/key_management.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "crypto/aes_cipher.h"
#include "crypto/key_material.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

using internal::FlatJsonObject;
using internal::JsonScalar;
using internal::ParseFlatJsonObject;

// The master keys of parquet-java's and Arrow's key tool tests (ASCII bytes).
const std::map<std::string, std::string> kMasterKeys = {
    {"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};

std::shared_ptr<InMemoryKmsClient> MakeKms(
    const std::map<std::string, std::string>& keys = kMasterKeys) {
  absl::StatusOr<std::shared_ptr<InMemoryKmsClient>> kms = InMemoryKmsClient::Make(keys);
  EXPECT_TRUE(kms.ok()) << kms.status();
  return kms.ok() ? *kms : nullptr;
}

KmsEncryptionConfig TwoColumnConfig() {
  KmsEncryptionConfig config;
  config.footer_key = "kf";
  config.column_keys = {{"kc1", {"double_field", "a.b.c"}}, {"kc2", {"float_field"}}};
  return config;
}

FlatJsonObject ParsedOrDie(std::string_view json) {
  absl::StatusOr<FlatJsonObject> object = ParseFlatJsonObject(json);
  EXPECT_TRUE(object.ok()) << object.status() << " in " << json;
  return object.ok() ? *object : FlatJsonObject();
}

std::set<std::string> Names(const FlatJsonObject& object) {
  std::set<std::string> names;
  for (const auto& member : object) names.insert(member.first);
  return names;
}

// Every key the properties hold comes back through the retriever of a second KMS client holding
// the same master keys.
void ExpectKeysUnwrap(const FileEncryptionProperties& properties) {
  const FileDecryptionProperties decryption = DecryptionPropertiesFromKms(MakeKms());
  PQPAGE_EXPECT_OK_AND_EQ(decryption.key_retriever(properties.footer_key_metadata),
                          properties.footer_key);
  for (const auto& [path, column_key] : properties.column_keys) {
    SCOPED_TRACE(path);
    PQPAGE_EXPECT_OK_AND_EQ(decryption.key_retriever(column_key.key_metadata), column_key.key);
  }
}

TEST(InMemoryKmsClientTest, WrapsWithAesGcmUnderTheMasterKeyIdAsAadInBase64) {
  auto kms = MakeKms();
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string wrapped, kms->WrapKey("0123456789abcdef", "kc1"));
  std::string sealed;
  ASSERT_TRUE(absl::Base64Unescape(wrapped, &sealed));
  EXPECT_EQ(wrapped, absl::Base64Escape(sealed));  // standard alphabet, padded
  EXPECT_EQ(sealed.size(), 12 + 16 + 16u);         // nonce, key, tag
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto cipher, internal::AesCipher::Make("1234567890123450"));
  PQPAGE_EXPECT_OK_AND_EQ(cipher.OpenKey(sealed, "kc1"), std::string("0123456789abcdef"));
  PQPAGE_EXPECT_ERROR(cipher.OpenKey(sealed, "kc2"), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_OK_AND_EQ(kms->UnwrapKey(wrapped, "kc1"), std::string("0123456789abcdef"));
}

TEST(InMemoryKmsClientTest, RefusesBadKeysAndUnknownIdsByName) {
  const auto bad = InMemoryKmsClient::Make({{"short", "0123456789"}});
  PQPAGE_EXPECT_ERROR(bad, absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "short")) << bad.status();
  auto kms = MakeKms();
  const auto unknown = kms->WrapKey("0123456789abcdef", "nope");
  PQPAGE_EXPECT_ERROR(unknown, absl::StatusCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(unknown.status().message(), "nope")) << unknown.status();
  PQPAGE_EXPECT_ERROR(kms->UnwrapKey("AAAA", "nope"), absl::StatusCode::kNotFound);
  PQPAGE_EXPECT_ERROR(kms->UnwrapKey("not base64!", "kf"), absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(kms->UnwrapKey("AAAA", "kf"), absl::StatusCode::kPermissionDenied);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string wrapped, kms->WrapKey("0123456789abcdef", "kf"));
  PQPAGE_EXPECT_ERROR(kms->UnwrapKey(wrapped, "kc1"), absl::StatusCode::kPermissionDenied);
}

TEST(KeyManagementTest, RoundTripsEveryDataKeyLengthSingleAndDoubleWrapped) {
  for (const bool double_wrapping : {true, false}) {
    for (const int bits : {128, 192, 256}) {
      SCOPED_TRACE(::testing::Message() << "double " << double_wrapping << ", " << bits << " bits");
      KmsEncryptionConfig config = TwoColumnConfig();
      config.double_wrapping = double_wrapping;
      config.data_key_length_bits = bits;
      config.algorithm = EncryptionAlgorithm::kAesGcmCtrV1;
      PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties properties,
                                  EncryptionPropertiesFromKms(MakeKms(), config));
      EXPECT_EQ(properties.algorithm, EncryptionAlgorithm::kAesGcmCtrV1);
      EXPECT_TRUE(properties.encrypted_footer);
      EXPECT_EQ(properties.footer_key.size(), bits / 8u);
      ASSERT_EQ(properties.column_keys.size(), 3u);
      for (const auto& [path, column_key] : properties.column_keys) {
        EXPECT_EQ(column_key.key.size(), bits / 8u) << path;
        EXPECT_NE(column_key.key, properties.footer_key) << path;
      }
      EXPECT_NE(properties.column_keys.at("double_field").key,
                properties.column_keys.at("a.b.c").key);
      ExpectKeysUnwrap(properties);
    }
  }
}

TEST(KeyManagementTest, UniformEncryptionAndThePlaintextFooterFlag) {
  KmsEncryptionConfig config;
  config.footer_key = "kf";
  config.uniform_encryption = true;
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileEncryptionProperties uniform,
                              EncryptionPropertiesFromKms(MakeKms(), config));
  EXPECT_TRUE(uniform.column_keys.empty());
  EXPECT_TRUE(uniform.encrypted_footer);
  ExpectKeysUnwrap(uniform);
  config.plaintext_footer = true;
  PQPAGE_ASSERT_OK_AND_ASSIGN(uniform, EncryptionPropertiesFromKms(MakeKms(), config));
  EXPECT_FALSE(uniform.encrypted_footer);
  KmsEncryptionConfig columns = TwoColumnConfig();
  columns.plaintext_footer = true;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties signed_footer,
                              EncryptionPropertiesFromKms(MakeKms(), columns));
  EXPECT_FALSE(signed_footer.encrypted_footer);
  ExpectKeysUnwrap(signed_footer);
}

TEST(KeyManagementTest, MaterialHasTheKeyToolsFieldsInTheirOrder) {
  KmsEncryptionConfig config = TwoColumnConfig();
  config.kms_instance_id = "";  // empty means DEFAULT
  config.kms_instance_url = "https://kms.example/";
  PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties properties,
                              EncryptionPropertiesFromKms(MakeKms(), config));
  const std::string& footer = properties.footer_key_metadata;
  EXPECT_TRUE(absl::StartsWith(
      footer, R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,)"
              R"("kmsInstanceID":"DEFAULT","kmsInstanceURL":"https://kms.example/",)"
              R"("masterKeyID":"kf","wrappedDEK":")"))
      << footer;
  const FlatJsonObject footer_json = ParsedOrDie(footer);
  EXPECT_EQ(Names(footer_json),
            (std::set<std::string>{"keyMaterialType", "internalStorage", "isFooterKey",
                                   "kmsInstanceID", "kmsInstanceURL", "masterKeyID", "wrappedDEK",
                                   "doubleWrapping", "keyEncryptionKeyID", "wrappedKEK"}));
  EXPECT_TRUE(footer_json.at("doubleWrapping").boolean);
  std::string kek_id;
  ASSERT_TRUE(absl::Base64Unescape(footer_json.at("keyEncryptionKeyID").text, &kek_id));
  EXPECT_EQ(kek_id.size(), 16u);

  // One KEK per master key within the file: both kc1 columns share theirs, kc2 has another.
  const FlatJsonObject first = ParsedOrDie(properties.column_keys.at("double_field").key_metadata);
  const FlatJsonObject second = ParsedOrDie(properties.column_keys.at("a.b.c").key_metadata);
  const FlatJsonObject other = ParsedOrDie(properties.column_keys.at("float_field").key_metadata);
  EXPECT_EQ(Names(first), (std::set<std::string>{
                              "keyMaterialType", "internalStorage", "isFooterKey", "masterKeyID",
                              "wrappedDEK", "doubleWrapping", "keyEncryptionKeyID", "wrappedKEK"}));
  EXPECT_FALSE(first.at("isFooterKey").boolean);
  EXPECT_EQ(first.at("masterKeyID").text, "kc1");
  EXPECT_EQ(first.at("keyEncryptionKeyID").text, second.at("keyEncryptionKeyID").text);
  EXPECT_EQ(first.at("wrappedKEK").text, second.at("wrappedKEK").text);
  EXPECT_NE(first.at("wrappedDEK").text, second.at("wrappedDEK").text);
  EXPECT_NE(first.at("keyEncryptionKeyID").text, other.at("keyEncryptionKeyID").text);
  EXPECT_NE(first.at("keyEncryptionKeyID").text, footer_json.at("keyEncryptionKeyID").text);

  // Single wrapping: no KEK fields, the DEK wrapped by the KMS itself.
  config.double_wrapping = false;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties single,
                              EncryptionPropertiesFromKms(MakeKms(), config));
  const FlatJsonObject single_json = ParsedOrDie(single.column_keys.at("float_field").key_metadata);
  EXPECT_EQ(Names(single_json),
            (std::set<std::string>{"keyMaterialType", "internalStorage", "isFooterKey",
                                   "masterKeyID", "wrappedDEK", "doubleWrapping"}));
  EXPECT_FALSE(single_json.at("doubleWrapping").boolean);
  PQPAGE_EXPECT_OK_AND_EQ(MakeKms()->UnwrapKey(single_json.at("wrappedDEK").text, "kc2"),
                          single.column_keys.at("float_field").key);
}

TEST(KeyManagementTest, RefusesBadConfigurations) {
  const auto expect_invalid = [](const KmsEncryptionConfig& config, absl::string_view named) {
    const auto properties = EncryptionPropertiesFromKms(MakeKms(), config);
    PQPAGE_EXPECT_ERROR(properties, absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(properties.status().message(), named)) << properties.status();
  };
  KmsEncryptionConfig config = TwoColumnConfig();
  config.footer_key.clear();
  expect_invalid(config, "footer");
  config = TwoColumnConfig();
  config.column_keys["kf"] = {"float_field"};
  expect_invalid(config, "float_field");
  config = TwoColumnConfig();
  config.data_key_length_bits = 512;
  expect_invalid(config, "512");
  config = TwoColumnConfig();
  config.uniform_encryption = true;
  expect_invalid(config, "uniform");
  config.column_keys.clear();
  config.uniform_encryption = false;
  expect_invalid(config, "uniform");
  config = TwoColumnConfig();
  config.column_keys["kc2"].push_back("");
  expect_invalid(config, "kc2");
  config = TwoColumnConfig();
  config.column_keys[""] = {"x"};
  expect_invalid(config, "master key");
  config = TwoColumnConfig();
  config.footer_key = "missing";
  PQPAGE_EXPECT_ERROR(EncryptionPropertiesFromKms(MakeKms(), config), absl::StatusCode::kNotFound);
  PQPAGE_EXPECT_ERROR(EncryptionPropertiesFromKms(nullptr, TwoColumnConfig()),
                      absl::StatusCode::kInvalidArgument);
}

TEST(KeyManagementTest, WrongMasterKeysAndAlteredMaterialAreNamedErrors) {
  for (const bool double_wrapping : {true, false}) {
    SCOPED_TRACE(double_wrapping ? "double wrapping" : "single wrapping");
    KmsEncryptionConfig config = TwoColumnConfig();
    config.double_wrapping = double_wrapping;
    PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties properties,
                                EncryptionPropertiesFromKms(MakeKms(), config));
    const std::string& metadata = properties.column_keys.at("float_field").key_metadata;

    // Another key under the same ID: the KMS cannot unwrap.
    std::map<std::string, std::string> wrong = kMasterKeys;
    wrong["kc2"] = "ffffffffffffffff";
    const auto refused = DecryptionPropertiesFromKms(MakeKms(wrong)).key_retriever(metadata);
    PQPAGE_EXPECT_ERROR(refused, absl::StatusCode::kPermissionDenied);
    EXPECT_TRUE(absl::StrContains(refused.status().message(), "kc2")) << refused.status();
    // The KMS without that master key at all.
    PQPAGE_EXPECT_ERROR(
        DecryptionPropertiesFromKms(MakeKms({{"kf", "0123456789012345"}})).key_retriever(metadata),
        absl::StatusCode::kNotFound);

    // One character of the wrapped DEK changed (still base64).
    const FlatJsonObject json = ParsedOrDie(metadata);
    std::string wrapped_dek = json.at("wrappedDEK").text;
    wrapped_dek[4] = wrapped_dek[4] == 'A' ? 'B' : 'A';
    const std::string altered =
        absl::StrReplaceAll(metadata, {{json.at("wrappedDEK").text, wrapped_dek}});
    const auto corrupt = DecryptionPropertiesFromKms(MakeKms()).key_retriever(altered);
    // Double: the KEK opens, the DEK does not (the file is damaged). Single: only the KMS knows.
    PQPAGE_EXPECT_ERROR(corrupt, double_wrapping ? absl::StatusCode::kDataLoss
                                                 : absl::StatusCode::kPermissionDenied);
    if (double_wrapping) {
      EXPECT_TRUE(absl::StrContains(corrupt.status().message(), "wrappedDEK")) << corrupt.status();
    }
  }
}

TEST(KeyManagementTest, MalformedKeyMetadataIsDataLossNamingTheField) {
  const KeyRetriever retriever = DecryptionPropertiesFromKms(MakeKms()).key_retriever;
  const auto expect_data_loss = [&](std::string_view metadata, absl::string_view named) {
    const auto key = retriever(metadata);
    PQPAGE_EXPECT_ERROR(key, absl::StatusCode::kDataLoss);
    EXPECT_TRUE(absl::StrContains(key.status().message(), named))
        << key.status() << " for " << metadata;
  };
  expect_data_loss("kf", "malformed JSON");
  expect_data_loss("", "malformed JSON");
  expect_data_loss("{\"keyMaterialType\":\"PKMT1\",", "malformed JSON");
  expect_data_loss(R"({"keyMaterialType":"PKMT2","internalStorage":true})", "PKMT2");
  expect_data_loss(R"({"internalStorage":true})", "keyMaterialType");
  expect_data_loss(R"({"keyMaterialType":"PKMT1"})", "internalStorage");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":1})", "internalStorage");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":false})", "keyReference");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,)"
                   R"("wrappedDEK":"AAAA","doubleWrapping":false})",
                   "masterKeyID");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,)"
                   R"("masterKeyID":"kc1","wrappedDEK":"AAAA","doubleWrapping":true})",
                   "keyEncryptionKeyID");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,)"
                   R"("masterKeyID":"kc1","wrappedDEK":"AAAA","doubleWrapping":true,)"
                   R"("keyEncryptionKeyID":"%%%","wrappedKEK":"AAAA"})",
                   "keyEncryptionKeyID");
  expect_data_loss(R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":[]})",
                   "arrays");
}

// Every byte of valid metadata changed, cut or doubled: an error or (where the change is harmless,
// such as whitespace) the right key, never a crash or another key.
TEST(KeyManagementTest, DamagedKeyMetadataNeverYieldsAnotherKey) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties properties,
                              EncryptionPropertiesFromKms(MakeKms(), TwoColumnConfig()));
  const KeyRetriever retriever = DecryptionPropertiesFromKms(MakeKms()).key_retriever;
  const std::string& metadata = properties.footer_key_metadata;
  for (size_t i = 0; i < metadata.size(); ++i) {
    std::vector<std::string> damaged = {metadata.substr(0, i),
                                        metadata.substr(0, i) + metadata.substr(i + 1),
                                        metadata.substr(0, i + 1) + metadata.substr(i)};
    for (const char c : {'\0', ' ', '"', '\\', '{', 'A', '\xff'}) {
      damaged.push_back(metadata);
      damaged.back()[i] = c;
    }
    for (const std::string& bad : damaged) {
      const absl::StatusOr<std::string> key = retriever(bad);
      if (key.ok()) EXPECT_EQ(*key, properties.footer_key) << bad;
    }
  }
}

TEST(KeyManagementTest, ExternalMaterialIsFoundByReference) {
  // External material the way parquet-java stores it, built from material this library wrote.
  PQPAGE_ASSERT_OK_AND_ASSIGN(const FileEncryptionProperties properties,
                              EncryptionPropertiesFromKms(MakeKms(), TwoColumnConfig()));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const internal::KeyMetadata footer,
                              internal::ParseKeyMetadata(properties.footer_key_metadata));
  const std::string external = internal::SerializeExternalKeyMaterial(
      {{"footerKey", internal::SerializeKeyMaterial(footer.material, false)}});
  const std::string reference = internal::SerializeExternalKeyMetadata("footerKey");
  EXPECT_EQ(reference, R"({"keyMaterialType":"PKMT1","internalStorage":false,)"
                       R"("keyReference":"footerKey"})");
  PQPAGE_EXPECT_OK_AND_EQ(DecryptionPropertiesFromKms(MakeKms(), external).key_retriever(reference),
                          properties.footer_key);
  // Internal metadata needs no external material, even where some is given.
  PQPAGE_EXPECT_OK_AND_EQ(DecryptionPropertiesFromKms(MakeKms(), external)
                              .key_retriever(properties.column_keys.at("float_field").key_metadata),
                          properties.column_keys.at("float_field").key);
  PQPAGE_EXPECT_ERROR(DecryptionPropertiesFromKms(MakeKms()).key_retriever(reference),
                      absl::StatusCode::kNotFound);
  PQPAGE_EXPECT_ERROR(DecryptionPropertiesFromKms(MakeKms(), external)
                          .key_retriever(internal::SerializeExternalKeyMetadata("columnKey7")),
                      absl::StatusCode::kNotFound);
  PQPAGE_EXPECT_ERROR(DecryptionPropertiesFromKms(MakeKms(), "[]").key_retriever(reference),
                      absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(
      DecryptionPropertiesFromKms(MakeKms(), R"({"footerKey":"{}"})").key_retriever(reference),
      absl::StatusCode::kDataLoss);
  EXPECT_EQ(ExternalKeyMaterialPath("/data/t/part-0.parquet"),
            "/data/t/_KEY_MATERIAL_FOR_part-0.parquet.json");
  EXPECT_EQ(ExternalKeyMaterialPath("x.parquet"), "_KEY_MATERIAL_FOR_x.parquet.json");
}

TEST(KeyMaterialJsonTest, ReadsFlatObjectsStrictly) {
  const FlatJsonObject object = ParsedOrDie(
      " {\"s\" : \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\ud83d\\ude00\u00e9\", \"t\":true,"
      "\"f\":false, \"n\":-12.5e+3,\"z\":0}\n");
  EXPECT_EQ(object.at("s").text, "a\"\\/\b\f\n\r\tA\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9");
  EXPECT_EQ(object.at("t").type, JsonScalar::Type::kBool);
  EXPECT_TRUE(object.at("t").boolean);
  EXPECT_FALSE(object.at("f").boolean);
  EXPECT_EQ(object.at("n").type, JsonScalar::Type::kNumber);
  EXPECT_EQ(object.at("n").text, "-12.5e+3");
  EXPECT_TRUE(ParsedOrDie("{}").empty());
  for (const std::string& bad : std::vector<std::string>{"",
                                                         "[]",
                                                         "{",
                                                         "{\"a\"}",
                                                         "{\"a\":}",
                                                         "{\"a\":null}",
                                                         "{\"a\":{}}",
                                                         "{\"a\":[1]}",
                                                         "{\"a\":1,}",
                                                         "{\"a\":1 \"b\":2}",
                                                         "{\"a\":1}x",
                                                         "{\"a\":1}{}",
                                                         "{\"a\":01}",
                                                         "{\"a\":1.}",
                                                         "{\"a\":-}",
                                                         "{\"a\":1e}",
                                                         "{\"a\":tru}",
                                                         "{\"a\":\"\\x\"}",
                                                         "{\"a\":\"\\u12\"}",
                                                         "{\"a\":\"\\ud800\"}",
                                                         "{\"a\":\"\\udc00\"}",
                                                         "{\"a\":\"\n\"}",
                                                         "{\"a\":\"\xff\"}",
                                                         "{\"a\":\"\xc3\"}",
                                                         "{\"a\":\"open}",
                                                         "{\"a\":1,\"a\":2}",
                                                         "{'a':1}"}) {
    const auto parsed = ParseFlatJsonObject(bad);
    PQPAGE_EXPECT_ERROR(parsed, absl::StatusCode::kDataLoss) << absl::CHexEscape(bad);
  }
}

TEST(KeyMaterialJsonTest, ReadsBooleansWrittenAsStrings) {
  // parquet-java's key tools before 1.12 kept every member a string.
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      const internal::KeyMaterial material,
      internal::ParseKeyMaterial(R"({"keyMaterialType":"PKMT1","isFooterKey":"false",)"
                                 R"("masterKeyID":"kc1","wrappedDEK":"AAAA",)"
                                 R"("doubleWrapping":"false"})"));
  EXPECT_FALSE(material.is_footer_key);
  EXPECT_FALSE(material.double_wrapping);
  EXPECT_EQ(material.master_key_id, "kc1");
  PQPAGE_EXPECT_ERROR(internal::ParseKeyMaterial(R"({"keyMaterialType":"PKMT1","isFooterKey":"no",)"
                                                 R"("masterKeyID":"k","wrappedDEK":"AAAA",)"
                                                 R"("doubleWrapping":false})"),
                      absl::StatusCode::kDataLoss);
}

TEST(KeyMaterialJsonTest, WritesEscapedStringsThatReadBack) {
  internal::KeyMaterial material;
  material.master_key_id = "a\"b\\c\x01/\xc3\xa9";
  material.wrapped_dek = "AAAA";
  material.double_wrapping = false;
  const std::string json = internal::SerializeKeyMaterial(material, false);
  EXPECT_TRUE(absl::StrContains(json, R"("masterKeyID":"a\"b\\c\u0001/)")) << json;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const internal::KeyMaterial back, internal::ParseKeyMaterial(json));
  EXPECT_EQ(back.master_key_id, material.master_key_id);
}

TEST(KeyMaterialJsonTest, DecodesStrictBase64) {
  PQPAGE_EXPECT_OK_AND_EQ(internal::DecodeBase64("YWJj", "x"), std::string("abc"));
  PQPAGE_EXPECT_OK_AND_EQ(internal::DecodeBase64("YWI=", "x"), std::string("ab"));
  PQPAGE_EXPECT_OK_AND_EQ(internal::DecodeBase64("YWI", "x"), std::string("ab"));
  PQPAGE_EXPECT_OK_AND_EQ(internal::DecodeBase64("", "x"), std::string());
  for (const std::string& bad :
       std::vector<std::string>{"Y", "YW=", "YWJj\n", "YW Jj", "YW-_", "YQ===", "=YWJ"}) {
    PQPAGE_EXPECT_ERROR(internal::DecodeBase64(bad, "x"), absl::StatusCode::kDataLoss) << bad;
  }
}

// Key metadata pyarrow 26's CryptoFactory wrote with tests/interop/encryption_kms.py's client (the
// same master keys), each with the data key it stands for: the footer keys were checked by
// decrypting the footer of the file they came from, the column keys came from that footer.
struct PyarrowKey {
  const char* metadata;
  const char* key_hex;
};
constexpr PyarrowKey kPyarrowDoubleWrapped[] = {
    {R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,)"
     R"("kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","masterKeyID":"kf",)"
     R"("wrappedDEK":"jDuea8Y0QaS5SnXFNugykPhwyI9Fb4QL1jEOf8KlSnu7gzTEexcgWLi+/R8=",)"
     R"("doubleWrapping":true,"keyEncryptionKeyID":"VGKakFsmTubObcjt/RAYBw==",)"
     R"("wrappedKEK":"zw1G7/wdTHuhmt9wK2mSu19CfAPImY02hI66d1cnaO2gktc8iJTXI3i5//M="})",
     "53d8bb3ba50d9e5e2291c8948ff87f70"},
    {R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,)"
     R"("masterKeyID":"kc1",)"
     R"("wrappedDEK":"HIfhXNnhn/L2CNL/+omdmUhR3+z7jPT0mH0aZOhbX4LzogMRlDER37/f3RU=",)"
     R"("doubleWrapping":true,"keyEncryptionKeyID":"sx/QjanYndgrMa77PNVxRg==",)"
     R"("wrappedKEK":"kji248nUUW99N8xCxYeRLjUr749363TcyYmJ09Kdm8/TC0lxgNaC0URtYDo="})",
     "f7f86c9f6d17b549711ab8b3a8259271"},
};
constexpr PyarrowKey kPyarrowSingleWrapped256[] = {
    {R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,)"
     R"("kmsInstanceID":"DEFAULT","kmsInstanceURL":"DEFAULT","masterKeyID":"kf",)"
     R"("wrappedDEK":"HS/EjWlVKU3XinZaiqj6dE60lKVGhVgk1dDrKEHBZznsA3Y255yYJiH7n5rr8aLq)"
     R"(Ml5ff2Bkm0jhUNpy",)"
     R"("doubleWrapping":false})",
     "714e940ba2c1790957d6a19cea8993a3ea4ac64547a20c645159c8295d48fe8f"},
    {R"({"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":false,)"
     R"("masterKeyID":"kc2",)"
     R"("wrappedDEK":"QPeBAciJQPFthMPcxgdevy+tTY6U/nhXlBNV4wX5r5LMrOG/qBcm0fs9DHINPyoq)"
     R"(H283bE81PfcPIuH2",)"
     R"("doubleWrapping":false})",
     "eb1580095a1b2b5b65eda409531032482ec1db21813f88cf0460fb94e3d678fc"},
};

// `json` with the random values (wrapped keys, KEK IDs) emptied, leaving the layout to compare.
std::string Shape(std::string json) {
  for (const char* field : {"wrappedDEK", "keyEncryptionKeyID", "wrappedKEK"}) {
    const std::string opening = absl::StrCat("\"", field, "\":\"");
    const size_t at = json.find(opening);
    if (at == std::string::npos) continue;
    const size_t value_at = at + opening.size();
    json.erase(value_at, json.find('"', value_at) - value_at);
  }
  return json;
}

TEST(KeyManagementTest, UnwrapsPyarrowKeyMetadataAndWritesItsLayout) {
  const FileDecryptionProperties properties = DecryptionPropertiesFromKms(MakeKms());
  for (const auto* keys : {kPyarrowDoubleWrapped, kPyarrowSingleWrapped256}) {
    for (int i = 0; i < 2; ++i) {
      SCOPED_TRACE(keys[i].metadata);
      PQPAGE_EXPECT_OK_AND_EQ(properties.key_retriever(keys[i].metadata),
                              absl::HexStringToBytes(keys[i].key_hex));
    }
  }
  // What this library writes is laid out byte for byte as pyarrow's, but for the random values.
  KmsEncryptionConfig config;
  config.footer_key = "kf";
  config.column_keys = {{"kc1", {"double_field"}}};
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileEncryptionProperties ours,
                              EncryptionPropertiesFromKms(MakeKms(), config));
  EXPECT_EQ(Shape(ours.footer_key_metadata), Shape(kPyarrowDoubleWrapped[0].metadata));
  EXPECT_EQ(Shape(ours.column_keys.at("double_field").key_metadata),
            Shape(kPyarrowDoubleWrapped[1].metadata));
  config.double_wrapping = false;
  config.column_keys = {{"kc2", {"float_field"}}};
  config.data_key_length_bits = 256;
  PQPAGE_ASSERT_OK_AND_ASSIGN(ours, EncryptionPropertiesFromKms(MakeKms(), config));
  EXPECT_EQ(Shape(ours.footer_key_metadata), Shape(kPyarrowSingleWrapped256[0].metadata));
  EXPECT_EQ(Shape(ours.column_keys.at("float_field").key_metadata),
            Shape(kPyarrowSingleWrapped256[1].metadata));
}

// parquet-java 1.12 wrote this file's keys through its key tools and the in-memory test KMS, with
// the key material outside the file. The key metadata stored in the file (read from its footer,
// decrypted with the footer key) is {"keyMaterialType":"PKMT1","internalStorage":false,
// "keyReference":"footerKey"} for the footer, and likewise "columnKey0" for column `integers`,
// "columnKey1" for `strings`. The data keys are random: the expected values below were unwrapped
// independently (Python's AESGCM) and the footer key decrypts the file's footer.
TEST(KeyManagementTest, UnwrapsParquetJavaExternalKeyMaterial) {
  const std::string path = std::string(PQPAGE_SHARED_DIR) +
                           "/parquet-testing/data/"
                           "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json";
  if (!std::filesystem::exists(std::string(PQPAGE_SHARED_DIR) + "/parquet-testing")) {
    GTEST_SKIP() << "no ../shared/parquet-testing (" << path << "; see README: reference files)";
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string external((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  EXPECT_EQ(ExternalKeyMaterialPath(std::string(PQPAGE_SHARED_DIR) +
                                    "/parquet-testing/data/external_key_material_java.parquet."
                                    "encrypted"),
            path);

  const FileDecryptionProperties properties = DecryptionPropertiesFromKms(MakeKms(), external);
  const std::map<std::string, std::string> expected = {
      {"footerKey", "5e63ada1593fab4abb6aecbc6a82dd1a"},
      {"columnKey0", "6864726b09bbd978fae87df0ad4155d0"},
      {"columnKey1", "4f1b17c621d61b1917a356d2cf1eafcc"}};
  for (const auto& [reference, hex] : expected) {
    PQPAGE_EXPECT_OK_AND_EQ(
        properties.key_retriever(internal::SerializeExternalKeyMetadata(reference)),
        absl::HexStringToBytes(hex));
    // The same file as the file itself spells its metadata.
    PQPAGE_EXPECT_OK_AND_EQ(
        properties.key_retriever(R"({"keyMaterialType":"PKMT1","internalStorage":false,)"
                                 R"("keyReference":")" +
                                 reference + "\"}"),
        absl::HexStringToBytes(hex));
  }
  // The reference file's master keys, and no others, unwrap it.
  std::map<std::string, std::string> wrong = kMasterKeys;
  wrong["kf"] = "1234567890123450";
  PQPAGE_EXPECT_ERROR(DecryptionPropertiesFromKms(MakeKms(wrong), external)
                          .key_retriever(internal::SerializeExternalKeyMetadata("footerKey")),
                      absl::StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace pqpage
