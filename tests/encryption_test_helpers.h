// What the encryption tests share: every column of a file read into bytes, by path, so that two
// files (or a file before and after a change) can be compared whole.
#ifndef PQPAGE_TESTS_ENCRYPTION_TEST_HELPERS_H_
#define PQPAGE_TESTS_ENCRYPTION_TEST_HELPERS_H_

#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "pqpage/encryption.h"
#include "pqpage/file.h"
#include "pqpage/read_chunks.h"
#include "pqpage/status_macros.h"

namespace pqpage::testing {

using Columns = std::map<std::string, std::string>;

template <typename T>
void AppendValueBytes(const T& value, std::string* out) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(value));
}
inline void AppendValueBytes(const ByteArray& value, std::string* out) {
  AppendValueBytes(value.size, out);
  out->append(reinterpret_cast<const char*>(value.data), value.size);
}

// Every column's levels and values, by column path.
inline absl::StatusOr<Columns> ReadAllColumns(const FileReader& file) {
  Columns columns;
  PQPAGE_RETURN_IF_ERROR(ReadChunks(
      file, ChunkSelection(),
      [](const SelectedChunk&, const ColumnChunkReader&) { return absl::OkStatus(); },
      [&](const SelectedChunk& chunk, const auto& batch, const BatchCounts& counts) {
        const ColumnDescriptor& column = file.schema().columns()[static_cast<size_t>(chunk.column)];
        std::string& out = columns[column.PathString()];
        for (int64_t i = 0; i < counts.levels; ++i) {
          if (column.max_definition_level > 0) AppendValueBytes(batch.definition_levels[i], &out);
          if (column.max_repetition_level > 0) AppendValueBytes(batch.repetition_levels[i], &out);
        }
        for (int64_t i = 0; i < counts.values; ++i) AppendValueBytes(batch.values[i], &out);
        return absl::OkStatus();
      }));
  return columns;
}

inline absl::StatusOr<Columns> OpenAndReadAllColumns(
    const std::string& path, std::shared_ptr<const FileDecryptionProperties> keys) {
  ReaderOptions options;
  options.decryption = std::move(keys);
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileReader> file, FileReader::Open(path, options));
  return ReadAllColumns(*file);
}

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_ENCRYPTION_TEST_HELPERS_H_
