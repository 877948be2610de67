// pqpage/arrow_schema.h: the dictionary-typed columns of a stored Arrow schema, matched to the
// Parquet columns (top level, inside a list, a struct and a map), and hostile schemas (truncated,
// corrupted, not base64, not a Schema message) refused with an error, never a crash.
// file/stored_arrow_schema.h: real schemas from pyarrow, covering every Arrow type, parsed into the
// tree Arrow C++ itself exports (formats, names, nullability, dictionaries, map key order, field
// metadata), and the same hostile inputs refused with DataLoss.
#include "pqpage/arrow_schema.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "arrow_schema_sample.h"
#include "file/stored_arrow_schema.h"
#include "pqpage/schema.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

std::vector<KeyValue> Metadata(const std::string& value) {
  return {{"pandas", std::string("{}")}, {kArrowSchemaKey, value}};
}

TEST(ArrowSchemaTest, FindsTheDictionaryTypedColumns) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> columns,
                              ArrowDictionaryColumns(Metadata(testing::kArrowSchemaSample),
                                                     testing::ArrowSchemaSampleColumns()));
  EXPECT_EQ(columns,
            (std::vector<std::string>{"cat", "l.list.element", "st.a", "m.key_value.value"}));
}

TEST(ArrowSchemaTest, NoArrowSchemaMeansNone) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::vector<std::string> columns,
      ArrowDictionaryColumns({{"other", std::string("x")}}, testing::ArrowSchemaSampleColumns()));
  EXPECT_TRUE(columns.empty());
  PQPAGE_ASSERT_OK_AND_ASSIGN(columns, ArrowDictionaryColumns({{kArrowSchemaKey, std::nullopt}},
                                                              testing::ArrowSchemaSampleColumns()));
  EXPECT_TRUE(columns.empty());
}

