// The library's JSON reports as a binding sees them: the JSON writer's escaping and layout, the
// value text they show ids and bounds with, and the documents of `pqpage inspect --json`
// (InspectJson, WriteInspectJson) and `pqpage advise --json` (AdviceJson) on a file written here,
// read back by a strict JSON parser.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "pqpage/advise.h"
#include "pqpage/advise_json.h"
#include "pqpage/compression.h"
#include "pqpage/inspect.h"
#include "pqpage/inspect_json.h"
#include "pqpage/json_writer.h"
#include "pqpage/value_text.h"
#include "recode_sample_file.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

// A JSON value as RFC 8259 has them, for checking documents: objects keep their members' order.
struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<JsonValue> items;
  // An object's members as two lists, names and values in step: a pair holding JsonValue would
  // need the type complete here (libstdc++ checks it under clang).
  std::vector<std::string> member_names;
  std::vector<JsonValue> member_values;

  const JsonValue* Find(std::string_view key) const {
    for (size_t i = 0; i < member_names.size(); ++i) {
      if (member_names[i] == key) return &member_values[i];
    }
    return nullptr;
  }
  std::vector<std::string> Keys() const { return member_names; }
};

// A strict parser: no trailing commas, no NaN, nothing after the value but white space.
class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  std::optional<JsonValue> ParseDocument() {
    JsonValue value;
    if (!ParseValue(&value, 0)) return std::nullopt;
    SkipSpace();
    if (at_ != text_.size()) return std::nullopt;
    return value;
  }

 private:
  void SkipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r')) {
      ++at_;
    }
  }
  bool Literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  bool ParseValue(JsonValue* out, int depth) {
    if (depth > 64) return false;
    SkipSpace();
    if (at_ >= text_.size()) return false;
    const char c = text_[at_];
    if (c == '{') return ParseObject(out, depth);
    if (c == '[') return ParseArray(out, depth);
    if (c == '"') {
      out->kind = JsonValue::Kind::kString;
      return ParseString(&out->text);
    }
    for (const bool truth : {true, false}) {
      if (Literal(truth ? "true" : "false")) {
        out->kind = JsonValue::Kind::kBool;
        out->boolean = truth;
        return true;
      }
    }
    if (Literal("null")) return true;
    return ParseNumber(out);
  }

  bool ParseNumber(JsonValue* out) {
    const size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    const size_t digits = at_;
    while (at_ < text_.size() &&
           std::string_view("0123456789.eE+-").find(text_[at_]) != std::string_view::npos) {
      ++at_;
    }
    if (at_ == digits || text_[digits] < '0' || text_[digits] > '9') return false;
    const std::string number(text_.substr(start, at_ - start));
    char* end = nullptr;
    out->kind = JsonValue::Kind::kNumber;
    out->number = std::strtod(number.c_str(), &end);
    return end == number.c_str() + number.size();
  }

  bool ParseString(std::string* out) {
    ++at_;  // the opening quote
    while (at_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[at_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') {
        out->push_back(static_cast<char>(c));
        continue;
      }
      if (at_ >= text_.size()) return false;
      const char escape = text_[at_++];
      switch (escape) {
        case '"':
        case '\\':
        case '/':
          out->push_back(escape);
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'u': {
          // Checked, and kept as a marker: the tests only look at which escapes were written.
          if (at_ + 4 > text_.size()) return false;
          const std::string_view hex = text_.substr(at_, 4);
          if (hex.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
            return false;
          }
          out->append("<U+").append(hex).append(">");
          at_ += 4;
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  bool ParseArray(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::kArray;
    ++at_;
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
    while (true) {
      JsonValue item;
      if (!ParseValue(&item, depth + 1)) return false;
      out->items.push_back(std::move(item));
      SkipSpace();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == ']') return ++at_, true;
      if (text_[at_++] != ',') return false;
    }
  }

  bool ParseObject(JsonValue* out, int depth) {
    out->kind = JsonValue::Kind::kObject;
    ++at_;
    SkipSpace();
    if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
    while (true) {
      SkipSpace();
      std::string key;
      if (at_ >= text_.size() || text_[at_] != '"' || !ParseString(&key)) return false;
      SkipSpace();
      if (at_ >= text_.size() || text_[at_++] != ':') return false;
      JsonValue value;
      if (!ParseValue(&value, depth + 1)) return false;
      out->member_names.push_back(std::move(key));
      out->member_values.push_back(std::move(value));
      SkipSpace();
      if (at_ >= text_.size()) return false;
      if (text_[at_] == '}') return ++at_, true;
      if (text_[at_++] != ',') return false;
    }
  }

  std::string_view text_;
  size_t at_ = 0;
};

std::optional<JsonValue> ParseJson(std::string_view text) {
  return JsonParser(text).ParseDocument();
}

TEST(JsonWriterTest, LayoutEscapesAndNumbers) {
  JsonWriter json;
  json.BeginObject();
  json.StringMember("text", "a\"b\\c\n\x01\xff\xc3\xa9");
  json.IntMember("int", -42);
  json.Key("floats");
  json.BeginArray(/*single_line=*/true);
  json.Float(0.1f);
  json.Float(2.0);
  json.Float(std::nan(""));
  json.Float(-HUGE_VAL);
  json.EndArray();
  json.BoolMember("yes", true);
  json.Key("nothing");
  json.Null();
  json.StringArrayMember("empty", std::vector<std::string>{});
  json.EndObject();
  json.Newline();
  EXPECT_EQ(json.TakeOutput(),
            "{\n"
            "  \"text\": \"a\\\"b\\\\c\\n\\u0001\\ufffd\xc3\xa9\",\n"
            "  \"int\": -42,\n"
            "  \"floats\": [0.1, 2.0, \"NaN\", \"-Infinity\"],\n"
            "  \"yes\": true,\n"
            "  \"nothing\": null,\n"
            "  \"empty\": []\n"
            "}\n");
  EXPECT_EQ(json.TakeOutput(), "");
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatFloat(-0.0), "-0.0");
  EXPECT_EQ(FormatFloat(1e300), "1e+300");
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82\xac", 0), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xc0\x80", 0), 0u);      // overlong
  EXPECT_EQ(Utf8SequenceLength("\xed\xa0\x80", 0), 0u);  // a surrogate
}

