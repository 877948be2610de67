// pqpage dump FILE.orc: the values of every ORC column that has one value per row at most (the
// primitive columns at the top level and the leaves of structs, not those under a list, map or
// union; a root of another type than struct is itself the one column, with the path ""), in the
// JSONL shape of shared/DUMP_FORMAT.md, so that the tests compare ORC files with a
// reference reader the way they compare Parquet files.
//
// ORC has no definition levels; they are rebuilt Parquet-style from the PRESENT streams: a row's
// level is how many of the leaf's ancestors below the root (and the leaf itself) are present,
// counted from the top, so max_def is the leaf's depth. A struct field has one slot per present
// slot of its struct (stripe_columns.h), which is why each level keeps its own slot counter.
//
// ReadStripeColumns decodes a whole stripe at once, so the file is read once, stripe by stripe,
// and every leaf's levels and values are collected before anything is printed (a file that fails
// half way prints nothing). Each leaf's text spills to a temporary file past 64 MiB
// (SpillBuffer), which keeps memory bounded on large files.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "cli/cli_args.h"
#include "cli/cli_dump_text.h"
#include "cli/cli_orc.h"
#include "cli/cli_str.h"
#include "pqpage/json_writer.h"
#include "pqpage/orc/file.h"
#include "pqpage/orc/metadata.h"
#include "pqpage/orc/stripe_columns.h"
#include "pqpage/orc/writer_timezone.h"
#include "pqpage/status_macros.h"

