// pqpage/arrow_schema.h: the dictionary-typed columns of a stored Arrow schema, matched to the
// Parquet columns (top level, inside a list, a struct and a map), and hostile schemas (truncated,
// corrupted, not base64, not a Schema message) refused with an error, never a crash.
#include "pqpage/arrow_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "pqpage/schema.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

// What pyarrow 26 stores for
//   cat: dictionary<int32, string>, s: string, l: list<dictionary<int32, string>>,
//   st: struct<a: dictionary<int32, string>, b: string>, m: map<string, dictionary<int32, string>>
// (pq.write_table(...); ParquetFile(...).metadata.metadata[b"ARROW:schema"]).
constexpr char kArrowSchema[] =
    "/////8ACAAAUAAAAAAAAAAAACgAMAAYABQAIAAoAAAAAAQQABAAAAIz9//8EAAAABQAAAEQCAAAMAgAAfAEAANwA"
    "AAAEAAAAFP7//wAAAREUAAAAGAAAAAQAAAABAAAAEAAAAAEAAABtAAAArP3//4j///8AAAANGAAAACAAAAAEAAAA"
    "AgAAAHAAAAAUAAAABwAAAGVudHJpZXMA3P3//zj+//8AAAEFFAAAADgAAAAYAAAABAAAAAAAAAAFAAAAdmFsdWUA"
    "AAA4////DAAAAAMAAAAAAAAALP7//wAAAAEgAAAAJP7//xAAFAAIAAAABwAMAAAAEAAQAAAAAAAABRAAAAAUAAAA"
    "BAAAAAAAAAADAAAAa2V5AFj+///o/v//AAABDRgAAAAcAAAABAAAAAIAAAA4AAAAEAAAAAIAAABzdAAAhP7//xT/"
    "//8AAAEFEAAAABQAAAAEAAAAAAAAAAEAAABiAAAAqP7//wT///8AAAEFFAAAADwAAAAcAAAABAAAAAAAAAABAAAA"
    "YQAAAAgAEAAIAAQACAAAAAwAAAACAAAAAAAAAPz+//8AAAABIAAAAPT+//+E////AAABDBQAAAAYAAAABAAAAAEA"
    "AAAQAAAAAQAAAGwAAAAc////eP///wAAAQUUAAAARAAAACAAAAAEAAAAAAAAAAQAAABpdGVtAAAAAAgAFAAIAAQA"
    "CAAAABAAAAABAAAAAAAAAAAAAAB4////AAAAASAAAABw////EAAUAAgABgAHAAwAAAAQABAAAAAAAAEFEAAAABQA"
    "AAAEAAAAAAAAAAEAAABzAAAApP///xAAGAAIAAYABwAMABAAFAAQAAAAAAABBRQAAABAAAAAHAAAAAQAAAAAAAAA"
    "AwAAAGNhdAAIAAgAAAAEAAgAAAAMAAAACAAMAAgABwAIAAAAAAAAASAAAAAEAAQABAAAAA==";

// The Parquet schema pyarrow writes for it.
Schema ParquetSchema() {
  Schema::Builder builder;
  builder.AddPrimitive("cat", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .AddPrimitive("s", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .BeginGroup("l", Repetition::kOptional, "LIST")
      .BeginGroup("list", Repetition::kRepeated)
      .AddPrimitive("element", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .EndGroup()
      .EndGroup()
      .BeginGroup("st", Repetition::kOptional)
      .AddPrimitive("a", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .AddPrimitive("b", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .EndGroup()
      .BeginGroup("m", Repetition::kOptional, "MAP")
      .BeginGroup("key_value", Repetition::kRepeated)
      .AddPrimitive("key", Repetition::kRequired, PhysicalType::kByteArray, 0, "STRING")
      .AddPrimitive("value", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .EndGroup()
      .EndGroup();
  auto schema = builder.Build();
  EXPECT_TRUE(schema.ok()) << schema.status();
  return *schema;
}

std::vector<KeyValue> Metadata(const std::string& value) {
  return {{"pandas", std::string("{}")}, {kArrowSchemaKey, value}};
}

TEST(ArrowSchemaTest, FindsTheDictionaryTypedColumns) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(std::vector<std::string> columns,
                              ArrowDictionaryColumns(Metadata(kArrowSchema), ParquetSchema()));
  EXPECT_EQ(columns,
            (std::vector<std::string>{"cat", "l.list.element", "st.a", "m.key_value.value"}));
}

TEST(ArrowSchemaTest, NoArrowSchemaMeansNone) {
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      std::vector<std::string> columns,
      ArrowDictionaryColumns({{"other", std::string("x")}}, ParquetSchema()));
  EXPECT_TRUE(columns.empty());
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      columns, ArrowDictionaryColumns({{kArrowSchemaKey, std::nullopt}}, ParquetSchema()));
  EXPECT_TRUE(columns.empty());
}

TEST(ArrowSchemaTest, RefusesWhatIsNotASchemaMessage) {
  PQPAGE_EXPECT_ERROR(ArrowDictionaryColumns(Metadata("not base64 !"), ParquetSchema()),
                      absl::StatusCode::kDataLoss);
  PQPAGE_EXPECT_ERROR(ArrowDictionaryColumns(Metadata(""), ParquetSchema()),
                      absl::StatusCode::kDataLoss);
  // A length larger than what follows it.
  PQPAGE_EXPECT_ERROR(
      ArrowDictionaryColumns(
          Metadata(absl::Base64Escape(std::string("\xff\xff\xff\xff\x40\0\0\0", 8))),
          ParquetSchema()),
      absl::StatusCode::kDataLoss);
}

TEST(ArrowSchemaTest, HostileSchemasGiveAnErrorOrAnAnswerNeverACrash) {
  std::string message;
  ASSERT_TRUE(absl::Base64Unescape(kArrowSchema, &message));
  const Schema schema = ParquetSchema();
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

}  // namespace
}  // namespace pqpage
