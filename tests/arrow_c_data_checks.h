// Owning and walking Arrow C Data Interface structures in tests, with no Arrow library: owners
// that release what they hold, readers of validity bits, values, offsets and strings, and the
// shape every array of a schema must have (buffer and child counts, 64-byte alignment, null
// counts the bitmap confirms, offsets in order), checked recursively.
#ifndef PQPAGE_TESTS_ARROW_C_DATA_CHECKS_H_
#define PQPAGE_TESTS_ARROW_C_DATA_CHECKS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "pqpage/arrow_c_data.h"
#include "pqpage/file.h"
#include "pqpage/status_macros.h"

namespace pqpage::arrow_test {

// ---------------------------------------------------------------- owning the structures

struct OwnedStream {
  ArrowArrayStream s{};
  OwnedStream() = default;
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  ~OwnedStream() {
    if (s.release != nullptr) s.release(&s);
  }
};

struct OwnedSchema {
  ArrowSchema s{};
  OwnedSchema() = default;
  OwnedSchema(const OwnedSchema&) = delete;
  OwnedSchema& operator=(const OwnedSchema&) = delete;
  ~OwnedSchema() {
    if (s.release != nullptr) s.release(&s);
  }
};

// Movable, so batches can be kept in a vector (moving a C structure: copy it, clear the source's
// release).
struct OwnedArray {
  ArrowArray a{};
  OwnedArray() = default;
  OwnedArray(OwnedArray&& other) noexcept : a(other.a) { other.a.release = nullptr; }
  OwnedArray& operator=(OwnedArray&&) = delete;
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;
  ~OwnedArray() {
    if (a.release != nullptr) a.release(&a);
  }
};

inline absl::StatusOr<std::shared_ptr<const FileReader>> OpenShared(const std::string& path) {
  PQPAGE_ASSIGN_OR_RETURN(std::unique_ptr<FileReader> file, FileReader::Open(path));
  return std::shared_ptr<const FileReader>(std::move(file));
}

// Every batch of `stream` to its end; a failure of get_next is a test failure.
inline std::vector<OwnedArray> ReadAll(ArrowArrayStream& stream) {
  std::vector<OwnedArray> batches;
  for (int i = 0; i < 20000; ++i) {  // a bound, should a stream never end
    OwnedArray batch;
    const int status = stream.get_next(&stream, &batch.a);
    EXPECT_EQ(status, 0) << stream.get_last_error(&stream);
    if (status != 0 || batch.a.release == nullptr) break;
    batches.push_back(std::move(batch));
  }
  return batches;
}

// ---------------------------------------------------------------- reading the structures

// Stands in an `out` that get_next must overwrite.
inline void NeverReleased(ArrowArray* array) {
  ADD_FAILURE() << "a placeholder array was released";
}

inline bool Aligned(const void* buffer) { return reinterpret_cast<uintptr_t>(buffer) % 64 == 0; }

inline bool IsValid(const ArrowArray& array, int64_t i) {
  const auto* bits = static_cast<const uint8_t*>(array.buffers[0]);
  if (bits == nullptr) return true;
  const int64_t at = array.offset + i;
  return ((bits[at / 8] >> (at % 8)) & 1) != 0;
}

template <typename T>
T ValueAt(const ArrowArray& array, int buffer, int64_t i) {
  T value;
  std::memcpy(&value,
              static_cast<const uint8_t*>(array.buffers[buffer]) +
                  (array.offset + i) * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return value;
}

// Where list (or map) i's elements lie in its child, [begin, end).
inline std::pair<int64_t, int64_t> ListRange(const ArrowArray& array, int64_t i) {
  return {ValueAt<int32_t>(array, 1, i), ValueAt<int32_t>(array, 1, i + 1)};
}

inline std::string Utf8At(const ArrowArray& array, int64_t i) {
  const auto [begin, end] = ListRange(array, i);
  return std::string(static_cast<const char*>(array.buffers[2]) + begin,
                     static_cast<size_t>(end - begin));
}

// The buffers a format's layout has in the C Data Interface.
inline int64_t BufferCount(std::string_view format) {
  if (format == "+s") return 1;
  if (format == "u" || format == "z") return 3;
  if (format == "n") return 0;
  return 2;  // primitives: validity and values; "+l" and "+m": validity and offsets
}

// What holds for every array of any schema: buffer and child counts, 64-byte aligned buffers, a
// null count that the validity bitmap confirms, offsets that never decrease and stay inside the
// child, children that are not released; recursively.
inline void CheckArrayShape(const ArrowSchema& schema, const ArrowArray& array,
                            const std::string& where) {
  SCOPED_TRACE(where);
  const std::string_view format = schema.format;
  ASSERT_NE(array.release, nullptr);
  ASSERT_GE(array.length, 0);
  ASSERT_GE(array.offset, 0);
  ASSERT_EQ(array.n_buffers, BufferCount(format)) << format;
  ASSERT_EQ(array.n_children, schema.n_children);
  EXPECT_EQ(array.dictionary, nullptr);
  if (array.n_buffers > 0) ASSERT_NE(array.buffers, nullptr);
  for (int64_t b = 0; b < array.n_buffers; ++b) {
    if (array.buffers[b] != nullptr) EXPECT_TRUE(Aligned(array.buffers[b])) << "buffer " << b;
  }
  for (int64_t b = 1; b < array.n_buffers; ++b) {
    if (array.length > 0) EXPECT_NE(array.buffers[b], nullptr) << "buffer " << b;
  }
  if (array.buffers != nullptr && array.n_buffers > 0 && array.buffers[0] == nullptr) {
    EXPECT_EQ(array.null_count, 0);
  } else if (array.n_buffers > 0) {
    int64_t nulls = 0;
    for (int64_t i = 0; i < array.length; ++i) nulls += IsValid(array, i) ? 0 : 1;
    EXPECT_EQ(array.null_count, nulls);
  }
  if (format == "+l" || format == "+m" || format == "u" || format == "z") {
    if (array.length == 0) return;
    for (int64_t i = 0; i < array.length; ++i) {
      const auto [begin, end] = ListRange(array, i);
      ASSERT_GE(begin, 0);
      ASSERT_LE(begin, end) << "offset " << i;
    }
    if (format == "+l" || format == "+m") {
      ASSERT_EQ(array.n_children, 1);
      // Offsets count the child's own elements (its offset applies on top).
      ASSERT_LE(ListRange(array, array.length - 1).second, array.children[0]->length);
    }
  }
  if (format == "+s") {
    for (int64_t c = 0; c < array.n_children; ++c) {
      ASSERT_GE(array.children[c]->length, array.offset + array.length);
    }
  }
  for (int64_t c = 0; c < array.n_children; ++c) {
    ASSERT_NE(array.children[c], nullptr);
    CheckArrayShape(*schema.children[c], *array.children[c], absl::StrCat(where, "/", c));
  }
}

}  // namespace pqpage::arrow_test

#endif  // PQPAGE_TESTS_ARROW_C_DATA_CHECKS_H_
