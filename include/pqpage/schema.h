// A Parquet file's schema: the tree of groups and primitive fields the footer stores depth-first,
// and the leaf columns it implies, each with its path and its maximum definition and repetition
// levels (the numbers every page of that column is decoded against).
//
// A group with no fields (an element with num_children = 0 and no type, as parquet-go writes an
// empty struct) is kept: it has no leaf column, and empty_groups() lists it.
//
// Errors: DataLoss when a footer's schema is malformed (a child count that runs past the list, a
// leaf without a physical type (nor a child count), a FIXED_LEN_BYTE_ARRAY without a positive
// length, nesting deeper than the level type can count); InvalidArgument for the same mistakes made
// through the Builder.
#ifndef PQPAGE_SCHEMA_H_
#define PQPAGE_SCHEMA_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/logical_type.h"
#include "pqpage/types.h"

namespace pqpage {

namespace internal {
struct SchemaElements;
}  // namespace internal

// How often a field occurs in its parent: exactly once, at most once, any number of times. The
// values are the format's Thrift enum ids.
enum class Repetition : int8_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

// A schema, kept as the format's flat element list (so files re-encoded by pqpage keep every
// annotation their writer put there) together with its leaf columns.
class Schema {
 public:
  Schema();
  ~Schema();
  Schema(const Schema&);
  Schema& operator=(const Schema&);
  Schema(Schema&&) noexcept;
  Schema& operator=(Schema&&) noexcept;

  // The leaf columns, in the order of the footer's depth-first list (the order of column chunks in
  // a row group). A file's full element list, annotations included, is FileMetaData::schema.
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }

  // Finds a leaf column by its dotted path (ColumnDescriptor::PathString).
  // @return its index in columns(); nullopt when no leaf has that path.
  std::optional<int> FindColumn(std::string_view path) const;

  // The paths (names from below the root) of the groups that have no fields, in the footer's
  // depth-first order. Readers that map a schema to Arrow see them as empty structs; pyarrow
  // leaves them out of its tables. They hold no data, but a file re-encoded by pqpage keeps them.
  const std::vector<std::vector<std::string>>& empty_groups() const { return empty_groups_; }

  // Builds a schema field by field, depth first. Each group must be closed by EndGroup.
  class Builder {
   public:
    Builder();
    ~Builder();
    // A primitive field. `logical` names an annotation for readers that apply one: "" (none),
    // "STRING", "DATE", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "TIMESTAMP_NANOS", "FLOAT16",
    // "UUID", "JSON"; anything else is InvalidArgument at Build().
    Builder& AddPrimitive(std::string_view name, Repetition repetition, PhysicalType type,
                          int type_length = 0, std::string_view logical = "");
    // A primitive field with any logical type pqpage models (not kInterval, kOther): the footer
    // gets its logicalType, and its converted type where the format defines one that means the
    // same (DECIMAL with precision and scale, INT_8 ... UINT_64, TIME and TIMESTAMP in millis or
    // micros, ...), for readers that predate logical types. InvalidArgument at Build() for a kind
    // the physical type cannot hold (as the format's logical types allow them), a decimal whose
    // precision is below 1 or above what the type's bytes hold or whose scale is outside
    // [0, precision], an integer width other than 8, 16, 32, 64.
    Builder& AddLogical(std::string_view name, Repetition repetition, PhysicalType type,
                        int type_length, const LogicalType& logical);
    // A group. `logical` is "", "LIST" or "MAP".
    Builder& BeginGroup(std::string_view name, Repetition repetition,
                        std::string_view logical = "");
    Builder& EndGroup();
    absl::StatusOr<Schema> Build();

   private:
    struct State;
    std::unique_ptr<State> state_;
  };

 private:
  friend struct internal::SchemaElements;  // the file layer reads and writes the footer's list
  struct Elements;
  std::unique_ptr<Elements> elements_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<std::vector<std::string>> empty_groups_;
};

}  // namespace pqpage

#endif  // PQPAGE_SCHEMA_H_
