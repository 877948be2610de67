// How ORC's readers place a TIMESTAMP (not TIMESTAMP_INSTANT) value in time: its stored seconds
// count from 2015-01-01 00:00:00 in the stripe's writer timezone (StripeFooterInfo's
// writer_timezone), and a reader shows the same wall-clock time in its own zone. For a reader in
// UTC, as pyarrow reads and pqpage dump prints, that is the stored seconds plus the writer zone's
// epoch, plus the zone's UTC offset at that instant: a writer in US/Pacific stores a summer
// midnight an hour off from a winter one. A stripe without a writer timezone, a UTC one, and
// TIMESTAMP_INSTANT values need no adjustment.
//
// Errors: NotFound for a zone name the system's time zone database does not hold.
#ifndef PQPAGE_ORC_WRITER_TIMEZONE_H_
#define PQPAGE_ORC_WRITER_TIMEZONE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace pqpage::orc {

class WriterTimezone {
 public:
  // The zone named `name` (an IANA name such as "US/Pacific"); UTC for none.
  static absl::StatusOr<WriterTimezone> Load(const std::optional<std::string>& name);

  // The stored seconds of a TIMESTAMP value as seconds from the ORC epoch in UTC of the same wall
  // clock time: what TimestampNanos (pqpage/orc/stripe_columns.h) takes as `stored_seconds` to
  // give the nanoseconds ORC's readers give in UTC. None when the sum leaves int64.
  std::optional<int64_t> ToUtcStoredSeconds(int64_t stored_seconds) const;

 private:
  WriterTimezone(absl::TimeZone zone, int64_t epoch) : zone_(zone), epoch_(epoch) {}
  absl::TimeZone zone_;
  int64_t epoch_;  // 2015-01-01 00:00:00 in the zone, in seconds from 1970 UTC
};

}  // namespace pqpage::orc

#endif  // PQPAGE_ORC_WRITER_TIMEZONE_H_
