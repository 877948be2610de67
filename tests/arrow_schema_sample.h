// A real ARROW:schema value and the Parquet schema of the file it came from, for the tests and the
// fuzz target of pqpage/arrow_schema.h.
#ifndef PQPAGE_TESTS_ARROW_SCHEMA_SAMPLE_H_
#define PQPAGE_TESTS_ARROW_SCHEMA_SAMPLE_H_

#include "pqpage/schema.h"

namespace pqpage::testing {

// What pyarrow 26 stores for
//   cat: dictionary<int32, string>, s: string, l: list<dictionary<int32, string>>,
//   st: struct<a: dictionary<int32, string>, b: string>, m: map<string, dictionary<int32, string>>
// (pq.write_table(...); ParquetFile(...).metadata.metadata[b"ARROW:schema"]).
inline constexpr char kArrowSchemaSample[] =
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
inline Schema ArrowSchemaSampleColumns() {
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
  return *builder.Build();  // a valid schema: Build cannot fail
}

}  // namespace pqpage::testing

#endif  // PQPAGE_TESTS_ARROW_SCHEMA_SAMPLE_H_
