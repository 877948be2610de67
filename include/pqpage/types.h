// The vocabulary shared by every pqpage codec: Parquet's physical types and encodings (with the
// numeric ids the format assigns them), and the value types the codecs read and write.
//
// Error contract shared by every codec in include/pqpage/:
//   - absl::DataLossError         the encoded input is truncated, inconsistent or corrupt.
//   - absl::InvalidArgumentError  the caller asked for something impossible (a bit width out
//                                 of range, more values than are left, a value that does not
//                                 fit its width).
//   - absl::UnimplementedError    an encoding or type combination the format does not define.
//   - absl::ResourceExhaustedError a configured safety limit was reached (DELTA_BYTE_ARRAY's cap on
//                                 the bytes one page may decode to).
// A full dictionary is not an error: DictionaryEncoder::Put reports how many values it took and
// is_full() turns true, so the writer finishes the page and falls back to another encoding.
// No codec reads outside the spans it is given, whatever the input bytes say.
#ifndef PQPAGE_TYPES_H_
#define PQPAGE_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace pqpage {

// Parquet's physical types; the values are the format's Thrift enum ids.
enum class PhysicalType : int8_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

// Parquet's encodings; the values are the format's Thrift enum ids (1 is unused by the format).
enum class Encoding : int8_t {
  kPlain = 0,
  kPlainDictionary = 2,
  kRle = 3,
  kBitPacked = 4,
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
};

// The spec's name of a physical type or encoding ("INT32", "DELTA_BYTE_ARRAY"); "UNKNOWN"
// otherwise.
std::string_view PhysicalTypeName(PhysicalType type);
std::string_view EncodingName(Encoding encoding);
// The encoding a file's integer id names (as in FileMetaData's encoding_ids), or nullopt for an id
// the format does not define.
std::optional<Encoding> EncodingFromId(int32_t id);

// A BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value: a view of bytes owned elsewhere. Decoders say at
// their declaration how long the bytes they hand out stay valid.
struct ByteArray {
  const uint8_t* data = nullptr;
  uint32_t size = 0;

  ByteArray() = default;
  ByteArray(const uint8_t* bytes, uint32_t length) : data(bytes), size(length) {}
  // Views a string's bytes; the string must outlive the view.
  explicit ByteArray(std::string_view text)
      : data(reinterpret_cast<const uint8_t*>(text.data())),
        size(static_cast<uint32_t>(text.size())) {}

  std::string_view AsStringView() const {
    return std::string_view(reinterpret_cast<const char*>(data), size);
  }
  friend bool operator==(const ByteArray& a, const ByteArray& b) {
    return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
  }
};

// An INT96 value (deprecated by the format, still written for timestamps): 12 little-endian bytes.
struct Int96 {
  uint32_t words[3] = {0, 0, 0};
  friend bool operator==(const Int96& a, const Int96& b) {
    return a.words[0] == b.words[0] && a.words[1] == b.words[1] && a.words[2] == b.words[2];
  }
};
static_assert(sizeof(Int96) == 12, "INT96 is 12 bytes in PLAIN encoding");

}  // namespace pqpage

#endif  // PQPAGE_TYPES_H_
