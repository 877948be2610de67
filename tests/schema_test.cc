// Schema trees: leaves, paths and maximum levels from a footer's element list, and the builder.
#include "pqpage/schema.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "parquet_types.h"
#include "schema/schema_elements.h"
#include "status_matchers.h"

namespace pqpage {
namespace {

format::SchemaElement Group(const std::string& name, int children, int32_t repetition) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_num_children(children);
  element.__set_repetition_type(repetition);
  return element;
}

format::SchemaElement Leaf(const std::string& name, int32_t type, int32_t repetition) {
  format::SchemaElement element;
  element.__set_name(name);
  element.__set_type(type);
  element.__set_repetition_type(repetition);
  return element;
}

format::SchemaElement Root(int children) {
  format::SchemaElement root;
  root.__set_name("schema");
  root.__set_num_children(children);
  return root;
}

TEST(SchemaTest, ListOfOptionalStructLeavesGetTheirLevels) {
  using R = format::FieldRepetitionType;
  // id (required), tags (optional list of optional strings), point (required group of x, y?)
  const std::vector<format::SchemaElement> elements = {
      Root(3),
      Leaf("id", format::Type::INT64, R::REQUIRED),
      Group("tags", 1, R::OPTIONAL),
      Group("list", 1, R::REPEATED),
      Leaf("element", format::Type::BYTE_ARRAY, R::OPTIONAL),
      Group("point", 2, R::REQUIRED),
      Leaf("x", format::Type::DOUBLE, R::REQUIRED),
      Leaf("y", format::Type::DOUBLE, R::OPTIONAL),
  };
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema schema, internal::SchemaElements::ToSchema(elements));
  const auto& columns = schema.columns();
  ASSERT_EQ(columns.size(), 4u);
  EXPECT_EQ(columns[0].PathString(), "id");
  EXPECT_EQ(columns[0].max_definition_level, 0);
  EXPECT_EQ(columns[1].PathString(), "tags.list.element");
  EXPECT_EQ(columns[1].max_definition_level, 3);
  EXPECT_EQ(columns[1].max_repetition_level, 1);
  EXPECT_EQ(columns[1].type, PhysicalType::kByteArray);
  EXPECT_EQ(columns[2].PathString(), "point.x");
  EXPECT_EQ(columns[2].max_definition_level, 0);
  EXPECT_EQ(columns[3].PathString(), "point.y");
  EXPECT_EQ(columns[3].max_definition_level, 1);
  EXPECT_EQ(internal::SchemaElements::Of(schema).size(), elements.size());
  // Leaves are found by their whole dotted path, not by a group's path or a leaf's name.
  EXPECT_EQ(schema.FindColumn("id"), 0);
  EXPECT_EQ(schema.FindColumn("tags.list.element"), 1);
  EXPECT_EQ(schema.FindColumn("point.y"), 3);
  EXPECT_EQ(schema.FindColumn("point"), std::nullopt);
  EXPECT_EQ(schema.FindColumn("y"), std::nullopt);
  EXPECT_EQ(schema.FindColumn(""), std::nullopt);
}

