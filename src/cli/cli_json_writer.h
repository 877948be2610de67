// A streaming JSON writer for the tool's machine-readable output (`pqpage inspect --json`):
// objects, arrays, strings escaped so that python's json reads them, numbers as numbers.
#ifndef PQPAGE_CLI_CLI_JSON_WRITER_H_
#define PQPAGE_CLI_CLI_JSON_WRITER_H_

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pqpage::cli {

// Length of the valid UTF-8 sequence starting at text[i], or 0 if the bytes there are not one
// (overlong forms, surrogates and values past U+10FFFF included).
inline size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length = 0;
  uint32_t code = 0;
  uint32_t min_code = 0;
  if ((lead & 0xe0) == 0xc0) {
    length = 2, code = lead & 0x1f, min_code = 0x80;
  } else if ((lead & 0xf0) == 0xe0) {
    length = 3, code = lead & 0x0f, min_code = 0x800;
  } else if ((lead & 0xf8) == 0xf0) {
    length = 4, code = lead & 0x07, min_code = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3f);
  }
  if (code < min_code || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

// The shortest decimal form that reads back as the same value, always with a '.' or exponent
// so it is seen as floating point; non-finite values as the strings JSON readers accept.
template <typename F>
inline std::string FormatFloat(F value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "?";
  std::string out(buffer, end);
  if (out.find_first_of(".en") == std::string::npos) out += ".0";
  return out;
}

// A streaming JSON writer. Containers opened "inline" (and everything inside them) print on one
// line, which keeps one page per line; the others put each member on its own indented line.
class JsonWriter {
 public:
  void BeginObject(bool single_line = false) { Open('{', single_line); }
  void EndObject() { Close('}'); }
  void BeginArray(bool single_line = false) { Open('[', single_line); }
  void EndArray() { Close(']'); }

  void Key(std::string_view key) {
    BeforeValue();
    AppendString(key);
    out_ += ": ";
    after_key_ = true;
  }
  void String(std::string_view text) {
    BeforeValue();
    AppendString(text);
  }
  void Int(int64_t value) {
    BeforeValue();
    out_ += absl::StrCat(value);
  }
  void Bool(bool value) {
    BeforeValue();
    out_ += value ? "true" : "false";
  }
  void Null() {
    BeforeValue();
    out_ += "null";
  }
  // A number already formatted, or a string for non-finite values.
  template <typename F>
  void Float(F value) {
    if (!std::isfinite(value)) {
      String(FormatFloat(value));
      return;
    }
    BeforeValue();
    out_ += FormatFloat(value);
  }

  // A member of the enclosing object, key and value in one call.
  void IntMember(std::string_view key, int64_t value) {
    Key(key);
    Int(value);
  }
  void StringMember(std::string_view key, std::string_view text) {
    Key(key);
    String(text);
  }
  void BoolMember(std::string_view key, bool value) {
    Key(key);
    Bool(value);
  }
  // A member whose value is an array of strings; `single_line` as for BeginArray.
  template <typename Strings>
  void StringArrayMember(std::string_view key, const Strings& texts, bool single_line = false) {
    Key(key);
    BeginArray(single_line);
    for (const auto& text : texts) String(text);
    EndArray();
  }

  // Writes what was produced so far to `file`; false on a write error.
  bool FlushTo(FILE* file) {
    const bool ok = std::fwrite(out_.data(), 1, out_.size(), file) == out_.size();
    out_.clear();
    return ok;
  }
  void Newline() { out_ += '\n'; }

 private:
  struct Level {
    bool single_line;
    bool empty;
  };

  void Open(char bracket, bool single_line) {
    BeforeValue();
    out_ += bracket;
    const bool parent_single = !levels_.empty() && levels_.back().single_line;
    levels_.push_back({single_line || parent_single, true});
  }

  void Close(char bracket) {
    const Level level = levels_.back();
    levels_.pop_back();
    if (!level.single_line && !level.empty) {
      out_ += '\n';
      out_.append(2 * levels_.size(), ' ');
    }
    out_ += bracket;
  }

  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (levels_.empty()) return;
    Level& level = levels_.back();
    if (!level.empty) out_ += level.single_line ? ", " : ",";
    if (!level.single_line) {
      out_ += '\n';
      out_.append(2 * levels_.size(), ' ');
    }
    level.empty = false;
  }

  // Escapes as JSON requires; bytes that are not valid UTF-8 become U+FFFD, so that any JSON
  // reader accepts the document whatever bytes the file holds.
  void AppendString(std::string_view text) {
    out_ += '"';
    for (size_t i = 0; i < text.size();) {
      const auto byte = static_cast<unsigned char>(text[i]);
      const size_t length = Utf8SequenceLength(text, i);
      if (length == 0) {
        out_ += "\\ufffd";
        ++i;
        continue;
      }
      if (length > 1) {
        out_.append(text.substr(i, length));
        i += length;
        continue;
      }
      switch (byte) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default:
          if (byte < 0x20 || byte == 0x7f) {
            out_ += absl::StrFormat("\\u%04x", byte);
          } else {
            out_ += static_cast<char>(byte);
          }
      }
      ++i;
    }
    out_ += '"';
  }

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_JSON_WRITER_H_
