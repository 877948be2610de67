// The page index's functions: the size of bounds, and page pruning (RowsThatMayMatch).
#include "pqpage/page_index.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "page/read/sort_order.h"

namespace pqpage {
namespace {

bool MayMatch(const ColumnDescriptor& column, const IndexedPage& page,
              const ColumnPredicate& predicate) {
  switch (predicate.kind) {
    case ColumnPredicate::Kind::kIsNull:
      return page.null_page || !page.null_count || *page.null_count > 0;
    case ColumnPredicate::Kind::kIsNotNull:
      return !page.null_page;
    case ColumnPredicate::Kind::kValueRange:
      break;
  }
  if (page.null_page) return false;
  if (predicate.min && internal::CompareEncodedValues(column, page.max_value, *predicate.min) < 0) {
    return false;
  }
  if (predicate.max && internal::CompareEncodedValues(column, page.min_value, *predicate.max) > 0) {
    return false;
  }
  return true;
}

}  // namespace

size_t IndexBoundSize(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean:
      return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    default:
      return 0;
  }
}

absl::StatusOr<std::vector<RowRange>> RowsThatMayMatch(const ColumnDescriptor& column,
                                                       const ChunkPageIndex& index,
                                                       int64_t num_rows,
                                                       const ColumnPredicate& predicate) {
  if (predicate.kind == ColumnPredicate::Kind::kValueRange) {
    if (column.type == PhysicalType::kInt96) {
      return absl::InvalidArgumentError("INT96 has no sort order: no value range can prune it");
    }
    const size_t size = IndexBoundSize(column.type);
    for (const auto* bound : {&predicate.min, &predicate.max}) {
      if (*bound && size != 0 && (*bound)->size() != size) {
        return absl::InvalidArgumentError(absl::StrCat("a ", PhysicalTypeName(column.type).data(),
                                                       " bound of ", (*bound)->size(), " bytes (",
                                                       size, " expected)"));
      }
    }
  }
  std::vector<RowRange> ranges;
  if (num_rows <= 0) return ranges;
  if (!index.has_offset_index || !index.has_column_index || index.pages.empty()) {
    ranges.push_back(RowRange{0, num_rows});
    return ranges;
  }
  for (size_t i = 0; i < index.pages.size(); ++i) {
    const IndexedPage& page = index.pages[i];
    const int64_t begin = page.first_row_index;
    const int64_t end = i + 1 < index.pages.size() ? index.pages[i + 1].first_row_index : num_rows;
    if (begin < 0 || end > num_rows || begin > end) {
      return absl::InvalidArgumentError(absl::StrCat("page ", i, " covers rows ", begin, "..", end,
                                                     " of a row group of ", num_rows));
    }
    if (begin == end || !MayMatch(column, page, predicate)) continue;
    if (!ranges.empty() && ranges.back().end == begin) {
      ranges.back().end = end;
    } else {
      ranges.push_back(RowRange{begin, end});
    }
  }
  return ranges;
}

}  // namespace pqpage
