// A text table for the tool's terminal output: rows printed as aligned columns, numbers right-
// aligned, notes on their own lines under their row.
#ifndef PQPAGE_CLI_CLI_TEXT_TABLE_H_
#define PQPAGE_CLI_CLI_TEXT_TABLE_H_

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace pqpage::cli {

// Prints rows as aligned columns; columns holding numbers are right-aligned (with their "-" and
// "?" placeholders). Notes (a page's statistics or error) go on their own lines under their row.
class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back({std::move(header), {}}); }
  void AddRow(std::vector<std::string> cells) { rows_.push_back({std::move(cells), {}}); }
  void AddNote(std::string note) { rows_.back().notes.push_back(std::move(note)); }

  void Print(FILE* out, int indent) const {
    std::vector<size_t> widths;
    std::vector<bool> numeric;
    for (size_t r = 0; r < rows_.size(); ++r) {
      const Row& row = rows_[r];
      if (widths.size() < row.cells.size()) {
        widths.resize(row.cells.size(), 0);
        numeric.resize(row.cells.size(), false);
      }
      for (size_t i = 0; i < row.cells.size(); ++i) {
        widths[i] = std::max(widths[i], row.cells[i].size());
        if (r > 0 && IsNumber(row.cells[i])) numeric[i] = true;
      }
    }
    for (const Row& row : rows_) {
      std::string line(indent, ' ');
      for (size_t i = 0; i < row.cells.size(); ++i) {
        const std::string& cell = row.cells[i];
        const size_t pad = widths[i] - cell.size();
        const bool last = i + 1 == row.cells.size();
        if (numeric[i]) {
          line.append(pad, ' ');
          line += cell;
        } else {
          line += cell;
          if (!last) line.append(pad, ' ');
        }
        if (!last) line += "  ";
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      std::fprintf(out, "%s\n", line.c_str());
      for (const std::string& note : row.notes) {
        std::fprintf(out, "%*s%s\n", indent + 4, "", note.c_str());
      }
    }
  }

 private:
  struct Row {
    std::vector<std::string> cells;
    std::vector<std::string> notes;
  };
  // Numbers, and "?" (a count that is not known).
  static bool IsNumber(const std::string& cell) {
    if (cell == "?") return true;
    return !cell.empty() && cell != "-" && std::all_of(cell.begin(), cell.end(), [](char c) {
      return (c >= '0' && c <= '9') || c == '-';
    });
  }
  std::vector<Row> rows_;
};

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_TEXT_TABLE_H_
