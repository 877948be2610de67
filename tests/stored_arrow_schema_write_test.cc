// file/stored_arrow_schema_write.h: every format string ParseStoredArrowSchema produces written and
// parsed back to the same tree; pyarrow's own schemas parsed, written and parsed back; what the
// parser could not give back refused with InvalidArgument; and the FlatBuffer laid out as Arrow
// C++'s verifier wants it (forward offsets, every scalar aligned to its size).
#include "file/stored_arrow_schema_write.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "arrow_schema_sample.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/arrow_schema.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

StoredArrowField F(std::string name, std::string format,
                   std::vector<StoredArrowField> children = {}, bool nullable = true) {
  StoredArrowField field;
  field.name = std::move(name);
  field.format = std::move(format);
  field.children = std::move(children);
  field.nullable = nullable;
  return field;
}

StoredArrowField Dict(std::string name, std::string value_format, std::string index, bool ordered) {
  StoredArrowField field = F(std::move(name), std::move(value_format));
  field.dictionary_index = std::move(index);
  field.dictionary_ordered = ordered;
  return field;
}

StoredArrowField Map(std::string name, StoredArrowField key, StoredArrowField value, bool sorted) {
  StoredArrowField field =
      F(std::move(name), "+m", {F("entries", "+s", {std::move(key), std::move(value)}, false)});
  field.map_keys_sorted = sorted;
  return field;
}

// Every format string the parser documents, nested and flagged every way it reads.
std::vector<StoredArrowField> EveryFormat() {
  std::vector<StoredArrowField> fields;
  for (const char* format :
       {"n",          "b",         "c",      "C",    "s",    "S",       "i",
        "I",          "l",         "L",      "e",    "f",    "g",       "z",
        "Z",          "vz",        "u",      "U",    "vu",   "d:38,10", "d:76,-3,256",
        "d:9,2,32",   "d:18,0,64", "d:1,-5", "w:16", "w:0",  "tdD",     "tdm",
        "tts",        "ttm",       "ttu",    "ttn",  "tss:", "tsm:UTC", "tsu:Europe/Paris",
        "tsn:+07:30", "tsu:",      "tDs",    "tDm",  "tDu",  "tDn",     "tiM",
        "tiD",        "tin"}) {
    fields.push_back(F(absl::StrCat("f_", format), format));
  }
  fields.push_back(F("not_null", "l", {}, false));
  fields.push_back(F("", "u"));  // names may be empty
  fields.push_back(F("list", "+l", {F("item", "i")}));
  fields.push_back(F("large_list", "+L", {F("item", "u", {}, false)}));
  fields.push_back(F("list_view", "+vl", {F("item", "g")}));
  fields.push_back(F("large_list_view", "+vL", {F("item", "vu")}));
  fields.push_back(F("fixed_list", "+w:3", {F("item", "f")}));
  fields.push_back(F("empty_struct", "+s"));
  fields.push_back(F("struct", "+s", {F("a", "i", {}, false), F("b", "+l", {F("x", "tsn:UTC")})}));
  fields.push_back(Map("map", F("key", "u", {}, false), F("value", "l"), false));
  fields.push_back(
      Map("sorted_map", F("key", "i", {}, false), Dict("value", "u", "s", true), true));
  fields.push_back(F("dense", "+ud:0,5,127", {F("a", "i"), F("b", "u"), F("c", "n")}));
  fields.push_back(F("sparse", "+us:0,1", {F("a", "g"), F("b", "vz")}));
  fields.push_back(F("empty_union", "+us:"));
  fields.push_back(F("ree", "+r", {F("run_ends", "i", {}, false), F("values", "u")}));
  bool ordered = false;
  for (const char* index : {"c", "C", "s", "S", "i", "I", "l", "L"}) {
    fields.push_back(Dict(absl::StrCat("dict_", index), "u", index, ordered));
    ordered = !ordered;
  }
  fields.push_back(Dict("dict_of_decimals", "d:20,4", "i", false));
  fields.push_back(F("list_of_dict", "+l", {Dict("item", "U", "l", true)}));
  StoredArrowField with_metadata = F("with_metadata", "+s", {F("inner", "i")});
  with_metadata.metadata = {{"k", "v"}, {"unit", "m"}, {"", ""}, {"k", "again"}};
  with_metadata.children[0].metadata = {{"PARQUET:field_id", "7"}};
  fields.push_back(with_metadata);
  return fields;
}

std::vector<StoredArrowField> Parse(const std::string& base64) {
  auto parsed = ParseStoredArrowSchema({{kArrowSchemaKey, base64}});
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || !parsed->has_value()) return {};
  return **std::move(parsed);
}

