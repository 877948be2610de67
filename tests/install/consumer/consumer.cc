// Uses the installed library through its public headers only: a DELTA_BINARY_PACKED round trip,
// a dictionary round trip and a compressed buffer, which pull in every dependency the package
// config must provide.
#include <cstdint>
#include <vector>

#include "pqpage/compression.h"
#include "pqpage/delta_binary_packed.h"
#include "pqpage/dictionary.h"
#include "pqpage/types.h"

int main() {
  if (pqpage::EncodingName(pqpage::Encoding::kDeltaByteArray) != "DELTA_BYTE_ARRAY") return 1;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 1000; ++i) values.push_back(i * i - 500);
  pqpage::DeltaBinaryPackedEncoder<int64_t> delta_encoder;
  if (!delta_encoder.Put(values).ok()) return 7;
  const std::vector<uint8_t> delta = delta_encoder.Finish();
  pqpage::DeltaBinaryPackedDecoder<int64_t> delta_decoder;
  std::vector<int64_t> back(values.size());
  if (!delta_decoder.Reset(delta, 1000).ok() || !delta_decoder.Decode(absl::MakeSpan(back)).ok() ||
      back != values) {
    return 2;
  }
  pqpage::DictionaryEncoder<int64_t> dictionary_encoder;
  if (!dictionary_encoder.Put(values).ok()) return 3;
  const std::vector<uint8_t> indices = dictionary_encoder.FinishDataPage();
  pqpage::DictionaryDecoder<int64_t> dictionary_decoder;
  if (!dictionary_decoder.SetDictionary(dictionary_encoder.DictionaryPage(), 1000).ok() ||
      !dictionary_decoder.Reset(indices, 1000).ok() ||
      !dictionary_decoder.Decode(absl::MakeSpan(back)).ok() || back != values) {
    return 4;
  }
  std::vector<uint8_t> compressed;
  if (!pqpage::Compress(pqpage::Compression::kZstd, delta, &compressed).ok()) return 5;
  std::vector<uint8_t> inflated(delta.size());
  if (!pqpage::Decompress(pqpage::Compression::kZstd, compressed, absl::MakeSpan(inflated)).ok() ||
      inflated != delta) {
    return 6;
  }
  return 0;
}
