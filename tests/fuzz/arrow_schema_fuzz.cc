// Fuzz target: ParseStoredArrowSchema and ArrowDictionaryColumns on arbitrary bytes as the Arrow
// IPC message of an ARROW:schema value (base64-encoded here, as a file stores it), the latter
// against the Parquet schema of the sample. Each must answer or return DataLoss, never read
// outside the message, recurse without bound or allocate beyond a multiple of the input.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "arrow_schema_sample.h"
#include "file/stored_arrow_schema.h"
#include "fuzz/fuzz_harness.h"
#include "fuzz/fuzz_seeds.h"
#include "pqpage/arrow_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const pqpage::Schema schema = pqpage::testing::ArrowSchemaSampleColumns();
  const std::string message(reinterpret_cast<const char*>(data), size);
  const std::vector<pqpage::KeyValue> metadata = {
      {pqpage::kArrowSchemaKey, absl::Base64Escape(message)}};
  const auto fields = pqpage::ParseStoredArrowSchema(metadata);
  if (!fields.ok() && fields.status().code() != absl::StatusCode::kDataLoss) {
    pqpage::fuzz::AbortWithMessage("not DataLoss: %s", fields.status().ToString().c_str());
  }
  const auto columns = pqpage::ArrowDictionaryColumns(metadata, schema);
  // One parser under both: they agree on whether the message is readable.
  if (fields.ok() != columns.ok()) {
    pqpage::fuzz::AbortWithMessage("ParseStoredArrowSchema and ArrowDictionaryColumns disagree");
  }
  if (!columns.ok() && columns.status().code() != absl::StatusCode::kDataLoss) {
    pqpage::fuzz::AbortWithMessage("not DataLoss: %s", columns.status().ToString().c_str());
  }
  return 0;
}

std::vector<std::vector<uint8_t>> PqpageFuzzSeeds() {
  std::vector<std::vector<uint8_t>> seeds;
  for (const char* sample :
       {pqpage::testing::kArrowSchemaSample, pqpage::testing::kArrowSchemaManyTypes,
        pqpage::testing::kArrowSchemaMoreTypes}) {
    std::string message;
    (void)absl::Base64Unescape(sample, &message);
    seeds.emplace_back(message.begin(), message.end());
    // Without the continuation marker (the older framing).
    seeds.emplace_back(message.begin() + 4, message.end());
  }
  return seeds;
}
