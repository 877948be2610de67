#include "pqpage/orc/recode.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "common/status_context.h"
#include "pqpage/byte_source.h"
#include "pqpage/orc/file_writer.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/orc/stripe_columns.h"

namespace pqpage::orc {
namespace {

// `status` with `context` before its message, so the one-line error says where it happened.
absl::Status Prefixed(const std::string& context, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(context, status.message()));
}

// Statistics are all or nothing for the writer: the input's are copied only when it has them
// for every stripe and column.
bool HasAllStripeStatistics(const OrcFileReader& input) {
  if (input.num_stripe_statistics() != input.num_stripes()) return false;
  for (int s = 0; s < input.num_stripes(); ++s) {
    if (input.StripeStatistics(s).size() != input.types().size()) return false;
  }
  return true;
}

// Reads every stripe of `input` (at `in_path`) and writes it to `out_path`. Errors name the file
// at fault: the input's (whose messages already say the stripe) or the output's.
absl::Status WriteOutput(const OrcFileReader& input, const std::string& in_path,
                         const std::string& out_path, const OrcRecodeOptions& settings,
                         bool* created) {
  OrcWriterOptions options;
  options.compression = settings.compression;
  options.compression_block_size = settings.block_size;
  options.compression_level = settings.compression_level;
  options.file_version =
      settings.rle_version == 1 ? std::vector<uint32_t>{0, 11} : std::vector<uint32_t>{0, 12};
  // The copied statistics are in the state the input's writer version says.
  options.writer_version = input.writer_version();
  options.user_metadata = input.user_metadata();
  absl::StatusOr<std::unique_ptr<OrcFileWriter>> created_writer =
      OrcFileWriter::Create(out_path, input.types(), options);
  if (!created_writer.ok()) return internal::WithFileContext(created_writer.status(), out_path);
  OrcFileWriter& writer = **created_writer;
  *created = true;
  const std::string in_context = in_path + ": ";
  const bool stripe_statistics = settings.statistics && HasAllStripeStatistics(input);
  for (int s = 0; s < input.num_stripes(); ++s) {
    const std::string out_context = absl::StrCat("stripe ", s, ": ");
    absl::StatusOr<std::vector<ColumnValues>> columns = ReadStripeColumns(input, s);
    if (!columns.ok()) return Prefixed(in_context, columns.status());
    absl::StatusOr<StripeFooterInfo> footer = input.ReadStripeFooter(s);
    if (!footer.ok()) return Prefixed(in_context, footer.status());
    absl::StatusOr<EncodedStripe> encoded =
        EncodeStripeColumns(input.types(), *columns, settings.rle_version);
    if (!encoded.ok()) return internal::WithFileContext(encoded.status(), out_path, out_context);
    OrcStripeInput stripe;
    stripe.num_rows = input.stripes()[static_cast<size_t>(s)].num_rows;
    stripe.streams = encoded->streams;
    stripe.encodings = encoded->encodings;
    stripe.writer_timezone = footer->writer_timezone;
    if (stripe_statistics) stripe.statistics = input.StripeStatistics(s);
    absl::Status status = writer.WriteStripe(stripe);
    if (!status.ok()) return internal::WithFileContext(status, out_path, out_context);
  }
  const std::vector<std::string> file_statistics = input.FileStatistics();
  if (settings.statistics && file_statistics.size() == input.types().size()) {
    absl::Status status = writer.SetFileStatistics(file_statistics);
    if (!status.ok()) return internal::WithFileContext(status, out_path);
  }
  absl::Status status = writer.Close();
  if (!status.ok()) return internal::WithFileContext(status, out_path);
  return absl::OkStatus();
}

bool SameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Which part of two decodings of the same column differs, or "" when none does. The encodings
// may differ (that is the point of a recode); a PRESENT stream of all ones and none are the same.
std::string ColumnDifference(const ColumnValues& a, const ColumnValues& b) {
  if (a.kind != b.kind) return "kind";
  if (a.slots != b.slots || a.num_present != b.num_present) return "slot or present count";
  const auto all_present = [](const ColumnValues& c) {
    return std::all_of(c.present.begin(), c.present.end(), [](uint8_t p) { return p != 0; });
  };
  if (a.present.empty() || b.present.empty()) {
    if (!all_present(a) || !all_present(b)) return "nulls";
  } else if (a.present != b.present) {
    return "nulls";
  }
  if (a.integers != b.integers) return "integers";
  if (!SameBits(a.reals, b.reals)) return "floating point values";
  if (a.bytes != b.bytes || a.offsets != b.offsets) return "byte values";
  if (a.decimals != b.decimals || a.scales != b.scales) return "decimals";
  if (a.seconds != b.seconds || a.nanos != b.nanos) return "timestamps";
  return "";
}

absl::Status VerifyOutput(const OrcFileReader& input, const std::string& in_path,
                          const std::string& out_path) {
  absl::StatusOr<std::unique_ptr<OrcFileReader>> opened = OrcFileReader::Open(out_path);
  if (!opened.ok()) {
    return absl::DataLossError(
        absl::StrCat("verify: cannot read back: ", out_path, ": ", opened.status().message()));
  }
  const OrcFileReader& output = **opened;
  if (output.num_stripes() != input.num_stripes() || output.types() != input.types()) {
    return absl::DataLossError(absl::StrCat("verify: ", out_path, " has ", output.num_stripes(),
                                            " stripes and ", output.types().size(),
                                            " columns; the input ", input.num_stripes(), " and ",
                                            input.types().size(), " (or another schema)"));
  }
  for (int s = 0; s < input.num_stripes(); ++s) {
    absl::StatusOr<std::vector<ColumnValues>> want = ReadStripeColumns(input, s);
    if (!want.ok()) return Prefixed(absl::StrCat("verify: ", in_path, ": "), want.status());
    absl::StatusOr<std::vector<ColumnValues>> got = ReadStripeColumns(output, s);
    if (!got.ok()) {
      return absl::DataLossError(absl::StrCat("verify: ", out_path, ": ", got.status().message()));
    }
    for (size_t c = 0; c < want->size(); ++c) {
      const std::string difference = ColumnDifference((*got)[c], (*want)[c]);
      if (!difference.empty()) {
        return absl::DataLossError(absl::StrCat("verify: ", out_path, ": stripe ", s, ", column ",
                                                c, ": the ", difference,
                                                " differ from the input's"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

OrcRecodeOptions RecodeOptionsLike(const OrcFileReader& input) {
  OrcRecodeOptions options;
  options.compression = input.compression();
  options.block_size = input.compression_block_size();
  return options;
}

absl::Status RecodeOrcFile(const OrcFileReader& input, const std::string& in_name,
                           const std::string& out_path, const OrcRecodeOptions& options) {
  if (IsSameFile(in_name, out_path)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the output '", out_path, "' is the input file"));
  }
  bool created = false;
  absl::Status status = WriteOutput(input, in_name, out_path, options, &created);
  if (status.ok() && options.verify) status = VerifyOutput(input, in_name, out_path);
  if (!status.ok() && created) std::remove(out_path.c_str());
  return status;
}

}  // namespace pqpage::orc
