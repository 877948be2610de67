#include "cli/cli_progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_format.h"

namespace pqpage::cli {
namespace {

bool ProgressWanted() {
  if (const char* forced = std::getenv("PQPAGE_PROGRESS"); forced != nullptr && *forced != '\0') {
    return std::strcmp(forced, "0") != 0;
  }
  return isatty(STDERR_FILENO) == 1;
}

constexpr std::chrono::milliseconds kRedrawInterval(100);

}  // namespace

Progress::Progress(std::string label) : enabled_(ProgressWanted()), label_(std::move(label)) {}

Progress::~Progress() { Clear(); }

void Progress::Show(const FileProgress& at) {
  if (!enabled_) return;
  total_bytes_ = at.total_bytes;
  const int row_group = at.row_group;
  const int num_row_groups = at.num_row_groups;
  const int column = at.column;
  const int num_columns = at.num_columns;
  const int64_t bytes_done = at.bytes_done;
  const auto now = std::chrono::steady_clock::now();
  if (shown_width_ > 0 && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  double percent = total_bytes_ > 0
                       ? 100.0 * static_cast<double>(bytes_done) / static_cast<double>(total_bytes_)
                       : 0.0;
  if (percent > 100.0) percent = 100.0;
  std::string line =
      absl::StrFormat("%s: row group %d/%d, column %d/%d, %5.1f%%", label_, row_group + 1,
                      num_row_groups, column + 1, num_columns, percent);
  // Pad over what the previous, possibly longer, line left behind.
  const size_t width = line.size();
  if (width < shown_width_) line.append(shown_width_ - width, ' ');
  std::fprintf(stderr, "\r%s", line.c_str());
  std::fflush(stderr);
  shown_width_ = width;
}

void Progress::Clear() {
  if (!enabled_ || shown_width_ == 0) return;
  std::fprintf(stderr, "\r%s\r", std::string(shown_width_, ' ').c_str());
  std::fflush(stderr);
  shown_width_ = 0;
}

}  // namespace pqpage::cli
