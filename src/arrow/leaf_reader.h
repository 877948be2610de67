// One leaf column of a row group read row batch by row batch: its levels and its present values
// for exactly the rows asked for, whatever page boundaries lie between. A repeated column's last
// page read may run past the batch's rows; what it read beyond them is kept for the next batch.
#ifndef PQPAGE_SRC_ARROW_LEAF_READER_H_
#define PQPAGE_SRC_ARROW_LEAF_READER_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "arrow/arrow_buffer.h"
#include "common/uninitialized_vector.h"
#include "pqpage/column_chunk_reader.h"

namespace pqpage::arrow_internal {

// The levels and present values of one leaf for one batch of rows.
struct LeafBatch {
  // Levels, one per slot of the leaf (empty when the column has no such levels).
  // Uninitialised on growth: ReadMore grows them by the most a call may decode, then cuts.
  internal::UninitializedVector<int16_t> definitions;
  internal::UninitializedVector<int16_t> repetitions;
  int64_t levels = 0;
  // Instead of `definitions`, for a leaf read with `validity_bits`: bit i (LSB first) is set when
  // slot i holds a value. Its bits past `levels` are unspecified.
  ArrowBuffer validity;
  bool has_validity = false;
  // The present values, packed: fixed-width physical values (bool as one byte, INT96 as 12), or
  // for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY the values' bytes one after another, with each
  // value's length in `lengths`.
  ArrowBuffer values;
  internal::UninitializedVector<int32_t> lengths;
  int64_t count = 0;

  void Clear();
};

class LeafReader {
 public:
  // `value_bytes_per_row`: the value bytes a row is expected to hold (from the row group read
  // before, or the chunk's size statistics; 0 when unknown). It sizes the first batch's value
  // buffer, so that a byte array buffer is not regrown, and copied, page by page; the batches
  // after are sized by the ones before. Only a guess: a wrong one costs time, never a value.
  // `validity_bits`: the leaf's definition levels are wanted only as present or not (a top-level
  // nullable column without repetition, whose levels no other field reads): they are read as a
  // validity bitmap (LeafBatch::validity) instead of levels. Ignored for a column that has no
  // definition levels or has repetition levels.
  explicit LeafReader(ColumnChunkReader reader, double value_bytes_per_row = 0,
                      bool validity_bits = false);

  const ColumnDescriptor& column() const { return reader_.column(); }
  // The value bytes per row of the rows read so far (the guess given, until one held a value
  // byte).
  double value_bytes_per_row() const {
    return read_value_bytes_ > 0 ? read_value_bytes_ / static_cast<double>(read_rows_)
                                 : guessed_value_bytes_per_row_;
  }

  // Reads the next `rows` rows into `out` (cleared first).
  // @return OK; the reader's error; DataLoss when the chunk ends before `rows` rows.
  absl::Status ReadRows(int64_t rows, LeafBatch& out);

 private:
  absl::Status ReadRowsOnce(int64_t rows, LeafBatch& out);
  // Appends up to `max_levels` levels (and their values) to `out`.
  // @return the number of levels read, 0 at the end of the chunk.
  absl::StatusOr<int64_t> ReadMore(int64_t max_levels, LeafBatch& out);
  // Moves levels [from, out.levels) and their values from `out` to carry_.
  void KeepTail(int64_t from, LeafBatch& out);

  ColumnChunkReader reader_;
  LeafBatch carry_;
  double guessed_value_bytes_per_row_ = 0;
  // The rows ReadRows read, and their value bytes.
  int64_t read_rows_ = 0;
  double read_value_bytes_ = 0;
  bool validity_bits_ = false;
};

}  // namespace pqpage::arrow_internal

#endif  // PQPAGE_SRC_ARROW_LEAF_READER_H_
