#include "arrow/leaf_reader.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "arrow/slot_kernels.h"
#include "pqpage/status_macros.h"
#include "pqpage/value_type.h"

namespace pqpage::arrow_internal {
namespace {

// Levels read per call for a repeated column, whose rows' level counts are not known ahead.
constexpr int64_t kRepeatedReadLevels = 4096;

template <typename T>
constexpr size_t ValueSize() {
  return sizeof(T);
}

}  // namespace

void LeafBatch::Clear() {
  definitions.clear();
  repetitions.clear();
  levels = 0;
  validity.Clear();
  has_validity = false;
  values.Clear();
  lengths.clear();
  count = 0;
}

LeafReader::LeafReader(ColumnChunkReader reader, double value_bytes_per_row, bool validity_bits)
    : reader_(std::move(reader)),
      guessed_value_bytes_per_row_(value_bytes_per_row),
      validity_bits_(validity_bits && reader_.column().max_definition_level > 0 &&
                     reader_.column().max_repetition_level == 0) {}

absl::StatusOr<int64_t> LeafReader::ReadMore(int64_t max_levels, LeafBatch& out) {
  const ColumnDescriptor& column = reader_.column();
  const bool has_def = column.max_definition_level > 0 && !validity_bits_;
  const bool has_rep = column.max_repetition_level > 0;
  const auto at = static_cast<size_t>(out.levels);
  const auto room = static_cast<size_t>(max_levels);
  if (has_def) out.definitions.resize(at + room);
  if (has_rep) out.repetitions.resize(at + room);
  if (validity_bits_) {
    out.has_validity = true;
    out.validity.ResizeUninitialized((at + room + 7) / 8);
  }
  absl::Span<int16_t> definitions =
      has_def ? absl::MakeSpan(out.definitions).subspan(at) : absl::Span<int16_t>();
  absl::Span<int16_t> repetitions =
      has_rep ? absl::MakeSpan(out.repetitions).subspan(at) : absl::Span<int16_t>();
  const absl::Span<uint8_t> validity = absl::MakeSpan(out.validity.data(), out.validity.size());
  const auto bit = static_cast<int64_t>(at);
  return VisitValueType(column.type, [&](auto tag) -> absl::StatusOr<int64_t> {
    using T = typename decltype(tag)::Type;
    BatchCounts counts;
    if constexpr (std::is_same_v<T, ByteArray>) {
      // Copied straight into the batch's value buffer (PLAIN pages without a view made).
      const size_t first = out.lengths.size();
      out.lengths.resize(first + room);
      const absl::Span<int32_t> lengths = absl::MakeSpan(out.lengths).subspan(first, room);
      auto reserve = [&out](size_t bytes) {
        const size_t used = out.values.size();
        out.values.ResizeUninitialized(used + bytes);
        return out.values.data() + used;
      };
      PQPAGE_ASSIGN_OR_RETURN(
          counts, validity_bits_
                      ? reader_.ReadByteArrayCopiesValidity(validity, bit, lengths, reserve)
                      : reader_.ReadByteArrayCopies(definitions, repetitions, lengths, reserve));
      out.lengths.resize(first + static_cast<size_t>(counts.values));
    } else {
      const size_t used = out.values.size();
      out.values.ResizeUninitialized(used + room * sizeof(T));
      const absl::Span<T> slots =
          absl::MakeSpan(reinterpret_cast<T*>(out.values.data() + used), room);
      PQPAGE_ASSIGN_OR_RETURN(counts, validity_bits_
                                          ? reader_.ReadBatchValidity<T>(validity, bit, slots)
                                          : reader_.ReadBatch<T>(definitions, repetitions, slots));
      out.values.Resize(used + static_cast<size_t>(counts.values) * sizeof(T));
    }
    out.levels += counts.levels;
    out.count += counts.values;
    if (has_def) out.definitions.resize(static_cast<size_t>(out.levels));
    if (has_rep) out.repetitions.resize(static_cast<size_t>(out.levels));
    return counts.levels;
  });
}

void LeafReader::KeepTail(int64_t from, LeafBatch& out) {
  const ColumnDescriptor& column = reader_.column();
  carry_.Clear();
  const auto begin = static_cast<size_t>(from);
  if (!out.definitions.empty()) {
    carry_.definitions.assign(out.definitions.begin() + from, out.definitions.end());
    out.definitions.resize(begin);
  }
  carry_.repetitions.assign(out.repetitions.begin() + from, out.repetitions.end());
  out.repetitions.resize(begin);
  carry_.levels = out.levels - from;
  out.levels = from;
  // The values of the levels kept: those at the maximum definition level.
  int64_t kept_values = 0;
  if (column.max_definition_level == 0) {
    kept_values = carry_.levels;
  } else {
    for (int16_t level : carry_.definitions) {
      kept_values += level == column.max_definition_level ? 1 : 0;
    }
  }
  const int64_t first_kept = out.count - kept_values;
  if (column.type == PhysicalType::kByteArray || column.type == PhysicalType::kFixedLenByteArray) {
    size_t kept_bytes = 0;
    for (int64_t i = first_kept; i < out.count; ++i) {
      kept_bytes += static_cast<size_t>(out.lengths[static_cast<size_t>(i)]);
    }
    const size_t cut = out.values.size() - kept_bytes;
    carry_.values.Append(out.values.data() + cut, kept_bytes);
    out.values.Resize(cut);
    carry_.lengths.assign(out.lengths.begin() + first_kept, out.lengths.end());
    out.lengths.resize(static_cast<size_t>(first_kept));
  } else {
    const size_t width = VisitValueType(
        column.type, [](auto tag) { return ValueSize<typename decltype(tag)::Type>(); });
    const size_t cut = static_cast<size_t>(first_kept) * width;
    carry_.values.Append(out.values.data() + cut, out.values.size() - cut);
    out.values.Resize(cut);
  }
  carry_.count = kept_values;
  out.count = first_kept;
}

absl::Status LeafReader::ReadRows(int64_t rows, LeafBatch& out) {
  absl::Status status = ReadRowsOnce(rows, out);
  if (status.ok()) {
    // The rows read so far, not the last batch alone: a batch of a few rows, nulls or empty
    // strings, must not make the next one take a whole row group. Until a value byte is seen
    // the guess stands (value_bytes_per_row).
    read_rows_ += rows;
    read_value_bytes_ += static_cast<double>(out.values.size());
  }
  return status;
}

absl::Status LeafReader::ReadRowsOnce(int64_t rows, LeafBatch& out) {
  out.Clear();
  // The batch before is the best guess of this one's size: reserving it spares the copies of a
  // buffer grown page by page (the buffer is handed out with the batch, so it starts empty).
  const auto expected_bytes =
      static_cast<size_t>(value_bytes_per_row() * static_cast<double>(rows) * (17.0 / 16.0));
  out.values.Reserve(expected_bytes);
  if (validity_bits_) out.validity.Reserve(static_cast<size_t>((rows + 7) / 8));
  const ColumnDescriptor& column = reader_.column();
  int64_t begun = 0;  // rows the batch holds (all of them complete, or the chunk ended)
  if (column.max_repetition_level == 0) {
    // A row is one level: ask for exactly the rows left.
    while (out.levels < rows) {
      PQPAGE_ASSIGN_OR_RETURN(const int64_t read, ReadMore(rows - out.levels, out));
      if (read == 0) break;
    }
    begun = out.levels;
  } else {
    std::swap(out, carry_);
    carry_.Clear();
    out.values.Reserve(out.values.size() + expected_bytes);
    // Rows begin at repetition level 0; the batch ends before the row after its last.
    int64_t scanned = 0;
    while (true) {
      int64_t passed = 0;
      scanned = FindRowStart(out.repetitions.data(), scanned, out.levels, rows - begun, &passed);
      begun += passed;
      if (scanned < out.levels) {  // the start of the row after the batch's last
        KeepTail(scanned, out);
        return absl::OkStatus();
      }
      PQPAGE_ASSIGN_OR_RETURN(const int64_t read,
                              ReadMore(std::max<int64_t>(kRepeatedReadLevels, rows), out));
      if (read == 0) break;
    }
  }
  if (begun == rows) return absl::OkStatus();
  return absl::DataLossError(absl::StrCat(column.PathString(), ": the column chunk ends after ",
                                          begun, " of ", rows, " rows"));
}

}  // namespace pqpage::arrow_internal