TEST(ArrowSchemaTest, RefusesWhatIsNotASchemaMessage) {
  PQPAGE_EXPECT_ERROR(
      ArrowDictionaryColumns(Metadata("not base64 !"), testing::ArrowSchemaSampleColumns()),
      absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(ArrowDictionaryColumns(Metadata(""), testing::ArrowSchemaSampleColumns()),
                      absl::StatusCode::kDataLoss);
  // A length larger than what follows it.
  PQPAGE_EXPECT_ERROR(
      ArrowDictionaryColumns(
          Metadata(absl::Base64Escape(std::string("\xff\xff\xff\xff\x40\0\0\0", 8))),
          testing::ArrowSchemaSampleColumns()),
      absl::StatusCode::kDataLoss);
}

TEST(ArrowSchemaTest, HostileSchemasGiveAnErrorOrAnAnswerNeverACrash) {
  std::string message;
  ASSERT_TRUE(absl::Base64Unescape(testing::kArrowSchemaSample, &message));
  const Schema schema = testing::ArrowSchemaSampleColumns();
  // Every truncation of the message body, framed with its new length.
  const std::string body = message.substr(8);
  for (size_t n = 0; n < body.size(); ++n) {
    std::string framed("\xff\xff\xff\xff", 4);
    for (int b = 0; b < 4; ++b) framed.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
    framed += body.substr(0, n);
    const auto result = ArrowDictionaryColumns(Metadata(absl::Base64Escape(framed)), schema);
    if (!result.ok()) EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << n;
  }
  // Every byte of the message replaced by a few values that make offsets and sizes wild.
  int errors = 0;
  for (size_t i = 8; i < message.size(); ++i) {
    for (unsigned char value : {0x00, 0x7f, 0x80, 0xff}) {
      std::string corrupt = message;
      corrupt[i] = static_cast<char>(value);
      const auto result = ArrowDictionaryColumns(Metadata(absl::Base64Escape(corrupt)), schema);
      if (!result.ok()) {
        EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << i;
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, 0);  // the checks do fire
}

// One line per field, indented by depth: "name: format", then "not null", "dict INDEX [ordered]"
// and "sorted" where they apply. The expected trees below are what pyarrow's own C Data
// Interface export (Schema._export_to_c) gives for the same schemas, in this notation.
void Describe(const StoredArrowField& field, int depth, std::string* out) {
  absl::StrAppend(out, std::string(2 * static_cast<size_t>(depth), ' '), field.name, ": ",
                  field.format);
  if (!field.nullable) absl::StrAppend(out, " not null");
  if (!field.dictionary_index.empty()) {
    absl::StrAppend(out, " dict ", field.dictionary_index,
                    field.dictionary_ordered ? " ordered" : "");
  }
  if (field.map_keys_sorted) absl::StrAppend(out, " sorted");
  absl::StrAppend(out, "\n");
  for (const StoredArrowField& child : field.children) Describe(child, depth + 1, out);
}

std::string Describe(const std::vector<StoredArrowField>& fields) {
  std::string out;
  for (const StoredArrowField& field : fields) Describe(field, 0, &out);
  return out;
}

std::vector<StoredArrowField> ParseOrDie(const char* base64) {
  auto parsed = ParseStoredArrowSchema(Metadata(base64));
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || !parsed->has_value()) return {};
  return **std::move(parsed);
}

TEST(StoredArrowSchemaTest, ParsesEveryTypeAParquetFileHolds) {
  const std::vector<StoredArrowField> fields = ParseOrDie(testing::kArrowSchemaManyTypes);
  EXPECT_EQ(Describe(fields), R"(n: n
b: b
i8: c
u8: C
i16: s
u16: S
i32: i
u32: I
i64: l not null
u64: L
f16: e
f32: f
f64: g
bin: z
str: u
lbin: Z
lstr: U
dec: d:10,2
dec256: d:40,5,256
d32: tdD
d64: tdm
t32s: tts
t32ms: ttm
t64us: ttu
t64ns: ttn
ts_s_0: tss:
ts_ms_0: tsm:
ts_us_0: tsu:
ts_ns_0: tsn:
ts_s_1: tss:UTC
ts_ms_1: tsm:UTC
ts_us_1: tsu:UTC
ts_ns_1: tsn:UTC
ts_off: tsu:+07:30
ts_ny: tsn:America/New_York
dur_s: tDs
dur_ms: tDm
dur_us: tDu
dur_ns: tDn
fsb: w:4
fsl: +w:3
  item: i
ll: +L
  item: u
dict8: u dict c
dict32o: u dict i ordered
m: +m
  entries: +s not null
    key: u not null
    value: l
ms: +m sorted
  entries: +s not null
    key: u not null
    value: l
st: +s
  a: i not null
  b: u
nested: +l
  item: +s
    x: +l
      item: l
    y: u
meta: i
)");
}

TEST(StoredArrowSchemaTest, ParsesTheTypesOnlyArrowHas) {
  const std::vector<StoredArrowField> fields = ParseOrDie(testing::kArrowSchemaMoreTypes);
  EXPECT_EQ(Describe(fields), R"(us: +us:0,1
  a: i
  b: u
ud: +ud:5,7
  a: i
  b: u
ree: +r
  run_ends: i not null
  values: u
sv: vu
bv: vz
lv: +vl
  item: i
llv: +vL
  item: l
mdn: tin
dec32: d:7,3,32
dec64: d:15,-2,64
du16: U dict S
ldict: +l
  item: i dict l
)");
}

TEST(StoredArrowSchemaTest, KeepsFieldMetadataInOrder) {
  const std::vector<StoredArrowField> fields = ParseOrDie(testing::kArrowSchemaManyTypes);
  ASSERT_FALSE(fields.empty());
  EXPECT_EQ(fields.back().name, "meta");
  EXPECT_EQ(fields.back().metadata,
            (std::vector<std::pair<std::string, std::string>>{{"k", "v"}, {"unit", "m"}}));
  for (size_t i = 0; i + 1 < fields.size(); ++i) EXPECT_TRUE(fields[i].metadata.empty()) << i;
}

TEST(StoredArrowSchemaTest, TheDictionarySampleAsATree) {
  const std::vector<StoredArrowField> fields = ParseOrDie(testing::kArrowSchemaSample);
  EXPECT_EQ(Describe(fields), R"(cat: u dict i
s: u
l: +l
  item: u dict i
st: +s
  a: u dict i
  b: u
m: +m
  entries: +s not null
    key: u not null
    value: u dict i
)");
}

TEST(StoredArrowSchemaTest, NoArrowSchemaMeansNullopt) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(auto none, ParseStoredArrowSchema({{"other", std::string("x")}}));
  EXPECT_FALSE(none.has_value());
  PQPAGE_ASSERT_OK_AND_ASSIGN(none, ParseStoredArrowSchema({{kArrowSchemaKey, std::nullopt}}));
  EXPECT_FALSE(none.has_value());
  PQPAGE_EXPECT_ERROR(ParseStoredArrowSchema(Metadata("not base64 !")),
                      absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(ParseStoredArrowSchema(Metadata("")), absl::StatusCode::kDataLoss);
}

TEST(StoredArrowSchemaTest, RefusesNestingDeeperThan64Levels) {
  // A field of 65 nested structs: its innermost field lies 65 levels below the top.
  const auto deep = ParseStoredArrowSchema(Metadata(testing::kArrowSchemaTooDeep));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(deep.status().message().find("deeper than 64 levels"), std::string::npos)
      << deep.status();
  // ArrowDictionaryColumns refuses it the same way.
  PQPAGE_EXPECT_ERROR(ArrowDictionaryColumns(Metadata(testing::kArrowSchemaTooDeep),
                                             testing::ArrowSchemaSampleColumns()),
                      absl::StatusCode::kDataLoss);
}

TEST(StoredArrowSchemaTest, RefusesAnUnknownTypeUnionMember) {
  std::string message;
  ASSERT_TRUE(absl::Base64Unescape(testing::kArrowSchemaSample, &message));
  // Every byte that holds the type of a top-level Utf8 field ("s" is a plain string), set to one
  // past the last member Arrow defines, must give DataLoss naming the field.
  int refused = 0;
  for (size_t i = 8; i < message.size(); ++i) {
    if (message[i] != 5) continue;  // Utf8's ordinal
    std::string corrupt = message;
    corrupt[i] = 27;
    const auto result = ParseStoredArrowSchema(Metadata(absl::Base64Escape(corrupt)));
    if (!result.ok() && result.status().message().find("unknown type 27") != std::string::npos) {
      EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss);
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

// Every truncation and the same wild bytes as above, for each real sample: DataLoss or an answer.
TEST(StoredArrowSchemaTest, HostileSchemasGiveDataLossOrAnAnswerNeverACrash) {
  for (const char* sample : {testing::kArrowSchemaManyTypes, testing::kArrowSchemaMoreTypes,
                             testing::kArrowSchemaTooDeep}) {
    std::string message;
    ASSERT_TRUE(absl::Base64Unescape(sample, &message));
    const std::string body = message.substr(8);
    for (size_t n = 0; n < body.size(); ++n) {
      std::string framed("\xff\xff\xff\xff", 4);
      for (int b = 0; b < 4; ++b) framed.push_back(static_cast<char>((n >> (8 * b)) & 0xff));
      framed += body.substr(0, n);
      const auto result = ParseStoredArrowSchema(Metadata(absl::Base64Escape(framed)));
      if (!result.ok()) EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << n;
    }
    int errors = 0;
    for (size_t i = 8; i < message.size(); ++i) {
      for (unsigned char value : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
        std::string corrupt = message;
        corrupt[i] = static_cast<char>(value);
        const auto result = ParseStoredArrowSchema(Metadata(absl::Base64Escape(corrupt)));
        if (!result.ok()) {
          EXPECT_EQ(result.status().code(), absl::StatusCode::kDataLoss) << i;
          ++errors;
        }
      }
    }
    EXPECT_GT(errors, 0);
  }
}

}  // namespace
}  // namespace pqpage