TEST(SchemaTest, LeavesCarryTheirLogicalTypeOrTheConvertedTypesEquivalent) {
  using R = format::FieldRepetitionType;
  // Impala's BYTE_ARRAY decimal (converted type only), a timestamp with a logical type, an old
  // TIME_MILLIS, a string with both, an INTERVAL (converted only, no logical type exists), and a
  // leaf with no annotation.
  format::SchemaElement decimal = Leaf("price", format::Type::BYTE_ARRAY, R::OPTIONAL);
  decimal.__set_converted_type(format::ConvertedType::DECIMAL);
  decimal.__set_precision(20);
  decimal.__set_scale(4);
  format::SchemaElement timestamp = Leaf("at", format::Type::INT64, R::OPTIONAL);
  format::LogicalType timestamp_type;
  format::TimestampType nanos_local;
  nanos_local.__set_isAdjustedToUTC(false);
  nanos_local.unit.__set_NANOS(format::NanoSeconds());
  timestamp_type.__set_TIMESTAMP(nanos_local);
  timestamp.__set_logicalType(timestamp_type);
  format::SchemaElement time = Leaf("when", format::Type::INT32, R::OPTIONAL);
  time.__set_converted_type(format::ConvertedType::TIME_MILLIS);
  format::SchemaElement text = Leaf("name", format::Type::BYTE_ARRAY, R::OPTIONAL);
  text.__set_converted_type(format::ConvertedType::UTF8);
  format::LogicalType string_type;
  string_type.__set_STRING(format::StringType());
  text.__set_logicalType(string_type);
  format::SchemaElement interval = Leaf("span", format::Type::FIXED_LEN_BYTE_ARRAY, R::OPTIONAL);
  interval.__set_type_length(12);
  interval.__set_converted_type(format::ConvertedType::INTERVAL);
  const std::vector<format::SchemaElement> elements = {
      Root(6),
      decimal,
      timestamp,
      time,
      text,
      interval,
      Leaf("raw", format::Type::BYTE_ARRAY, R::OPTIONAL)};
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema schema, internal::SchemaElements::ToSchema(elements));
  const auto& columns = schema.columns();
  ASSERT_EQ(columns.size(), 6u);
  EXPECT_EQ(columns[0].logical_type.kind, LogicalKind::kDecimal);
  EXPECT_EQ(columns[0].logical_type.ToString(), "DECIMAL(20,4)");
  EXPECT_EQ(columns[1].logical_type.ToString(), "TIMESTAMP(NANOS,local)");
  EXPECT_EQ(columns[2].logical_type.ToString(), "TIME(MILLIS,UTC)");
  EXPECT_EQ(columns[3].logical_type.kind, LogicalKind::kString);
  EXPECT_EQ(columns[4].logical_type.kind, LogicalKind::kInterval);
  EXPECT_EQ(columns[5].logical_type.kind, LogicalKind::kNone);
  EXPECT_EQ(columns[5].logical_type.ToString(), "");
}

TEST(SchemaTest, MalformedElementListsAreDataLoss) {
  using R = format::FieldRepetitionType;
  PQPAGE_EXPECT_ERROR(internal::SchemaElements::ToSchema({}), absl::StatusCode::kDataLoss);
  // A child count that runs past the list.
  PQPAGE_EXPECT_ERROR(
      internal::SchemaElements::ToSchema({Root(2), Leaf("a", format::Type::INT32, R::REQUIRED)}),
      absl::StatusCode::kDataLoss);
  // Elements left over after the tree.
  PQPAGE_EXPECT_ERROR(
      internal::SchemaElements::ToSchema({Root(1), Leaf("a", format::Type::INT32, R::REQUIRED),
                                          Leaf("b", format::Type::INT32, R::REQUIRED)}),
      absl::StatusCode::kDataLoss);
  // A leaf without a physical type.
  format::SchemaElement untyped;
  untyped.__set_name("a");
  untyped.__set_repetition_type(R::OPTIONAL);
  PQPAGE_EXPECT_ERROR(internal::SchemaElements::ToSchema({Root(1), untyped}),
                      absl::StatusCode::kDataLoss);
  // FIXED_LEN_BYTE_ARRAY without a length.
  PQPAGE_EXPECT_ERROR(internal::SchemaElements::ToSchema(
                          {Root(1), Leaf("f", format::Type::FIXED_LEN_BYTE_ARRAY, R::REQUIRED)}),
                      absl::StatusCode::kDataLoss);
  // An unknown physical type.
  PQPAGE_EXPECT_ERROR(internal::SchemaElements::ToSchema({Root(1), Leaf("u", -7, R::REQUIRED)}),
                      absl::StatusCode::kUnimplemented);
}