TEST(ValueTextTest, IdsTextAndBounds) {
  EXPECT_EQ(EncodingIdName(0), "PLAIN");
  EXPECT_EQ(EncodingIdName(99), "UNKNOWN(99)");
  EXPECT_EQ(PageTypeIdName(2), "DICTIONARY_PAGE");
  EXPECT_EQ(PageTypeIdName(-1), "UNKNOWN(-1)");
  EXPECT_EQ(CodecIdName(7), "LZ4_RAW");
  EXPECT_EQ(CodecIdName(8), "UNKNOWN(8)");
  EXPECT_EQ(Printable("ok\t\xff"), "ok\\x09\\xff");
  const std::string six("\x06\0\0\0", 4);
  EXPECT_EQ(FormatBoundText(PhysicalType::kInt32, six), "6");
  EXPECT_EQ(FormatBoundText(PhysicalType::kByteArray, "Oslo"), "\"Oslo\"");
  EXPECT_EQ(FormatBoundText(PhysicalType::kByteArray, "\x01\x02"), "0x0102");
  Statistics stats;
  stats.min_value = six;
  stats.null_count = 0;
  EXPECT_EQ(FormatStatisticsText(PhysicalType::kInt32, stats), "min 6, null_count 0");
  EXPECT_EQ(FormatStatisticsText(PhysicalType::kInt32, Statistics{}), "(empty)");
  JsonWriter json;
  WriteStatisticsJson(json, PhysicalType::kInt32, stats);
  EXPECT_EQ(json.TakeOutput(), "{\"min_value\": 6, \"null_count\": 0}");
  WriteBoundJson(json, PhysicalType::kInt64, six);  // too short for an INT64: hex
  EXPECT_EQ(json.TakeOutput(), "\"06000000\"");
}

using InspectJsonTest = testing::SampleFileTest;

TEST_F(InspectJsonTest, DocumentParsesWithTheToolsMembers) {
  InspectJsonOptions options;
  options.file_name = "sample \"name\".parquet";
  options.threads = 3;
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::string document, InspectJson(*input_, options));
  ASSERT_FALSE(document.empty());
  EXPECT_EQ(document.back(), '\n');
  const std::optional<JsonValue> parsed = ParseJson(document);
  ASSERT_TRUE(parsed.has_value()) << document;
  ASSERT_EQ(parsed->kind, JsonValue::Kind::kObject);
  EXPECT_EQ(parsed->Keys(),
            (std::vector<std::string>{"file", "file_size", "footer_size", "created_by", "version",
                                      "num_rows", "num_row_groups", "key_value_metadata", "columns",
                                      "empty_groups", "row_groups", "problems"}));
  EXPECT_EQ(parsed->Find("file")->text, options.file_name);
  EXPECT_EQ(parsed->Find("num_rows")->number, 2 * testing::kSampleRowsPerGroup);
  EXPECT_EQ(parsed->Find("problems")->number, 0);
  EXPECT_EQ(parsed->Find("columns")->items.size(), 5u);
  const JsonValue& row_groups = *parsed->Find("row_groups");
  ASSERT_EQ(row_groups.items.size(), 2u);
  for (const JsonValue& row_group : row_groups.items) {
    const JsonValue& chunks = *row_group.Find("columns");
    ASSERT_EQ(chunks.items.size(), 5u);
    for (const JsonValue& chunk : chunks.items) {
      ASSERT_NE(chunk.Find("pages"), nullptr);
      EXPECT_FALSE(chunk.Find("pages")->items.empty());
      EXPECT_NE(chunk.Find("page_encoding_summary"), nullptr);
      EXPECT_NE(chunk.Find("page_index"), nullptr);
    }
  }

  // Streamed, the same document arrives in several pieces, and the problems are counted.
  std::string streamed;
  int pieces = 0;
  int64_t problems = -1;
  PQPAGE_ASSERT_OK(WriteInspectJson(
      *input_, options,
      [&](std::string_view piece) {
        streamed.append(piece);
        ++pieces;
        return absl::OkStatus();
      },
      &problems));
  EXPECT_EQ(streamed, document);
  EXPECT_GT(pieces, 1);
  EXPECT_EQ(problems, 0);
}

