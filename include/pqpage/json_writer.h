// A small streaming JSON writer for pqpage's reports: the documents of `pqpage inspect --json`
// (pqpage/inspect_json.h) and `pqpage advise --json` (pqpage/advise_json.h), and the tool's other
// JSON. It writes objects, arrays, strings escaped so that any JSON reader takes them (bytes that
// are not UTF-8 included) and numbers as numbers, into a buffer the caller drains piece by piece,
// so that a long document need not be held whole. It checks nothing: the caller opens and closes
// containers in order and gives an object's members a key each.
#ifndef PQPAGE_JSON_WRITER_H_
#define PQPAGE_JSON_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pqpage {

// @return the length of the valid UTF-8 sequence starting at text[i] (i < text.size()), or 0 if
// the bytes there are not one (overlong forms, surrogates and values past U+10FFFF included).
size_t Utf8SequenceLength(std::string_view text, size_t i);

// A float or double in the shortest decimal form that reads back as the same value, always with a
// '.' or an exponent so that it reads as floating point (0.1, not 0.10000000149011612, for a
// float; -0.0 keeps its sign).
// @return that form; "NaN", "Infinity" or "-Infinity" for the non-finite values (the strings JSON
// readers such as Python's accept).
std::string FormatFloat(float value);
std::string FormatFloat(double value);

// Containers opened "single line" (and everything inside them) print on one line, which keeps,
// say, one page per line; the others put each member on its own line, indented two spaces a
// level. Nothing is written after the last closing bracket: Newline() ends a document.
class JsonWriter {
 public:
  void BeginObject(bool single_line = false) { Open('{', single_line); }
  void EndObject() { Close('}'); }
  void BeginArray(bool single_line = false) { Open('[', single_line); }
  void EndArray() { Close(']'); }

  // An object member's key; its value comes next.
  void Key(std::string_view key);
  void String(std::string_view text);
  void Int(int64_t value);
  void Bool(bool value);
  void Null();
  // A number as FormatFloat writes it; the non-finite values as strings (JSON has no number for
  // them).
  void Float(float value);
  void Float(double value);

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

  // Ends a line (after the document, say).
  void Newline() { out_ += '\n'; }

  // Hands over what was produced since the last FlushTo or TakeOutput, which the writer then
  // forgets; the document goes on where it stopped.
  // @return that text.
  std::string TakeOutput();
  // TakeOutput written to `file`.
  // @return false on a write error.
  bool FlushTo(FILE* file);

 private:
  struct Level {
    bool single_line;
    bool empty;
  };

  void Open(char bracket, bool single_line);
  void Close(char bracket);
  // The separator and line break before a value, or nothing after a key.
  void BeforeValue();
  // `text` as a JSON string, quoted and escaped.
  void AppendString(std::string_view text);
  template <typename F>
  void AppendFloat(F value);

  std::string out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace pqpage

#endif  // PQPAGE_JSON_WRITER_H_
