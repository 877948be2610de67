// LookupValue and FindRows (pqpage/lookup.h).
#include "pqpage/lookup.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "page/read/sort_order.h"
#include "pqpage/bloom_filter.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage {
namespace {

// NaN for a FLOAT or DOUBLE value; zero (either sign) when `zero` is set.
bool FloatingIs(PhysicalType type, const std::string& value, bool zero) {
  if (type == PhysicalType::kFloat && value.size() == 4) {
    float f;
    std::memcpy(&f, value.data(), 4);
    return zero ? f == 0.0f : std::isnan(f);
  }
  if (type == PhysicalType::kDouble && value.size() == 8) {
    double d;
    std::memcpy(&d, value.data(), 8);
    return zero ? d == 0.0 : std::isnan(d);
  }
  return false;
}

// The value's other zero (-0.0 for 0.0 and back): both are one value, but hash apart.
std::string OtherZero(const std::string& value) {
  std::string other = value;
  other.back() = static_cast<char>(other.back() ^ 0x80);  // the sign bit, little-endian
  return other;
}

LookupCheck CheckStatistics(const ColumnDescriptor& column, const ColumnMetaData& meta,
                            const std::string& value, bool nan) {
  if (!meta.statistics.has_value()) return LookupCheck::kNone;
  const Statistics& stats = *meta.statistics;
  if (stats.null_count.has_value() && *stats.null_count == meta.num_values &&
      !stats.min_value.has_value()) {
    return LookupCheck::kRuledOut;  // nulls only
  }
  if (nan || internal::SortOrderOf(column) == internal::SortOrder::kNone ||
      !stats.min_value.has_value() || !stats.max_value.has_value()) {
    return LookupCheck::kNone;
  }
  if (internal::CompareEncodedValues(column, value, *stats.min_value) < 0 ||
      internal::CompareEncodedValues(column, value, *stats.max_value) > 0) {
    return LookupCheck::kRuledOut;
  }
  return LookupCheck::kMayHold;
}

// A row group's bloom filter and page index, each read once (when a value first needs it) for
// every value looked up; one that cannot be read is warned of once and counts as absent.
class GroupSources {
 public:
  GroupSources(const FileReader& file, int row_group, int column,
               const std::function<void(const std::string&)>& on_warning)
      : file_(file), row_group_(row_group), column_(column), on_warning_(on_warning) {}

  const BloomFilter* Filter() {
    if (!filter_read_) {
      filter_read_ = true;
      absl::StatusOr<std::optional<BloomFilter>> filter =
          file_.ReadBloomFilter(row_group_, column_);
      if (filter.ok()) {
        filter_ = *std::move(filter);
      } else if (on_warning_) {
        on_warning_(absl::StrCat(filter.status().message(), "; it is not used"));
      }
    }
    return filter_ ? &*filter_ : nullptr;
  }

  // The page index when it has both halves (pruning needs bounds and rows).
  const ChunkPageIndex* Index() {
    if (!index_read_) {
      index_read_ = true;
      absl::StatusOr<std::optional<ChunkPageIndex>> index =
          file_.ReadPageIndex(row_group_, column_);
      if (index.ok()) {
        if (*index && (*index)->has_offset_index && (*index)->has_column_index) {
          index_ = *std::move(index);
        }
      } else if (on_warning_) {
        on_warning_(absl::StrCat(index.status().message(), "; it is not used"));
      }
    }
    return index_ ? &*index_ : nullptr;
  }

