// Advise: each column's chunks measured (advise_measure.h), summed per policy, the peers that
// refuse each result, and the recommendation by ChooseSmallOrFast, the rule auto uses; and the
// writer options that apply the advice.
#include "pqpage/advise.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/add_if_absent.h"
#include "file/advise_measure.h"
#include "file/arrow_dictionaries.h"
#include "file/located_chunks.h"
#include "page/choice/encoding_measure.h"
#include "pqpage/status_macros.h"

namespace pqpage {
namespace {

// Decode times closer than this count as equal: timing noise on a busy machine is about that, and
// the earlier (or smaller) policy then wins, so the advice does not flip between runs.
constexpr double kSameSpeed = 0.05;

// A policy some peer refuses is advised only when every policy is refused by one; an Arrow
// dictionary column is advised only what Arrow reads into a dictionary; a policy that wrote what
// an earlier one did (same_as) is never advised. The rest go to the rule auto uses, with the
// measured decode times as costs. Advise's sizes are the whole column's real bytes, not a
// sample's prediction, so there is no slack in bytes as auto has.
size_t Recommend(const std::vector<PolicyTotal>& totals, double tie_margin, bool arrow_dictionary) {
  const bool some_readable =
      std::any_of(totals.begin(), totals.end(),
                  [](const PolicyTotal& total) { return total.refused_by.empty(); });
  std::vector<internal::SizeAndCost> contenders;
  std::vector<size_t> indices;
  for (size_t i = 0; i < totals.size(); ++i) {
    const PolicyTotal& total = totals[i];
    if (total.same_as || (some_readable && !total.refused_by.empty())) continue;
    if (arrow_dictionary && !ArrowDictionaryPolicy(total.policy)) continue;
    contenders.push_back({.stored_bytes = total.stored_bytes, .decode_cost = total.decode_seconds});
    indices.push_back(i);
  }
  if (contenders.empty()) return 0;  // not expected: PLAIN is always there, and not same_as
  return indices[internal::ChooseSmallOrFast(
      contenders,
      internal::TieRule{.margin = tie_margin, .slack_bytes = 0, .same_cost = kSameSpeed})];
}

// Codecs pqpage does not write are measured with their nearest writable one.
Compression WritableCodec(Compression codec) {
  if (codec == Compression::kLz4Hadoop) return Compression::kLz4Raw;
  if (codec == Compression::kLzo) return Compression::kSnappy;
  return codec;
}

absl::StatusOr<ColumnAdvice> AdviseColumn(const FileReader& file, int column,
                                          const AdviseOptions& options,
                                          const std::vector<std::string>& arrow_dictionaries,
                                          FileProgress* progress) {
  ColumnAdvice advice;
  const ColumnDescriptor& descriptor = file.schema().columns()[static_cast<size_t>(column)];
  advice.column = column;
  advice.path = descriptor.PathString();
  advice.type = descriptor.type;
  advice.logical_type = descriptor.logical_type.ToString();
  const int page_version = options.data_page_version;
  for (const Encoding encoding : WrittenValueEncodings(descriptor.type)) {
    advice.peers_refusing.emplace_back(encoding, PeersRefusing(encoding, descriptor, page_version));
    if (InteroperableEncoding(encoding, descriptor, page_version)) {
      advice.interoperable.push_back(encoding);
    }
  }
  advice.codec = Compression::kSnappy;
  if (options.compression) {
    advice.codec = *options.compression;
  } else if (file.num_row_groups() > 0) {
    PQPAGE_ASSIGN_OR_RETURN(ColumnChunkLocation first, file.LocateColumnChunk(0, column));
    advice.codec = WritableCodec(first.codec);
  }
  WriterOptions writer;
  writer.data_page_version = page_version;
  writer.compression = advice.codec;
  for (const EncodingPolicy policy : AdvisedPolicies()) {
    PolicyTotal total;
    total.policy = policy;
    advice.totals.push_back(std::move(total));
  }
  for (int rg = 0; rg < file.num_row_groups(); ++rg) {
    progress->row_group = rg;
    progress->column = column;
    if (options.on_progress) options.on_progress(*progress);
    PQPAGE_ASSIGN_OR_RETURN(ChunkMeasurement chunk,
                            internal::MeasureChunk(file, rg, column, writer));
    progress->bytes_done += chunk.stored_bytes;
    advice.current_bytes += chunk.stored_bytes;
    internal::AddIfAbsent(chunk.encodings, &advice.current_encodings);
    for (size_t i = 0; i < chunk.candidates.size(); ++i) {
      const PolicyMeasurement& result = chunk.candidates[i];
      PolicyTotal& total = advice.totals[i];
      total.stored_bytes += result.stored_bytes;
      total.decode_seconds += result.decode_seconds;
      total.decoded_value_bytes += result.decoded_value_bytes;
      internal::AddIfAbsent(result.encodings, &total.encodings);
      for (const Encoding encoding : result.value_encodings) {
        for (const PeerReader peer : PeersRefusing(encoding, descriptor, page_version)) {
          internal::AddIfAbsent(peer, &total.refused_by);
        }
      }
    }
    advice.chunks.push_back(std::move(chunk));
  }
  for (size_t i = 0; i < advice.totals.size(); ++i) {
    for (size_t j = 0; j < i && !advice.totals[i].same_as; ++j) {
      if (!advice.totals[j].same_as && advice.totals[j].encodings == advice.totals[i].encodings &&
          advice.totals[j].stored_bytes == advice.totals[i].stored_bytes) {
        advice.totals[i].same_as = advice.totals[j].policy;
      }
    }
  }
  advice.arrow_dictionary = std::find(arrow_dictionaries.begin(), arrow_dictionaries.end(),
                                      advice.path) != arrow_dictionaries.end();
  advice.recommended = Recommend(advice.totals, options.tie_margin, advice.arrow_dictionary);
  return advice;
}

// The most frequent value of `pick` over the columns; a value replaces the one kept only when its
// count passes the kept one's, so ties go to the value that reached the count first.
template <typename T, typename Pick>
T MostCommon(const std::vector<ColumnAdvice>& columns, Pick pick) {
  std::map<T, int> counts;
  std::optional<T> best;
  for (const ColumnAdvice& column : columns) {
    const T value = pick(column);
    const int count = ++counts[value];
    if (!best || count > counts[*best]) best = value;
  }
  return *best;
}

}  // namespace

int64_t FileAdvice::current_bytes() const {
  int64_t total = 0;
  for (const ColumnAdvice& column : columns) total += column.current_bytes;
  return total;
}

int64_t FileAdvice::advised_bytes() const {
  int64_t total = 0;
  for (const ColumnAdvice& column : columns) total += column.advised().stored_bytes;
  return total;
}

absl::StatusOr<FileAdvice> Advise(const FileReader& file, const AdviseOptions& options) {
  if (options.data_page_version != 1 && options.data_page_version != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("data page version 1 or 2, not ", options.data_page_version));
  }
  const std::vector<ColumnDescriptor>& descriptors = file.schema().columns();
  std::vector<int> selected;
  for (size_t c = 0; c < descriptors.size(); ++c) {
    if (!options.column || descriptors[c].PathString() == *options.column) {
      selected.push_back(static_cast<int>(c));
    }
  }
  if (options.column && selected.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no column '", *options.column, "' in ", file.name()));
  }
  FileProgress progress;
  progress.num_row_groups = file.num_row_groups();
  progress.num_columns = static_cast<int>(descriptors.size());
  PQPAGE_ASSIGN_OR_RETURN(
      const std::vector<internal::LocatedChunk> chunks,
      internal::LocateChunks(file, internal::AllIndices(file.num_row_groups()), selected));
  progress.total_bytes = internal::TotalLength(chunks);
  const std::vector<std::string> arrow_dictionaries =
      internal::ArrowDictionaryPaths(file, options.on_warning);
  FileAdvice advice;
  advice.num_row_groups = file.num_row_groups();
  advice.data_page_version = options.data_page_version;
  for (const int c : selected) {
    PQPAGE_ASSIGN_OR_RETURN(ColumnAdvice column,
                            AdviseColumn(file, c, options, arrow_dictionaries, &progress));
    advice.columns.push_back(std::move(column));
  }
  return advice;
}

WriterOptions AdvisedOptions(const FileAdvice& advice) {
  WriterOptions options;
  options.data_page_version = advice.data_page_version;
  if (advice.columns.empty()) return options;
  const auto policy_of = [](const ColumnAdvice& c) { return c.advised().policy; };
  const auto codec_of = [](const ColumnAdvice& c) { return c.codec; };
  options.encoding = MostCommon<EncodingPolicy>(advice.columns, policy_of);
  options.compression = MostCommon<Compression>(advice.columns, codec_of);
  for (const ColumnAdvice& column : advice.columns) {
    if (policy_of(column) != options.encoding) {
      options.column_overrides[column.path].encoding = policy_of(column);
    }
    if (codec_of(column) != options.compression) {
      options.column_overrides[column.path].compression = codec_of(column);
    }
  }
  return options;
}

}  // namespace pqpage