TEST_F(InspectJsonTest, TheSinksErrorStopsTheDocument) {
  int pieces = 0;
  const absl::Status written =
      WriteInspectJson(*input_, InspectJsonOptions{}, [&](std::string_view) {
        ++pieces;
        return absl::UnavailableError("disk full");
      });
  EXPECT_EQ(written, absl::UnavailableError("disk full"));
  EXPECT_EQ(pieces, 1);
}

TEST_F(InspectJsonTest, ADamagedChunkCountsAsAProblem) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(ColumnChunkLocation chunk, input_->LocateColumnChunk(1, 2));
  const std::string damaged = testing::TestTempPath("damaged.parquet");
  PQPAGE_ASSERT_OK(testing::WriteDamagedCopy(in_path_, chunk, damaged));
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::unique_ptr<FileReader> file, FileReader::Open(damaged));
  int64_t problems = 0;
  std::string document;
  PQPAGE_ASSERT_OK(WriteInspectJson(
      *file, InspectJsonOptions{},
      [&](std::string_view piece) {
        document.append(piece);
        return absl::OkStatus();
      },
      &problems));
  std::remove(damaged.c_str());
  EXPECT_GT(problems, 0);
  const std::optional<JsonValue> parsed = ParseJson(document);
  ASSERT_TRUE(parsed.has_value()) << document;
  EXPECT_EQ(parsed->Find("problems")->number, static_cast<double>(problems));
}

using AdviceJsonTest = testing::SampleFileTest;

TEST_F(AdviceJsonTest, DocumentParsesWithTheToolsMembersAndCommand) {
  AdviseOptions advise;
  advise.column = "id";
  advise.data_page_version = 2;
  PQPAGE_ASSERT_OK_AND_ASSIGN(FileAdvice advice, Advise(*input_, advise));
  AdviceJsonOptions options;
  options.file_name = "my file.parquet";
  const std::string document = AdviceJson(advice, options);
  ASSERT_FALSE(document.empty());
  EXPECT_EQ(document.back(), '\n');
  const std::optional<JsonValue> parsed = ParseJson(document);
  ASSERT_TRUE(parsed.has_value()) << document;
  EXPECT_EQ(parsed->Keys(),
            (std::vector<std::string>{"file", "page_version", "columns", "current_bytes",
                                      "advised_bytes", "command"}));
  EXPECT_EQ(parsed->Find("file")->text, "my file.parquet");
  EXPECT_EQ(parsed->Find("page_version")->number, 2);
  EXPECT_EQ(parsed->Find("advised_bytes")->number, static_cast<double>(advice.advised_bytes()));
  const std::string command = AdvisedRecodeCommand(options.file_name, advice);
  EXPECT_EQ(parsed->Find("command")->text, command);
  EXPECT_EQ(command.rfind("pqpage recode 'my file.parquet' OUT.parquet --page-version 2 ", 0), 0u)
      << command;
  ASSERT_EQ(parsed->Find("columns")->items.size(), 1u);
  const JsonValue& column = parsed->Find("columns")->items[0];
  EXPECT_EQ(column.Find("path")->text, "id");
  EXPECT_EQ(column.Find("candidates")->items.size(), AdvisedPolicies().size());
  EXPECT_EQ(column.Find("advised")->text, EncodingPolicyName(advice.columns[0].advised().policy));
  EXPECT_EQ(column.Find("chunks"), nullptr);

  options.chunks = true;
  const std::optional<JsonValue> with_chunks = ParseJson(AdviceJson(advice, options));
  ASSERT_TRUE(with_chunks.has_value());
  const JsonValue* chunks = with_chunks->Find("columns")->items[0].Find("chunks");
  ASSERT_NE(chunks, nullptr);
  EXPECT_EQ(chunks->items.size(), 2u);

  EXPECT_EQ(SizeRatio(50, 200), 0.25);
  EXPECT_EQ(SizeRatio(50, 0), 0.0);
}

TEST(AdviceJsonEmptyTest, NoColumnsMeansNoCommand) {
  const std::optional<JsonValue> parsed = ParseJson(AdviceJson(FileAdvice{}, {}));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->Find("command")->kind, JsonValue::Kind::kNull);
  EXPECT_TRUE(parsed->Find("columns")->items.empty());
}

}  // namespace
}  // namespace pqpage
