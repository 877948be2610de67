// The additional authenticated data of each encryption module, as the format builds it: the file
// AAD (the AAD prefix, then the writer's random aad_file_unique), the module type, and for every
// module but the footer the row group and column ordinals, and for data pages and their headers
// the page ordinal, each a 2-byte little-endian number.
#ifndef PQPAGE_CRYPTO_MODULE_AAD_H_
#define PQPAGE_CRYPTO_MODULE_AAD_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace pqpage::internal {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// The largest row group, column or page ordinal an AAD can hold.
inline constexpr int64_t kMaxModuleOrdinal = 32767;

std::string FooterAad(std::string_view file_aad);

// `page` is used for kDataPage and kDataPageHeader only.
// @return the AAD; InvalidArgument for an ordinal that is negative or over kMaxModuleOrdinal
// (an encrypted file holds at most 32,768 row groups, columns, and data pages per chunk).
absl::StatusOr<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group,
                                      int64_t column, int64_t page = 0);

// Whether modules of `type` are pages, which AES_GCM_CTR_V1 encrypts with CTR.
inline bool IsPageModule(ModuleType type) {
  return type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage;
}

}  // namespace pqpage::internal

#endif  // PQPAGE_CRYPTO_MODULE_AAD_H_