namespace pqpage::cli {
namespace {

constexpr char kCommand[] = "dump";

// A decimal's scale comes from the file; past this its text would only be zeros, and a hostile
// scale of a billion must not become a gigabyte of them.
constexpr int64_t kMaxDecimalScale = 1000;

bool IsCompound(orc::TypeKind kind) {
  return kind == orc::TypeKind::kStruct || kind == orc::TypeKind::kList ||
         kind == orc::TypeKind::kMap || kind == orc::TypeKind::kUnion;
}

// One column that is dumped: the chain of columns from the root's child down to the leaf.
struct Leaf {
  std::vector<uint32_t> chain;
  std::string path;
  std::unique_ptr<SpillBuffer> def_text = std::make_unique<SpillBuffer>();
  std::unique_ptr<SpillBuffer> value_text = std::make_unique<SpillBuffer>();
  std::unique_ptr<ArrayWriter> defs = std::make_unique<ArrayWriter>(def_text.get());
  std::unique_ptr<ArrayWriter> values = std::make_unique<ArrayWriter>(value_text.get());
};

// The leaves a dump prints, in column order: primitives whose ancestors are all structs.
std::vector<Leaf> FindLeaves(const std::vector<orc::OrcType>& types,
                             const std::vector<std::string>& paths) {
  std::vector<uint32_t> parent(types.size(), 0);
  for (size_t c = 0; c < types.size(); ++c) {
    for (uint32_t child : types[c].subtypes) {
      if (child < parent.size()) parent[child] = static_cast<uint32_t>(c);
    }
  }
  std::vector<Leaf> leaves;
  // A root that is not a struct (ORC's readers allow any type there) is itself the one column,
  // with one slot per row and an empty path.
  if (!types.empty() && !IsCompound(types[0].kind)) {
    Leaf leaf;
    leaf.chain = {0};
    leaves.push_back(std::move(leaf));
    return leaves;
  }
  for (uint32_t c = 1; c < types.size(); ++c) {
    if (IsCompound(types[c].kind)) continue;
    std::vector<uint32_t> chain = {c};
    bool under_structs = true;
    for (uint32_t up = parent[c]; up != 0; up = parent[up]) {
      if (types[up].kind != orc::TypeKind::kStruct) under_structs = false;
      chain.push_back(up);
    }
    if (!under_structs) continue;
    std::reverse(chain.begin(), chain.end());
    Leaf leaf;
    leaf.chain = std::move(chain);
    leaf.path = paths[c];
    leaves.push_back(std::move(leaf));
  }
  return leaves;
}

std::string DecimalText(absl::int128 unscaled, int64_t scale) {
  const bool negative = unscaled < 0;
  absl::uint128 magnitude = static_cast<absl::uint128>(unscaled);
  if (negative) magnitude = -magnitude;  // modulo 2^128, so the most negative value works too
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  std::reverse(digits.begin(), digits.end());
  if (scale > 0) {
    const size_t places = static_cast<size_t>(scale);
    if (digits.size() <= places) digits.insert(0, places + 1 - digits.size(), '0');
    digits.insert(digits.size() - places, ".");
  } else if (scale < 0) {
    digits.append(static_cast<size_t>(-scale), '0');
  }
  return negative ? "-" + digits : digits;
}

// Appends present value `i` of `column` as DUMP_FORMAT.md (and the ORC notes of the command's
// usage) show it; a TIMESTAMP as ORC's readers read it in UTC from the stripe's writer `zone`.
absl::Status AppendValue(const orc::ColumnValues& column, size_t i, const orc::WriterTimezone& zone,
                         SpillBuffer* buffer) {
  std::string& out = buffer->text();
  switch (column.kind) {
    case orc::TypeKind::kBoolean:
      out += column.integers.at(i) != 0 ? "true" : "false";
      return absl::OkStatus();
    case orc::TypeKind::kByte:
    case orc::TypeKind::kShort:
    case orc::TypeKind::kInt:
    case orc::TypeKind::kLong:
    case orc::TypeKind::kDate:
      absl::StrAppend(&out, column.integers.at(i));
      return absl::OkStatus();
    case orc::TypeKind::kFloat:
      // Stored as a float and widened exactly, so narrowing gives the float back.
      AppendFloat(static_cast<float>(column.reals.at(i)), &out);
      return absl::OkStatus();
    case orc::TypeKind::kDouble:
      AppendFloat(column.reals.at(i), &out);
      return absl::OkStatus();
    case orc::TypeKind::kString:
    case orc::TypeKind::kVarchar:
    case orc::TypeKind::kChar:
    case orc::TypeKind::kBinary: {
      if (i + 1 >= column.offsets.size()) return absl::DataLossError("value past the offsets");
      const std::string_view bytes = column.Bytes(static_cast<int64_t>(i));
      return AppendHex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), buffer);
    }
    case orc::TypeKind::kDecimal: {
      const int64_t scale = column.scales.at(i);
      if (scale < -kMaxDecimalScale || scale > kMaxDecimalScale) {
        return absl::DataLossError(absl::StrCat("decimal scale ", scale, " out of range"));
      }
      absl::StrAppend(&out, "\"", DecimalText(column.decimals.at(i), scale), "\"");
      return absl::OkStatus();
    }
    case orc::TypeKind::kTimestamp:
    case orc::TypeKind::kTimestampInstant: {
      int64_t seconds = column.seconds.at(i);
      if (column.kind == orc::TypeKind::kTimestamp) {
        const std::optional<int64_t> utc = zone.ToUtcStoredSeconds(seconds);
        if (!utc) return absl::OutOfRangeError(absl::StrCat("ORC timestamp of ", seconds, " s"));
        seconds = *utc;
      }
      PQPAGE_ASSIGN_OR_RETURN(const int64_t nanos,
                              orc::TimestampNanos(seconds, column.nanos.at(i)));
      absl::StrAppend(&out, nanos);
      return absl::OkStatus();
    }
    default:
      return absl::UnimplementedError(
          absl::StrCat("no dump form for ", Str(orc::TypeKindName(column.kind))));
  }
}

// Appends one stripe's levels and values of `leaf`.
absl::Status AppendStripe(const std::vector<orc::ColumnValues>& columns, uint64_t rows,
                          const orc::WriterTimezone& zone, Leaf* leaf) {
  const size_t depth = leaf->chain.size();
  for (uint32_t c : leaf->chain) {
    if (c >= columns.size()) return absl::DataLossError(absl::StrCat("no column ", c));
    const orc::ColumnValues& column = columns[c];
    if (!column.present.empty() && column.present.size() != static_cast<size_t>(column.slots)) {
      return absl::DataLossError(absl::StrCat("column ", c, " has ", column.present.size(),
                                              " present flags for ", column.slots, " slots"));
    }
  }
  const orc::ColumnValues& values = columns[leaf->chain.back()];
  std::vector<int64_t> slot(depth, 0);  // the next slot of each level
  size_t next_value = 0;
  for (uint64_t row = 0; row < rows; ++row) {
    size_t level = 0;
    for (; level < depth; ++level) {
      const orc::ColumnValues& column = columns[leaf->chain[level]];
      const int64_t at = slot[level]++;
      if (at >= column.slots) {
        return absl::DataLossError(absl::StrCat("column ", leaf->chain[level], " has ",
                                                column.slots,
                                                " slots, fewer than its parent needs"));
      }
      if (!column.present.empty() && column.present[static_cast<size_t>(at)] == 0) break;
    }
    absl::StrAppend(&leaf->defs->Next(), level);
    if (level == depth) {
      if (next_value >= static_cast<size_t>(values.num_present)) {
        return absl::DataLossError("more present slots than values");
      }
      leaf->values->Next();
      PQPAGE_RETURN_IF_ERROR(AppendValue(values, next_value++, zone, leaf->value_text.get()));
    }
    PQPAGE_RETURN_IF_ERROR(leaf->def_text->MaybeSpill());
    PQPAGE_RETURN_IF_ERROR(leaf->value_text->MaybeSpill());
  }
  return absl::OkStatus();
}

