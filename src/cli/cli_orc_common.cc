// What the ORC halves of the commands share: recognising an ORC file, opening it, naming its
// columns and writers, and refusing the options that only mean something for Parquet.
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cli/cli_orc.h"
#include "pqpage/byte_source.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/metadata.h"

namespace pqpage::cli {

bool IsOrcFile(const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return false;
  std::array<char, 3> magic{};
  const size_t got = std::fread(magic.data(), 1, magic.size(), file);
  std::fclose(file);
  return got == magic.size() && std::string_view(magic.data(), magic.size()) == "ORC";
}

absl::Status RejectOptionsOutside(const ParsedArgs& parsed, const std::vector<OptionSpec>& specs,
                                  const std::set<std::string, std::less<>>& allowed) {
  for (const OptionSpec& spec : specs) {
    if (parsed.Has(spec.name) && allowed.count(spec.name) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("option '--", spec.name, "' does not apply to ORC files"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> OpenOrc(const std::string& path, bool mmap) {
  absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> reader;
  if (mmap) {
    absl::StatusOr<std::unique_ptr<ByteSource>> source = OpenMappedFileByteSource(path);
    if (!source.ok()) return source.status();
    reader = orc::OrcFileReader::Open(*std::move(source));
  } else {
    reader = orc::OrcFileReader::Open(path);
  }
  // The library's messages do not name the file; the tool's one-line errors do.
  if (!reader.ok()) {
    return absl::Status(reader.status().code(),
                        absl::StrCat(path, ": ", reader.status().message()));
  }
  return reader;
}

std::vector<std::string> OrcColumnPaths(const std::vector<orc::OrcType>& types) {
  std::vector<std::string> paths(types.size());
  // Pre-order: a parent's path is known before its children are reached.
  for (size_t column = 0; column < types.size(); ++column) {
    const orc::OrcType& type = types[column];
    for (size_t k = 0; k < type.subtypes.size(); ++k) {
      const uint32_t child = type.subtypes[k];
      if (child >= paths.size()) continue;  // ValidateTypeTree already refused such a tree
      std::string name;
      switch (type.kind) {
        case orc::TypeKind::kStruct:
          name = k < type.field_names.size() ? type.field_names[k] : absl::StrCat("_col", k);
          break;
        case orc::TypeKind::kList:
          name = "_elem";
          break;
        case orc::TypeKind::kMap:
          name = k == 0 ? "_key" : "_value";
          break;
        default:
          name = absl::StrCat(k);
      }
      paths[child] = paths[column].empty() ? name : absl::StrCat(paths[column], ".", name);
    }
  }
  return paths;
}

std::string_view OrcWriterName(uint32_t writer_id) {
  // The registry of the ORC specification's Footer.writer field.
  static constexpr std::string_view kNames[] = {"ORC Java",      "ORC C++", "Presto",
                                                "Scritchley Go", "Trino",   "CUDF"};
  if (writer_id < std::size(kNames)) return kNames[writer_id];
  return "unknown";
}

}  // namespace pqpage::cli