TEST(SchemaTest, GroupsWithNoFieldsAreKeptAndListed) {
  using R = format::FieldRepetitionType;
  // parquet-go's empty struct inside a struct: id, nested { inner {} }, then a leaf after them,
  // whose levels must not be disturbed by the empty group before it.
  const std::vector<format::SchemaElement> elements = {
      Root(3),
      Leaf("id", format::Type::INT64, R::OPTIONAL),
      Group("nested", 1, R::OPTIONAL),
      Group("inner", 0, R::OPTIONAL),
      Leaf("optional_data", format::Type::INT32, R::OPTIONAL),
  };
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema schema, internal::SchemaElements::ToSchema(elements));
  ASSERT_EQ(schema.columns().size(), 2u);
  EXPECT_EQ(schema.columns()[1].PathString(), "optional_data");
  EXPECT_EQ(schema.columns()[1].max_definition_level, 1);
  EXPECT_EQ(schema.empty_groups(), (std::vector<std::vector<std::string>>{{"nested", "inner"}}));
  EXPECT_EQ(internal::SchemaElements::Of(schema).size(), elements.size());
  // Copies keep the list.
  const Schema copy = schema;
  EXPECT_EQ(copy.empty_groups(), schema.empty_groups());
  // A top-level one, and a root with no fields at all (a table of no columns).
  PQPAGE_ASSERT_OK_AND_ASSIGN(
      Schema top, internal::SchemaElements::ToSchema({Root(1), Group("e", 0, R::REQUIRED)}));
  EXPECT_EQ(top.empty_groups(), (std::vector<std::vector<std::string>>{{"e"}}));
  EXPECT_TRUE(top.columns().empty());
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema none, internal::SchemaElements::ToSchema({Root(0)}));
  EXPECT_TRUE(none.columns().empty());
  EXPECT_TRUE(none.empty_groups().empty());
}

TEST(SchemaTest, DeepNestingIsAnErrorNotAStackOverflow) {
  using R = format::FieldRepetitionType;
  std::vector<format::SchemaElement> elements = {Root(1)};
  constexpr int kDepth = 200000;
  for (int i = 0; i < kDepth; ++i) elements.push_back(Group("g", 1, R::OPTIONAL));
  elements.push_back(Leaf("leaf", format::Type::INT32, R::OPTIONAL));
  PQPAGE_EXPECT_ERROR(internal::SchemaElements::ToSchema(elements), absl::StatusCode::kDataLoss);
}

TEST(SchemaTest, BuilderMakesTheSameTreeAWriterWould) {
  Schema::Builder builder;
  builder.AddPrimitive("id", Repetition::kRequired, PhysicalType::kInt64)
      .BeginGroup("names", Repetition::kOptional, "LIST")
      .BeginGroup("list", Repetition::kRepeated)
      .AddPrimitive("element", Repetition::kOptional, PhysicalType::kByteArray, 0, "STRING")
      .EndGroup()
      .EndGroup()
      .AddPrimitive("digest", Repetition::kOptional, PhysicalType::kFixedLenByteArray, 16);
  PQPAGE_ASSERT_OK_AND_ASSIGN(Schema schema, builder.Build());
  ASSERT_EQ(schema.columns().size(), 3u);
  EXPECT_EQ(schema.columns()[1].PathString(), "names.list.element");
  EXPECT_EQ(schema.columns()[1].max_definition_level, 3);
  EXPECT_EQ(schema.columns()[1].max_repetition_level, 1);
  EXPECT_EQ(schema.columns()[2].type_length, 16);
  EXPECT_EQ(internal::SchemaElements::Of(schema)[2].converted_type, format::ConvertedType::LIST);
  EXPECT_TRUE(internal::SchemaElements::Of(schema)[4].logicalType.__isset.STRING);
}

TEST(SchemaTest, BuilderRejectsMistakes) {
  {
    Schema::Builder builder;
    builder.AddPrimitive("f", Repetition::kRequired, PhysicalType::kFixedLenByteArray, 0);
    PQPAGE_EXPECT_ERROR(builder.Build(), absl::StatusCode::kInvalidArgument);
  }
  {
    Schema::Builder builder;
    builder.BeginGroup("g", Repetition::kOptional);
    PQPAGE_EXPECT_ERROR(builder.Build(), absl::StatusCode::kInvalidArgument);
  }
  {
    Schema::Builder builder;
    builder.AddPrimitive("a", Repetition::kRequired, PhysicalType::kInt32, 0, "NOT_A_TYPE");
    PQPAGE_EXPECT_ERROR(builder.Build(), absl::StatusCode::kInvalidArgument);
  }
  {
    Schema::Builder builder;
    builder.EndGroup();
    PQPAGE_EXPECT_ERROR(builder.Build(), absl::StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace pqpage
