// AES modules under both engines (ipsec-mb where built, and OpenSSL): the GCM specification's test
// vectors and a CTR one, modules that one engine seals and the other opens, in-place decryption,
// every changed byte of a GCM module refused, and which engine the default picks.
#include "crypto/aes_cipher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "common/byte_io.h"
#include "status_matchers.h"

namespace pqpage::internal {
namespace {

std::string Hex(std::string_view hex) {
  return absl::HexStringToBytes(absl::string_view(hex.data(), hex.size()));
}

absl::Span<const uint8_t> Bytes(std::string_view text) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

std::vector<uint8_t> Module(std::string_view nonce, std::string_view ciphertext,
                            std::string_view tag) {
  std::vector<uint8_t> module(kModuleLengthBytes);
  StoreLittleEndian<uint32_t>(module.data(),
                              static_cast<uint32_t>(nonce.size() + ciphertext.size() + tag.size()));
  for (std::string_view part : {nonce, ciphertext, tag})
    module.insert(module.end(), part.begin(), part.end());
  return module;
}

class AesCipherTest : public ::testing::TestWithParam<AesEngine> {
 protected:
  absl::StatusOr<AesCipher> Make(std::string_view key) const {
    return AesCipher::Make(key, GetParam());
  }
};

// Test cases 2, 4, 10 and 16 of McGrew and Viega's "The Galois/Counter Mode of Operation".
struct Vector {
  const char* key;
  const char* nonce;
  const char* aad;
  const char* plaintext;
  const char* ciphertext;
  const char* tag;
};
constexpr char kPlain60[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b5"
    "25b16aedf5aa0de657ba637b39";
constexpr Vector kVectors[] = {
    {"00000000000000000000000000000000", "000000000000000000000000", "",
     "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    {"feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2", kPlain60,
     "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84"
     "aa051ba30b396a0aac973d58e091",
     "5bc94fbc3221a5db94fae95ae7121a47"},
    {"feffe9928665731c6d6a8f9467308308feffe9928665731c", "cafebabefacedbaddecaf888",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2", kPlain60,
     "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c7d773d00c144c525ac619d18c84a"
     "3f4718e2448b2fe324d9ccda2710",
     "2519498e80f1478f37ba55bd6d27618c"},
    {"feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2", kPlain60,
     "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b105682"
     "8838c5f61e6393ba7a0abcc9f662",
     "76fc6ece0f4e1768cddf8853bb2d551b"},
};

TEST_P(AesCipherTest, MeetsTheSpecificationsVectors) {
  for (const Vector& v : kVectors) {
    SCOPED_TRACE(v.key);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher, Make(Hex(v.key)));
    const std::string plaintext = Hex(v.plaintext);
    PQPAGE_ASSERT_OK_AND_ASSIGN(const auto tag,
                                cipher.GcmTag(Bytes(plaintext), Hex(v.aad), Bytes(Hex(v.nonce))));
    EXPECT_EQ(std::string(tag.begin(), tag.end()), Hex(v.tag));
    const std::vector<uint8_t> module = Module(Hex(v.nonce), Hex(v.ciphertext), Hex(v.tag));
    std::vector<uint8_t> out(plaintext.size());
    PQPAGE_ASSERT_OK(cipher.DecryptGcm(module, Hex(v.aad), absl::MakeSpan(out)));
    EXPECT_EQ(std::string(out.begin(), out.end()), plaintext);
  }
}

TEST_P(AesCipherTest, TheOtherEngineOpensWhatThisOneSealsAtEverySize) {
  const std::string key = Hex("000102030405060708090a0b0c0d0e0f1011121314151617");
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher, Make(key));
  const AesEngine other =
      GetParam() == AesEngine::kOpenSsl ? AesEngine::kFastest : AesEngine::kOpenSsl;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher opener, AesCipher::Make(key, other));
  for (const size_t size : {0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000, 4099, 70001}) {
    SCOPED_TRACE(size);
    std::vector<uint8_t> plaintext(size);
    for (size_t i = 0; i < size; ++i) plaintext[i] = static_cast<uint8_t>(i * 7 + 3);
    const std::string aad(size % 37, 'a');
    std::vector<uint8_t> module;
    PQPAGE_ASSERT_OK(cipher.EncryptGcm(plaintext, aad, &module));
    ASSERT_EQ(module.size(), size + kGcmOverhead);
    std::vector<uint8_t> out(size, 0xee);
    PQPAGE_ASSERT_OK(opener.DecryptGcm(module, aad, absl::MakeSpan(out)));
    EXPECT_EQ(out, plaintext);
    // In place, as the page reader decrypts: the plaintext overwrites the ciphertext.
    std::vector<uint8_t> copy = module;
    PQPAGE_ASSERT_OK(cipher.DecryptGcm(
        copy, aad, absl::MakeSpan(copy.data() + kModuleLengthBytes + kNonceBytes, size)));
    EXPECT_TRUE(std::equal(plaintext.begin(), plaintext.end(),
                           copy.begin() + kModuleLengthBytes + kNonceBytes));
  }
}

