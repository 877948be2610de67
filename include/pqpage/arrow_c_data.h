// The Arrow C Data Interface and its stream form: the C structures through which pqpage hands
// columns to (and takes them from) any Arrow implementation, with no Arrow library linked. The
// layout is fixed by the interface's ABI; the guards let this header meet another copy of the same
// definitions (nanoarrow's, Arrow C++'s abi.h) in one translation unit.
//
// Ownership, in short: a producer fills a structure and sets `release`; the consumer calls
// `release` exactly once when done (moving a structure means copying it and setting the source's
// `release` to NULL). A released structure has `release == NULL`.
#ifndef PQPAGE_ARROW_C_DATA_H_
#define PQPAGE_ARROW_C_DATA_H_

#include <stdint.h>  // NOLINT(modernize-deprecated-headers): a C ABI header

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

// A type: its format string ("i" int32, "u" utf8, "+l" list, "tsu:UTC" ...), its field's name and
// metadata, and its children (a nested type's fields) or dictionary (a dictionary's value type).
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

// The values of one array of the type its ArrowSchema describes: buffers in the order the type's
// layout fixes (validity first; NULL when there are no nulls), children, dictionary.
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

// A sequence of arrays of one schema (record batches: struct arrays). Each callback returns 0 or an
// errno value; get_last_error describes the last failure (valid until the next call or release).
// get_next sets out->release to NULL at the end of the stream.
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE

#ifdef __cplusplus
}
#endif

#endif  // PQPAGE_ARROW_C_DATA_H_
