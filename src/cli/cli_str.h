// A std::string copy of a std::string_view, for absl::StrCat and friends: they take
// absl::string_view, which Debian's Abseil keeps distinct from std::string_view.
#ifndef PQPAGE_CLI_CLI_STR_H_
#define PQPAGE_CLI_CLI_STR_H_

#include <string>
#include <string_view>

namespace pqpage::cli {

inline std::string Str(std::string_view text) { return std::string(text); }

}  // namespace pqpage::cli

#endif  // PQPAGE_CLI_CLI_STR_H_