TEST_P(AesCipherTest, EveryChangedByteAndAWrongAadAreDataLossWithTheOutputZeroed) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher, Make(std::string(32, 'k')));
  const std::string plaintext = "forty-one bytes of a page, more or less..";
  std::vector<uint8_t> module;
  PQPAGE_ASSERT_OK(cipher.EncryptGcm(Bytes(plaintext), "aad", &module));
  std::vector<uint8_t> out(plaintext.size());
  // The length prefix is not authenticated by GCM; the module's size is checked before this.
  for (size_t at = kModuleLengthBytes; at < module.size(); ++at) {
    std::vector<uint8_t> changed = module;
    changed[at] ^= 0x10;
    std::fill(out.begin(), out.end(), 0xee);
    const absl::Status status = cipher.DecryptGcm(changed, "aad", absl::MakeSpan(out));
    EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << at;
    EXPECT_NE(status.message().find("does not authenticate"), absl::string_view::npos) << status;
    EXPECT_EQ(out, std::vector<uint8_t>(plaintext.size(), 0)) << at;
  }
  PQPAGE_EXPECT_ERROR(cipher.DecryptGcm(module, "aaD", absl::MakeSpan(out)),
                      absl::StatusCode::kDataLoss);
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher wrong, Make(std::string(32, 'K')));
  PQPAGE_EXPECT_ERROR(wrong.DecryptGcm(module, "aad", absl::MakeSpan(out)),
                      absl::StatusCode::kDataLoss);
}

// AES-CTR from counter 1 after the nonce (computed with the `cryptography` package, as OpenSSL's
// and every AES_GCM_CTR_V1 file of parquet-testing count).
TEST_P(AesCipherTest, CtrModulesCountFromOneAfterTheNonce) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher,
                              Make(Hex("feffe9928665731c6d6a8f9467308308")));
  const std::vector<uint8_t> module = Module(Hex("cafebabefacedbaddecaf888"),
                                             Hex("eb762a6ec4cb6f41e8e5dbed284e92821d1585b4ccc7851bc"
                                                 "067184fa1147874793184e9ac5e5a693442403aea"
                                                 "3b9e798c83f5d26b037c18e8231f47"),
                                             "");
  std::vector<uint8_t> out(60);
  PQPAGE_ASSERT_OK(cipher.DecryptCtr(module, absl::MakeSpan(out)));
  EXPECT_EQ(std::string(out.begin(), out.end()), Hex(kPlain60));
}

TEST_P(AesCipherTest, TheOtherEngineOpensCtrModulesAtEverySize) {
  const std::string key(32, 'c');
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher, Make(key));
  const AesEngine other =
      GetParam() == AesEngine::kOpenSsl ? AesEngine::kFastest : AesEngine::kOpenSsl;
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher opener, AesCipher::Make(key, other));
  for (const size_t size : {0, 1, 15, 16, 17, 255, 256, 257, 4099, 70001, 1 << 21}) {
    SCOPED_TRACE(size);
    std::vector<uint8_t> plaintext(size);
    for (size_t i = 0; i < size; ++i) plaintext[i] = static_cast<uint8_t>(i * 13 + 5);
    std::vector<uint8_t> module;
    PQPAGE_ASSERT_OK(cipher.EncryptCtr(plaintext, &module));
    ASSERT_EQ(module.size(), size + kCtrOverhead);
    std::vector<uint8_t> out(size, 0xee);
    PQPAGE_ASSERT_OK(opener.DecryptCtr(module, absl::MakeSpan(out)));
    EXPECT_EQ(out, plaintext);
    std::vector<uint8_t> copy = module;
    PQPAGE_ASSERT_OK(cipher.DecryptCtr(copy, absl::MakeSpan(copy.data() + kCtrOverhead, size)));
    EXPECT_TRUE(std::equal(plaintext.begin(), plaintext.end(), copy.begin() + kCtrOverhead));
  }
}

TEST_P(AesCipherTest, SealedKeysOpenOnlyUnderTheirAad) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher cipher, Make(std::string(16, 'm')));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string sealed, cipher.SealKey("0123456789abcdef", "id"));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string opened, cipher.OpenKey(sealed, "id"));
  EXPECT_EQ(opened, "0123456789abcdef");
  PQPAGE_EXPECT_ERROR(cipher.OpenKey(sealed, "other"), absl::StatusCode::kDataLoss);
}

INSTANTIATE_TEST_SUITE_P(Engines, AesCipherTest,
                         ::testing::Values(AesEngine::kFastest, AesEngine::kOpenSsl),
                         [](const ::testing::TestParamInfo<AesEngine>& info) {
                           return info.param == AesEngine::kOpenSsl ? "OpenSsl" : "Fastest";
                         });

TEST(AesEngineTest, TheDefaultIsIpsecMbWhereBuiltAndTheCpuHasAesNi) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher fastest, AesCipher::Make(std::string(16, 'k')));
  PQPAGE_ASSERT_OK_AND_ASSIGN(const AesCipher openssl,
                              AesCipher::Make(std::string(16, 'k'), AesEngine::kOpenSsl));
  EXPECT_FALSE(openssl.accelerated());
#if defined(__x86_64__)
  const bool expected = AcceleratedAesBuiltIn() && __builtin_cpu_supports("aes");
#else
  const bool expected = false;
#endif
  EXPECT_EQ(fastest.accelerated(), expected);
#if defined(__x86_64__)
  // x86-64 builds require ipsec-mb (CMakeLists.txt): a build without it would test OpenSSL twice.
  EXPECT_TRUE(AcceleratedAesBuiltIn());
#endif
}

// AesCipher falls back to OpenSSL should ipsec-mb refuse a CTR job: that must not be what happens.
TEST(AesEngineTest, IpsecMbRunsCtrJobsItself) {
  const std::unique_ptr<const AcceleratedAes> aes = AcceleratedAes::Make(std::string(24, 'k'));
  if (aes == nullptr) GTEST_SKIP() << "ipsec-mb is not built in or cannot run on this CPU";
  uint8_t counter[16] = {1, 2, 3};
  counter[15] = 1;
  for (const size_t size : {1, 16, 100, 1 << 20}) {
    std::vector<uint8_t> bytes(size, 0x5a);
    EXPECT_TRUE(aes->Ctr(counter, bytes, bytes.data())) << size;
    EXPECT_NE(bytes, std::vector<uint8_t>(size, 0x5a)) << size;
  }
}

}  // namespace
}  // namespace pqpage::internal