 private:
  const FileReader& file_;
  int row_group_;
  int column_;
  const std::function<void(const std::string&)>& on_warning_;
  bool filter_read_ = false;
  std::optional<BloomFilter> filter_;
  bool index_read_ = false;
  std::optional<ChunkPageIndex> index_;
};

LookupCheck CheckBloomFilter(GroupSources& sources, const std::string& value, bool zero) {
  const BloomFilter* filter = sources.Filter();
  if (filter == nullptr) return LookupCheck::kNone;
  const bool may_hold = filter->MayContainHash(BloomFilter::Hash(value)) ||
                        (zero && filter->MayContainHash(BloomFilter::Hash(OtherZero(value))));
  return may_hold ? LookupCheck::kMayHold : LookupCheck::kRuledOut;
}

// Narrows `group->rows` to the pages whose bounds may hold the value.
void CheckPageIndex(const ColumnDescriptor& column, GroupSources& sources, const std::string& value,
                    bool nan, RowGroupLookup* group,
                    const std::function<void(const std::string&)>& on_warning) {
  group->page_index = LookupCheck::kNone;
  if (nan || internal::SortOrderOf(column) == internal::SortOrder::kNone) return;
  const ChunkPageIndex* index = sources.Index();
  if (index == nullptr) return;
  ColumnPredicate predicate;
  predicate.min = value;
  predicate.max = value;
  absl::StatusOr<std::vector<RowRange>> rows =
      RowsThatMayMatch(column, *index, group->num_rows, predicate);
  if (!rows.ok()) {
    if (on_warning) on_warning(absl::StrCat(rows.status().message(), "; the index is not used"));
    return;
  }
  const std::vector<IndexedPage>& pages = index->pages;
  group->pages = static_cast<int64_t>(pages.size());
  group->pages_may_hold = 0;
  for (size_t p = 0; p < pages.size(); ++p) {
    const int64_t begin = pages[p].first_row_index;
    const int64_t end = p + 1 < pages.size() ? pages[p + 1].first_row_index : group->num_rows;
    for (const RowRange& range : *rows) {
      if (range.begin < end && begin < range.end) {
        ++group->pages_may_hold;
        break;
      }
    }
  }
  group->rows = *std::move(rows);
  group->page_index = group->rows.empty() ? LookupCheck::kRuledOut : LookupCheck::kMayHold;
}

// Whether `stored` equals the looked-for bytes, in the column's equality.
template <typename T>
bool Matches(const T& stored, const std::string& value) {
  if constexpr (std::is_same_v<T, ByteArray>) {
    return stored.size == value.size() &&
           (stored.size == 0 || std::memcmp(stored.data, value.data(), stored.size) == 0);
  } else if constexpr (std::is_same_v<T, bool>) {
    return value.size() == 1 && stored == (value[0] != 0);
  } else if constexpr (std::is_floating_point_v<T>) {
    T wanted;
    std::memcpy(&wanted, value.data(), sizeof(T));
    return stored == wanted || (std::isnan(stored) && std::isnan(wanted));
  } else {
    return std::memcmp(&stored, value.data(), sizeof(T)) == 0;
  }
}

template <typename T>
absl::Status FindInRowGroup(const FileReader& file, int column, const RowGroupLookup& group,
                            const std::string& value, int64_t first_row,
                            const std::function<void(const std::string&)>& on_warning,
                            std::vector<int64_t>* found) {
  PQPAGE_ASSIGN_OR_RETURN(
      ColumnChunkReader reader,
      OpenColumnChunkRanges(file, group.row_group, column, group.rows, on_warning));
  const ColumnDescriptor& descriptor = reader.column();
  constexpr size_t kBatch = 4096;
  std::vector<int16_t> def(kBatch);
  std::vector<int16_t> rep(kBatch);
  std::conditional_t<std::is_same_v<T, bool>, std::unique_ptr<bool[]>, std::vector<T>> values;
  if constexpr (std::is_same_v<T, bool>) {
    values = std::make_unique<bool[]>(kBatch);
  } else {
    values.resize(kBatch);
  }
  const absl::Span<T> value_span(&values[0], kBatch);
  while (true) {
    PQPAGE_ASSIGN_OR_RETURN(
        const BatchCounts counts,
        reader.template ReadBatch<T>(absl::MakeSpan(def), absl::MakeSpan(rep), value_span));
    if (counts.levels == 0) break;
    // A batch holds consecutive rows, ending before current_row(); its first level may go on
    // with a row begun in the batch before.
    int64_t begun = counts.levels;
    if (descriptor.max_repetition_level > 0) {
      begun = std::count(rep.begin(), rep.begin() + counts.levels, int16_t{0});
    }
    int64_t row = reader.current_row() - begun - 1;
    int64_t v = 0;
    for (int64_t i = 0; i < counts.levels; ++i) {
      if (descriptor.max_repetition_level == 0 || rep[i] == 0) ++row;
      if (descriptor.max_definition_level > 0 && def[i] != descriptor.max_definition_level) {
        continue;
      }
      if (Matches<T>(value_span[v++], value) &&
          (found->empty() || found->back() != first_row + row)) {
        found->push_back(first_row + row);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view LookupCheckName(LookupCheck check) {
  switch (check) {
    case LookupCheck::kNotRun:
      return "not run";
    case LookupCheck::kNone:
      return "none";
    case LookupCheck::kMayHold:
      return "may hold";
    case LookupCheck::kRuledOut:
      return "ruled out";
  }
  return "unknown";
}

absl::StatusOr<std::vector<ValueLookup>> LookupValues(
    const FileReader& file, int column, const std::vector<std::string>& values,
    const std::function<void(const std::string&)>& on_warning) {
  const std::vector<ColumnDescriptor>& columns = file.schema().columns();
  if (column < 0 || static_cast<size_t>(column) >= columns.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no column ", column, " in ", file.name(), " (", columns.size(), " columns)"));
  }
  const ColumnDescriptor& descriptor = columns[static_cast<size_t>(column)];
  const size_t size = IndexBoundSize(descriptor.type);
  std::vector<ValueLookup> lookups(values.size());
  for (size_t v = 0; v < values.size(); ++v) {
    const std::string& value = values[v];
    if ((size != 0 && value.size() != size) ||
        (descriptor.type == PhysicalType::kFixedLenByteArray &&
         value.size() != static_cast<size_t>(descriptor.type_length))) {
      return absl::InvalidArgumentError(absl::StrCat("a value of ", value.size(), " bytes for ",
                                                     PhysicalTypeName(descriptor.type).data(),
                                                     " column '", descriptor.PathString(), "'"));
    }
    lookups[v].column = column;
    lookups[v].value = value;
  }
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    // A chunk that cannot be read at all (an encrypted one without its key) is the error, before
    // its filter and index are warned of as unreadable.
    if (absl::Status located = file.LocateColumnChunk(rg, column).status();
        located.code() == absl::StatusCode::kPermissionDenied) {
      return located;
    }
    GroupSources sources(file, rg, column, on_warning);
    const std::optional<ColumnMetaData>& meta = file.metadata()
                                                    .row_groups[static_cast<size_t>(rg)]
                                                    .columns[static_cast<size_t>(column)]
                                                    .meta_data;
    for (ValueLookup& lookup : lookups) {
      const bool nan = FloatingIs(descriptor.type, lookup.value, /*zero=*/false);
      const bool zero = FloatingIs(descriptor.type, lookup.value, /*zero=*/true);
      RowGroupLookup group;
      group.row_group = rg;
      group.num_rows = file.row_group_num_rows(rg);
      group.statistics = meta.has_value() ? CheckStatistics(descriptor, *meta, lookup.value, nan)
                                          : LookupCheck::kNone;
      if (group.statistics != LookupCheck::kRuledOut) {
        group.bloom_filter = CheckBloomFilter(sources, lookup.value, zero);
      }
      if (group.statistics != LookupCheck::kRuledOut &&
          group.bloom_filter != LookupCheck::kRuledOut) {
        if (group.num_rows > 0) group.rows.push_back(RowRange{0, group.num_rows});
        CheckPageIndex(descriptor, sources, lookup.value, nan, &group, on_warning);
      }
      lookup.row_groups.push_back(std::move(group));
    }
  }
  return lookups;
}

absl::StatusOr<ValueLookup> LookupValue(const FileReader& file, int column, std::string_view value,
                                        const std::function<void(const std::string&)>& on_warning) {
  PQPAGE_ASSIGN_OR_RETURN(std::vector<ValueLookup> lookups,
                          LookupValues(file, column, {std::string(value)}, on_warning));
  return std::move(lookups[0]);
}

absl::StatusOr<std::vector<int64_t>> FindRows(
    const FileReader& file, const ValueLookup& lookup,
    const std::function<void(const std::string&)>& on_warning) {
  std::vector<int64_t> found;
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(lookup.column)];
  int64_t first_row = 0;
  for (const RowGroupLookup& group : lookup.row_groups) {
    if (!group.rows.empty()) {
      PQPAGE_RETURN_IF_ERROR(VisitValueType(descriptor.type, [&](auto tag) {
        return FindInRowGroup<typename decltype(tag)::Type>(
            file, lookup.column, group, lookup.value, first_row, on_warning, &found);
      }));
    }
    first_row += group.num_rows;
  }
  return found;
}

}  // namespace pqpage
