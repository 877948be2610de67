#include "crypto/module_aad.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace pqpage::internal {
namespace {

absl::Status AppendOrdinal(const char* what, int64_t ordinal, std::string* aad) {
  if (ordinal < 0 || ordinal > kMaxModuleOrdinal) {
    return absl::InvalidArgumentError(absl::StrCat("an encrypted file cannot hold ", what, " ",
                                                   ordinal, ": its AAD has room up to ",
                                                   kMaxModuleOrdinal));
  }
  aad->push_back(static_cast<char>(ordinal & 0xff));
  aad->push_back(static_cast<char>(ordinal >> 8));
  return absl::OkStatus();
}

}  // namespace

std::string FooterAad(std::string_view file_aad) {
  std::string aad(file_aad);
  aad.push_back(static_cast<char>(ModuleType::kFooter));
  return aad;
}

absl::StatusOr<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group,
                                      int64_t column, int64_t page) {
  std::string aad(file_aad);
  aad.push_back(static_cast<char>(type));
  if (type == ModuleType::kFooter) return aad;
  absl::Status status = AppendOrdinal("row group", row_group, &aad);
  if (status.ok()) status = AppendOrdinal("column", column, &aad);
  if (status.ok() && (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader)) {
    status = AppendOrdinal("data page", page, &aad);
  }
  if (!status.ok()) return status;
  return aad;
}

}  // namespace pqpage::internal
