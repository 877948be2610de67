// The factory of the Parquet value codecs: the one place that knows which concrete class
// implements which encoding for which value type, and which encodings the format allows for which
// physical type. The interfaces it returns are pqpage/codec.h's.
#ifndef PQPAGE_CODEC_FACTORY_H_
#define PQPAGE_CODEC_FACTORY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "pqpage/codec.h"
#include "pqpage/column_descriptor.h"
#include "pqpage/types.h"

namespace pqpage {

// Whether the format lets values of physical type `type` be stored in `encoding`: PLAIN for every
// type; PLAIN_DICTIONARY and RLE_DICTIONARY for all but BOOLEAN; RLE for BOOLEAN;
// DELTA_BINARY_PACKED for INT32 and INT64; DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY;
// DELTA_BYTE_ARRAY for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY; BYTE_STREAM_SPLIT for FLOAT, DOUBLE,
// INT32, INT64 and FIXED_LEN_BYTE_ARRAY. BIT_PACKED holds levels only, never values.
bool EncodingAllowed(Encoding encoding, PhysicalType type);

// A new decoder or encoder of `encoding` for `column`'s values, with the codec's default options.
// Errors: InvalidArgument if T is not the value type of column.type (ValueTypeMatches), or the
// column is FIXED_LEN_BYTE_ARRAY without a positive type_length; Unimplemented if the encoding is
// not allowed for the column's type (EncodingAllowed).
//
// The codec made is the concrete class of the encoding's header, so code that needs more than the
// interface can name it: PlainDecoder<T>, RleBooleanDecoder (RLE booleans, with their 4-byte
// length prefix), DeltaBinaryPackedDecoder<T>, DeltaLengthByteArrayDecoder, DeltaByteArrayDecoder,
// ByteStreamSplitDecoder<T>, and likewise the encoders. Dictionary encodings (PLAIN_DICTIONARY and
// RLE_DICTIONARY alike) give a DictionaryDecoder<T> / DictionaryEncoder<T> (pqpage/dictionary.h),
// which have a dictionary besides the data pages: the decoder needs the chunk's dictionary
// (SetDictionary) before its first page, and the encoder's dictionary page is DictionaryPage();
// dynamic_cast<DictionaryDecoder<T>*> reaches them from the interface. (A writer that must fall
// back from a full dictionary, or set its limits, constructs DictionaryEncoder<T> itself.)
template <typename T>
absl::StatusOr<std::unique_ptr<Decoder<T>>> MakeDecoder(Encoding encoding,
                                                        const ColumnDescriptor& column);
template <typename T>
absl::StatusOr<std::unique_ptr<Encoder<T>>> MakeEncoder(Encoding encoding,
                                                        const ColumnDescriptor& column);

}  // namespace pqpage

#endif  // PQPAGE_CODEC_FACTORY_H_
