// Fuzz target: ArrowDictionaryColumns on arbitrary bytes as the Arrow IPC message of an
// ARROW:schema value (base64-encoded here, as a file stores it), against the Parquet schema of the
// sample. It must return the columns or DataLoss, never read outside the message or recurse
// without bound.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "arrow_schema_sample.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/arrow_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const pqpage::Schema schema = pqpage::testing::ArrowSchemaSampleColumns();
  const std::string message(reinterpret_cast<const char*>(data), size);
  const std::vector<pqpage::KeyValue> metadata = {
      {pqpage::kArrowSchemaKey, absl::Base64Escape(message)}};
  const auto columns = pqpage::ArrowDictionaryColumns(metadata, schema);
  if (!columns.ok() && columns.status().code() != absl::StatusCode::kDataLoss) {
    pqpage::fuzz::AbortWithMessage("not DataLoss: %s", columns.status().ToString().c_str());
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::string message;
  (void)absl::Base64Unescape(pqpage::testing::kArrowSchemaSample, &message);
  std::vector<std::vector<uint8_t>> seeds;
  seeds.emplace_back(message.begin(), message.end());
  // Without the continuation marker (the older framing).
  seeds.emplace_back(message.begin() + 4, message.end());
  return seeds;
}