absl::Status PrintLeaf(const std::vector<orc::OrcType>& types, Leaf* leaf, FILE* out) {
  const std::string head =
      absl::StrCat("{\"path\":", JsonQuoted(leaf->path), ",\"type\":\"",
                   Str(orc::TypeKindName(types[leaf->chain.back()].kind)),
                   "\",\"max_def\":", leaf->chain.size(), ",\"max_rep\":0,\"def\":[");
  std::fputs(head.c_str(), out);
  PQPAGE_RETURN_IF_ERROR(leaf->def_text->CopyTo(out));
  std::fputs("],\"values\":[", out);
  PQPAGE_RETURN_IF_ERROR(leaf->value_text->CopyTo(out));
  std::fputs("]}\n", out);
  return absl::OkStatus();
}

}  // namespace

int DumpOrc(const std::string& path, const std::string& only_column, bool mmap) {
  absl::StatusOr<std::unique_ptr<orc::OrcFileReader>> opened = OpenOrc(path, mmap);
  if (!opened.ok()) return FailureExit(kCommand, opened.status());
  const orc::OrcFileReader& reader = **opened;
  const std::vector<orc::OrcType>& types = reader.types();
  std::vector<Leaf> leaves = FindLeaves(types, OrcColumnPaths(types));
  // A file with columns but none to print must not pass for an empty one.
  if (leaves.empty() && types.size() > 1) {
    return FailureExit(kCommand, absl::StrCat(path, ": every column is under a list, map or union,",
                                              " which dump does not print"));
  }
  if (!only_column.empty()) {
    std::erase_if(leaves, [&](const Leaf& leaf) { return leaf.path != only_column; });
    if (leaves.empty()) {
      return FailureExit(kCommand, absl::StrCat(path, ": no column '", only_column,
                                                "' outside lists, maps and unions"));
    }
  }
  const bool dumps_timestamps = std::any_of(leaves.begin(), leaves.end(), [&](const Leaf& leaf) {
    return types[leaf.chain.back()].kind == orc::TypeKind::kTimestamp;
  });
  for (int s = 0; s < reader.num_stripes(); ++s) {
    absl::StatusOr<std::vector<orc::ColumnValues>> columns = orc::ReadStripeColumns(reader, s);
    if (!columns.ok()) {
      // The library's message says the stripe and column.
      return FailureExit(kCommand, absl::StrCat(path, ": ", columns.status().message()));
    }
    const uint64_t rows = reader.stripes()[static_cast<size_t>(s)].num_rows;
    // The writer's zone only matters to TIMESTAMP columns (as in ORC's readers, a zone this
    // system does not know fails only those). ReadStripeColumns read the footer already; it is
    // small, so it is read again.
    absl::StatusOr<orc::WriterTimezone> zone = orc::WriterTimezone::Load(std::nullopt);
    if (dumps_timestamps) {
      absl::StatusOr<orc::StripeFooterInfo> footer = reader.ReadStripeFooter(s);
      zone = footer.ok() ? orc::WriterTimezone::Load(footer->writer_timezone)
                         : absl::StatusOr<orc::WriterTimezone>(footer.status());
    }
    if (!zone.ok()) {
      return FailureExit(kCommand,
                         absl::StrCat(path, ": stripe ", s, ": ", zone.status().message()));
    }
    for (Leaf& leaf : leaves) {
      absl::Status status = AppendStripe(*columns, rows, *zone, &leaf);
      if (!status.ok()) {
        return FailureExit(kCommand, absl::StrCat(path, ": stripe ", s, ": column '", leaf.path,
                                                  "': ", status.message()));
      }
    }
  }
  for (Leaf& leaf : leaves) {
    absl::Status status = PrintLeaf(types, &leaf, stdout);
    if (!status.ok()) return FailureExit(kCommand, status);
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    return FailureExit(kCommand, "cannot write the output");
  }
  return 0;
}

}  // namespace pqpage::cli
