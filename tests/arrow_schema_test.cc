// pqpage/arrow_schema.h: the dictionary-typed columns of a stored Arrow schema, matched to the
// Parquet columns (top level, inside a list, a struct and a map), and hostile schemas (truncated,
// corrupted, not base64, not a Schema message) refused with an error, never a crash.
#include "pqpage/arrow_schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "arrow_schema_sample.h"
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

}  // namespace
}  // namespace pqpage
