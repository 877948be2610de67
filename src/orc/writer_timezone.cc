// WriterTimezone: absl's time zones (the system's zoneinfo) applied the way ORC's C++ reader
// adjusts a TIMESTAMP read in UTC.
#include "pqpage/orc/writer_timezone.h"

#include "absl/strings/str_cat.h"
#include "common/checked_math.h"
#include "pqpage/orc/stripe_columns.h"

namespace pqpage::orc {

absl::StatusOr<WriterTimezone> WriterTimezone::Load(const std::optional<std::string>& name) {
  absl::TimeZone zone = absl::UTCTimeZone();
  if (name && !name->empty() && !absl::LoadTimeZone(*name, &zone)) {
    return absl::NotFoundError(absl::StrCat("ORC: unknown writer timezone '", *name, "'"));
  }
  const absl::Time epoch = absl::FromCivil(absl::CivilSecond(2015, 1, 1, 0, 0, 0), zone);
  return WriterTimezone(zone, absl::ToUnixSeconds(epoch));
}

std::optional<int64_t> WriterTimezone::ToUtcStoredSeconds(int64_t stored_seconds) const {
  using ::pqpage::internal::CheckedAdd;
  const std::optional<int64_t> instant = CheckedAdd(stored_seconds, epoch_);
  if (!instant) return std::nullopt;
  // The wall clock of that instant in the writer's zone, read as UTC.
  const int64_t offset = zone_.At(absl::FromUnixSeconds(*instant)).offset;
  const std::optional<int64_t> wall = CheckedAdd(*instant, offset);
  if (!wall) return std::nullopt;
  return CheckedAdd(*wall, -kOrcTimestampEpochSeconds);
}

}  // namespace pqpage::orc
