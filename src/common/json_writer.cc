#include "pqpage/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace pqpage {
namespace {

template <typename F>
std::string ShortestForm(F value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  if (error != std::errc()) return "?";
  std::string out(buffer, end);
  if (out.find_first_of(".en") == std::string::npos) out += ".0";
  return out;
}

}  // namespace

size_t Utf8SequenceLength(std::string_view text, size_t i) {
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

std::string FormatFloat(float value) { return ShortestForm(value); }
std::string FormatFloat(double value) { return ShortestForm(value); }

void JsonWriter::Key(std::string_view key) {
  BeforeValue();
  AppendString(key);
  out_ += ": ";
  after_key_ = true;
}

void JsonWriter::String(std::string_view text) {
  BeforeValue();
  AppendString(text);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  absl::StrAppend(&out_, value);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
}

void JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
}

template <typename F>
void JsonWriter::AppendFloat(F value) {
  if (!std::isfinite(value)) {
    String(FormatFloat(value));
    return;
  }
  BeforeValue();
  out_ += FormatFloat(value);
}

void JsonWriter::Float(float value) { AppendFloat(value); }
void JsonWriter::Float(double value) { AppendFloat(value); }

std::string JsonWriter::TakeOutput() {
  std::string taken = std::move(out_);
  out_.clear();
  return taken;
}

bool JsonWriter::FlushTo(FILE* file) {
  const bool ok = std::fwrite(out_.data(), 1, out_.size(), file) == out_.size();
  out_.clear();
  return ok;
}

void JsonWriter::Open(char bracket, bool single_line) {
  BeforeValue();
  out_ += bracket;
  const bool parent_single = !levels_.empty() && levels_.back().single_line;
  levels_.push_back({single_line || parent_single, true});
}

void JsonWriter::Close(char bracket) {
  const Level level = levels_.back();
  levels_.pop_back();
  if (!level.single_line && !level.empty) {
    out_ += '\n';
    out_.append(2 * levels_.size(), ' ');
  }
  out_ += bracket;
}

void JsonWriter::BeforeValue() {
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

// Bytes that are not valid UTF-8 become U+FFFD, so that any JSON reader accepts the document
// whatever bytes the file holds.
void JsonWriter::AppendString(std::string_view text) {
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

}  // namespace pqpage