TEST(SerializeStoredArrowSchemaTest, EveryFormatRoundTrips) {
  const std::vector<StoredArrowField> fields = EveryFormat();
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string written,
                              SerializeStoredArrowSchema(fields, {{"schema_key", "value"}}));
  const std::vector<StoredArrowField> parsed = Parse(written);
  ASSERT_EQ(parsed.size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) EXPECT_EQ(parsed[i], fields[i]) << fields[i].name;
}

TEST(SerializeStoredArrowSchemaTest, NoFieldsRoundTrips) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string written, SerializeStoredArrowSchema({}));
  EXPECT_TRUE(Parse(written).empty());
}

TEST(SerializeStoredArrowSchemaTest, PyarrowSchemasRoundTrip) {
  for (const char* sample : {testing::kArrowSchemaSample, testing::kArrowSchemaManyTypes,
                             testing::kArrowSchemaMoreTypes}) {
    const std::vector<StoredArrowField> fields = Parse(sample);
    ASSERT_FALSE(fields.empty());
    PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string written, SerializeStoredArrowSchema(fields));
    EXPECT_EQ(Parse(written), fields);
  }
}

TEST(SerializeStoredArrowSchemaTest, RefusesWhatTheParserCouldNotGiveBack) {
  for (const char* format :
       {"q",       "",        "d:x", "d:",   "d:10", "d:10,2,128", "d:10,2,100",
        "d:010,2", "d:10,+2", "w:",  "w:-1", "+w:",  "+w:x",       "tsx:",
        "tss",     "ttx",     "tDx", "tix",  "tdd",  "+ud:0,200",  "+ud:-1",
        "+us:0,",  "+ux:0",   "ii",  "+"}) {
    PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", format)}),
                        absl::StatusCode::kInvalidArgument);
  }
  // Children counts.
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+l", {F("a", "i"), F("b", "i")})}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+L")}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "i", {F("a", "i")})}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+r", {F("a", "i")})}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+ud:0,1", {F("a", "i")})}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+m", {F("e", "+s", {F("k", "i")})})}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+m", {F("e", "+l", {F("k", "i")})})}),
                      absl::StatusCode::kInvalidArgument);
  // Flags the parser reads only where they belong, and a dictionary index that is not an integer.
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({Dict("x", "u", "u", false)}),
                      absl::StatusCode::kInvalidArgument);
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({Dict("x", "u", "", true)}),
                      absl::StatusCode::kInvalidArgument);
  StoredArrowField sorted_list = F("x", "+l", {F("a", "i")});
  sorted_list.map_keys_sorted = true;
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({sorted_list}),
                      absl::StatusCode::kInvalidArgument);
  // A bad field deep inside is found too.
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({F("x", "+s", {F("y", "+l", {F("z", "q")})})}),
                      absl::StatusCode::kInvalidArgument);
}

TEST(SerializeStoredArrowSchemaTest, NestingAsDeepAsTheParserReads) {
  // The top-level field is depth 0; the parser reads down to depth 64.
  StoredArrowField field = F("a", "i");
  for (int depth = 0; depth < 64; ++depth) field = F("a", "+s", {std::move(field)});
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string written, SerializeStoredArrowSchema({field}));
  EXPECT_EQ(Parse(written), std::vector<StoredArrowField>{field});
  field = F("a", "+s", {std::move(field)});
  PQPAGE_EXPECT_ERROR(SerializeStoredArrowSchema({field}), absl::StatusCode::kInvalidArgument);
}

// Reads the FlatBuffer the way flatbuffers' Verifier checks it, failing the test on an offset that
// points backwards or past the end and on any misaligned scalar.
class LayoutChecker {
 public:
  explicit LayoutChecker(std::string bytes) : bytes_(std::move(bytes)) {}

