// Progress of a long command (scan, recode) as one line on stderr that rewrites itself with '\r':
// which row group and column is being worked on and the share of the file's column chunk bytes
// done. Shown only when stderr is a terminal, so logs, pipes, tests and CI see nothing; the
// environment variable PQPAGE_PROGRESS=1 forces it on, PQPAGE_PROGRESS=0 off.
#ifndef PQPAGE_CLI_CLI_PROGRESS_H_
#define PQPAGE_CLI_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "pqpage/file.h"

namespace pqpage::cli {

class Progress {
 public:
  // `label` starts the line ("scan", "recode").
  explicit Progress(std::string label);
  // Clears the line if it is still shown.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }

  // Redraws the line from a library pass's report (which carries its own total), at most every
  // 100 ms (a terminal is slower than the decoder). Row group and column are 0-based; the line
  // shows them 1-based.
  void Show(const FileProgress& at);

  // Erases the line, so that what the command prints next starts on a clean line.
  void Clear();

 private:
  bool enabled_ = false;
  std::string label_;
  int64_t total_bytes_ = 0;
  size_t shown_width_ = 0;  // characters of the line currently on the terminal
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_PROGRESS_H_
