// Choosing and opening the chunks ReadChunks (pqpage/read_chunks.h) reads; the reading itself is
// in the header, typed by each column's value type.
#include "pqpage/read_chunks.h"

#include <cstddef>
#include <vector>

#include "absl/strings/str_cat.h"

namespace pqpage {

absl::StatusOr<std::vector<SelectedChunk>> SelectChunks(const FileReader& file,
                                                        const ChunkSelection& selection) {
  const size_t num_columns = file.schema().columns().size();
  std::vector<int> columns = selection.columns;
  if (columns.empty()) {
    for (size_t c = 0; c < num_columns; ++c) columns.push_back(static_cast<int>(c));
  }
  for (const int column : columns) {
    if (column < 0 || static_cast<size_t>(column) >= num_columns) {
      return absl::InvalidArgumentError(absl::StrCat(file.name(), ": no leaf column ", column,
                                                     " (the schema has ", num_columns, ")"));
    }
  }
  std::vector<std::optional<RowRange>> rows;
  if (selection.rows) rows = RowsPerRowGroup(file, *selection.rows);
  std::vector<SelectedChunk> chunks;
  for (int group = 0; group < file.num_row_groups(); ++group) {
    SelectedChunk chunk;
    chunk.row_group = group;
    if (selection.rows) {
      chunk.rows = rows[static_cast<size_t>(group)];
      if (!chunk.rows) continue;  // the selected rows do not reach this group
    }
    for (const int column : columns) {
      chunk.column = column;
      chunks.push_back(chunk);
    }
  }
  return chunks;
}

absl::StatusOr<ColumnChunkReader> OpenSelectedChunk(
    const FileReader& file, const SelectedChunk& chunk,
    const std::function<void(const std::string&)>& on_warning) {
  if (chunk.rows) {
    return OpenColumnChunkRows(file, chunk.row_group, chunk.column, *chunk.rows, on_warning);
  }
  return file.OpenColumnChunk(chunk.row_group, chunk.column);
}

}  // namespace pqpage