  uint32_t U32(size_t at) const {
    EXPECT_EQ(at % 4, 0u) << at;
    EXPECT_LE(at + 4, bytes_.size());
    uint32_t v = 0;
    if (at + 4 <= bytes_.size()) std::memcpy(&v, bytes_.data() + at, 4);
    return v;
  }
  uint16_t U16(size_t at) const {
    EXPECT_EQ(at % 2, 0u) << at;
    uint16_t v = 0;
    if (at + 2 <= bytes_.size()) std::memcpy(&v, bytes_.data() + at, 2);
    return v;
  }
  // Where the uoffset at `at` points, which must be forward and inside.
  size_t Follow(size_t at) const {
    const uint32_t offset = U32(at);
    EXPECT_GT(offset, 0u) << at;
    EXPECT_LT(at + offset, bytes_.size()) << at;
    return at + offset;
  }
  // Where field `id` of the table at `table` lies (nullopt when absent), checked to be aligned to
  // `size`.
  std::optional<size_t> Field(size_t table, int id, size_t size) const {
    const auto vtable =
        static_cast<size_t>(static_cast<int64_t>(table) - static_cast<int32_t>(U32(table)));
    const uint16_t vtable_size = U16(vtable);
    EXPECT_EQ(vtable_size % 2, 0u);
    const size_t slot = 4 + 2 * static_cast<size_t>(id);
    if (slot + 2 > vtable_size) return std::nullopt;
    const uint16_t offset = U16(vtable + slot);
    if (offset == 0) return std::nullopt;
    EXPECT_LT(offset, U16(vtable + 2)) << "field outside its table";
    EXPECT_EQ((table + offset) % size, 0u) << "field " << id << " of size " << size;
    return table + offset;
  }
  std::optional<size_t> Table(size_t table, int id) const {
    const std::optional<size_t> at = Field(table, id, 4);
    if (!at.has_value()) return std::nullopt;
    return Follow(*at);
  }
  // The tables of a vector-of-tables field.
  std::vector<size_t> Tables(size_t table, int id) const {
    std::vector<size_t> tables;
    const std::optional<size_t> vector = Table(table, id);
    if (!vector.has_value()) return tables;
    const uint32_t count = U32(*vector);
    for (uint32_t i = 0; i < count; ++i) tables.push_back(Follow(*vector + 4 + 4 * size_t{i}));
    return tables;
  }
  void String(size_t table, int id) const {
    if (const std::optional<size_t> at = Table(table, id)) {
      const uint32_t length = U32(*at);
      ASSERT_LT(*at + 4 + length, bytes_.size());
      EXPECT_EQ(bytes_[*at + 4 + length], '\0');
    }
  }
  int64_t I64(size_t at) const {
    int64_t v = 0;
    std::memcpy(&v, bytes_.data() + at, 8);
    return v;
  }

 private:
  std::string bytes_;
};

// Checks a Field table and its children; returns the dictionary ids met, depth first.
void CheckField(const LayoutChecker& checker, size_t field, std::vector<int64_t>* ids) {
  checker.String(field, 0);
  checker.Field(field, 1, 1);
  checker.Field(field, 2, 1);
  const std::optional<size_t> type = checker.Table(field, 3);
  ASSERT_TRUE(type.has_value());
  if (const std::optional<size_t> dictionary = checker.Table(field, 4)) {
    const std::optional<size_t> id = checker.Field(*dictionary, 0, 8);
    ASSERT_TRUE(id.has_value()) << "every dictionary written has an id";
    ids->push_back(checker.I64(*id));
    const std::optional<size_t> index = checker.Table(*dictionary, 1);
    ASSERT_TRUE(index.has_value());
    checker.Field(*index, 0, 4);
  }
  for (size_t child : checker.Tables(field, 5)) CheckField(checker, child, ids);
  for (size_t pair : checker.Tables(field, 6)) {
    checker.String(pair, 0);
    checker.String(pair, 1);
  }
}

TEST(SerializeStoredArrowSchemaTest, LayoutIsAlignedAndPointsForward) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(const std::string written,
                              SerializeStoredArrowSchema(EveryFormat(), {{"a", "b"}}));
  std::string framed;
  ASSERT_TRUE(absl::Base64Unescape(written, &framed));
  ASSERT_GE(framed.size(), 8u);
  EXPECT_EQ(framed.substr(0, 4), std::string("\xff\xff\xff\xff", 4));
  uint32_t length;
  std::memcpy(&length, framed.data() + 4, 4);
  EXPECT_EQ(framed.size(), 8 + size_t{length});
  EXPECT_EQ(framed.size() % 8, 0u);

  const LayoutChecker checker(framed.substr(8));
  const size_t message = checker.Follow(0);
  const std::optional<size_t> version = checker.Field(message, 0, 2);
  ASSERT_TRUE(version.has_value());
  EXPECT_EQ(checker.U16(*version), 4);  // V5
  const std::optional<size_t> body_length = checker.Field(message, 3, 8);
  ASSERT_TRUE(body_length.has_value());
  EXPECT_EQ(checker.I64(*body_length), 0);
  const std::optional<size_t> schema = checker.Table(message, 2);
  ASSERT_TRUE(schema.has_value());
  checker.Field(*schema, 0, 2);
  std::vector<int64_t> ids;
  for (size_t field : checker.Tables(*schema, 1)) CheckField(checker, field, &ids);
  EXPECT_EQ(checker.Tables(*schema, 2).size(), 1u);
  // Distinct ids, counting from 0 in depth-first order.
  std::vector<int64_t> expected(ids.size());
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<int64_t>(i);
  EXPECT_EQ(ids, expected);
  EXPECT_EQ(ids.size(), 11u);
}

}  // namespace
}  // namespace pqpage
