// Min/max/null_count accumulation for page and column chunk statistics, in the column's sort order
// (page/read/sort_order.h: the order column_orders = TYPE_ORDER promises readers). Columns without
// an order get null_count only. Floats ignore NaN (no min/max when every value is NaN); -0.0 and
// +0.0 compare equal, and a zero bound is written as -0.0 for the min and +0.0 for the max, so that
// a reader comparing bits never excludes a zero. Bounds are kept as the PLAIN bytes of one value
// (byte arrays without their length prefix), the form the footer stores, so pages merge into the
// chunk without knowing the value type.
#ifndef PQPAGE_PAGE_WRITE_STATISTICS_H_
#define PQPAGE_PAGE_WRITE_STATISTICS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/types/span.h"
#include "page/read/sort_order.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/page.h"
#include "pqpage/types.h"

namespace pqpage::internal {

class StatisticsAccumulator {
 public:
  explicit StatisticsAccumulator(const ColumnDescriptor& column)
      : type_(column.type), order_(SortOrderOf(column)) {}

  PhysicalType type() const { return type_; }

  // Takes present values into the bounds. T is the value type of the physical type (bool,
  // int32_t, int64_t, Int96, float, double, ByteArray); a T that does not match is ignored.
  template <typename T>
  void Update(absl::Span<const T> values);

  // Counts levels whose definition level is below the maximum (for repeated columns this counts
  // empty and null lists too, as Arrow does).
  void AddNulls(int64_t count) { null_count_ += count; }

  void Merge(const StatisticsAccumulator& other);
  void Reset();

  int64_t null_count() const { return null_count_; }
  bool has_bounds() const { return min_.has_value(); }

  // null_count always; min_value/max_value when there were ordered non-null values; legacy
  // min/max (the deprecated fields, same bytes) for the types whose legacy order was already the
  // signed one (INT32, INT64, FLOAT, DOUBLE, BOOLEAN), never for byte arrays.
  Statistics ToStatistics() const;

 private:
  // Widens the bounds with a candidate min and max given as PLAIN bytes.
  void MergeBounds(const std::string& min, const std::string& max);

  PhysicalType type_;
  SortOrder order_;
  std::optional<std::string> min_;
  std::optional<std::string> max_;
  int64_t null_count_ = 0;
};

}  // namespace pqpage::internal

#endif  // PQPAGE_PAGE_WRITE_STATISTICS_H_
