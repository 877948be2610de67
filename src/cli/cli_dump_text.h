// The text pieces of `pqpage dump` (shared/DUMP_FORMAT.md) that every file format's dump uses:
// a buffer that spills to a temporary file (a column's levels come before its values in the
// output, so both are collected first, and a column can be larger than memory), lowercase hex of
// byte values, floats in shortest round-trip form, and comma-separated arrays.
#ifndef PQPAGE_CLI_CLI_DUMP_TEXT_H_
#define PQPAGE_CLI_CLI_DUMP_TEXT_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "pqpage/json_writer.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {

inline constexpr size_t kSpillThreshold = size_t{64} << 20;

// Text that is appended in order and read back once; kept in memory until it grows past the
// threshold, then in an anonymous temporary file.
class SpillBuffer {
 public:
  SpillBuffer() = default;
  SpillBuffer(const SpillBuffer&) = delete;
  SpillBuffer& operator=(const SpillBuffer&) = delete;
  ~SpillBuffer() {
    if (file_ != nullptr) std::fclose(file_);
  }

  std::string& text() { return text_; }

  absl::Status MaybeSpill() {
    if (text_.size() < kSpillThreshold) return absl::OkStatus();
    if (file_ == nullptr) {
      file_ = std::tmpfile();
      if (file_ == nullptr) {
        return absl::ResourceExhaustedError("cannot create a temporary file for the dump");
      }
    }
    if (std::fwrite(text_.data(), 1, text_.size(), file_) != text_.size()) {
      return absl::ResourceExhaustedError("cannot write the dump's temporary file");
    }
    text_.clear();
    return absl::OkStatus();
  }

  absl::Status CopyTo(FILE* out) {
    if (file_ != nullptr) {
      std::rewind(file_);
      char chunk[1 << 16];
      size_t got;
      while ((got = std::fread(chunk, 1, sizeof(chunk), file_)) > 0) {
        if (std::fwrite(chunk, 1, got, out) != got) return WriteError();
      }
    }
    if (!text_.empty() && std::fwrite(text_.data(), 1, text_.size(), out) != text_.size()) {
      return WriteError();
    }
    return absl::OkStatus();
  }

 private:
  static absl::Status WriteError() { return absl::UnavailableError("cannot write the output"); }

  std::string text_;
  FILE* file_ = nullptr;
};

// Hex of one value, spilling between slices: a single value can be a GiB.
inline absl::Status AppendHex(const uint8_t* data, size_t size, SpillBuffer* buffer) {
  static constexpr char kDigits[] = "0123456789abcdef";
  constexpr size_t kSlice = size_t{1} << 20;
  std::string& out = buffer->text();
  out.push_back('"');
  for (size_t begin = 0; begin < size; begin += kSlice) {
    const size_t end = std::min(size, begin + kSlice);
    const size_t at = out.size();
    out.resize(at + 2 * (end - begin));
    char* next = out.data() + at;
    for (size_t i = begin; i < end; ++i) {
      *next++ = kDigits[data[i] >> 4];
      *next++ = kDigits[data[i] & 15];
    }
    PQPAGE_RETURN_IF_ERROR(buffer->MaybeSpill());
  }
  out.push_back('"');
  return absl::OkStatus();
}

// A FLOAT is printed as the float it is (0.1, not 0.10000000149011612); -0.0 keeps its sign;
// non-finite values are the strings DUMP_FORMAT.md names.
template <typename F>
inline void AppendFloat(F value, std::string* out) {
  const std::string text = FormatFloat(value);
  if (std::isfinite(value)) {
    out->append(text);
  } else {
    absl::StrAppend(out, "\"", text, "\"");
  }
}

// Separates array elements: nothing before the first, a comma before each later one.
class ArrayWriter {
 public:
  explicit ArrayWriter(SpillBuffer* buffer) : buffer_(buffer) {}
  std::string& Next() {
    if (!first_) buffer_->text().push_back(',');
    first_ = false;
    return buffer_->text();
  }

 private:
  SpillBuffer* buffer_;
  bool first_ = true;
};

// `text` as a quoted JSON string: quotes, backslashes and control characters escaped (bytes are
// otherwise kept as they are, as the Parquet dump prints its paths).
inline std::string JsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20 || byte == 0x7f) {
      out += absl::StrFormat("\\u%04x", byte);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_DUMP_TEXT_H_
