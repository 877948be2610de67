// LookupJson (pqpage/lookup.h): the document of `pqpage lookup --json`.
#include <cstdint>
#include <string>
#include <vector>

#include "pqpage/json_writer.h"
#include "pqpage/lookup.h"
#include "pqpage/value_text.h"

namespace pqpage {

namespace {

void WriteLookup(JsonWriter& json, const FileReader& file, const ValueLookup& lookup,
                 const std::vector<int64_t>* found) {
  const ColumnDescriptor& column = file.schema().columns()[static_cast<size_t>(lookup.column)];
  json.BeginObject();
  json.StringMember("file", file.name());
  json.IntMember("column", lookup.column);
  json.StringMember("path", column.PathString());
  json.Key("value");
  WriteBoundJson(json, column.type, lookup.value);
  int64_t rows_to_read = 0;
  json.Key("row_groups");
  json.BeginArray();
  for (const RowGroupLookup& group : lookup.row_groups) {
    json.BeginObject(/*single_line=*/true);
    json.IntMember("row_group", group.row_group);
    json.IntMember("num_rows", group.num_rows);
    json.StringMember("statistics", LookupCheckName(group.statistics));
    json.StringMember("bloom_filter", LookupCheckName(group.bloom_filter));
    json.StringMember("page_index", LookupCheckName(group.page_index));
    json.IntMember("pages", group.pages);
    json.IntMember("pages_may_hold", group.pages_may_hold);
    json.Key("rows");
    json.BeginArray();
    for (const RowRange& range : group.rows) {
      json.BeginArray();
      json.Int(range.begin);
      json.Int(range.end);
      json.EndArray();
      rows_to_read += range.end - range.begin;
    }
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.IntMember("rows_to_read", rows_to_read);
  if (found != nullptr) {
    json.Key("found_rows");
    json.BeginArray(/*single_line=*/true);
    for (const int64_t row : *found) json.Int(row);
    json.EndArray();
  }
  json.EndObject();
}

}  // namespace

std::string LookupJson(const FileReader& file, const ValueLookup& lookup,
                       const std::vector<int64_t>* found) {
  JsonWriter json;
  WriteLookup(json, file, lookup, found);
  json.Newline();
  return json.TakeOutput();
}

std::string LookupJson(const FileReader& file, const std::vector<ValueLookup>& lookups,
                       const std::vector<std::vector<int64_t>>* found) {
  JsonWriter json;
  json.BeginArray();
  for (size_t i = 0; i < lookups.size(); ++i) {
    WriteLookup(json, file, lookups[i], found != nullptr ? &(*found)[i] : nullptr);
  }
  json.EndArray();
  json.Newline();
  return json.TakeOutput();
}

}  // namespace pqpage
