#include "cli/cli_args.h"

#include <charconv>
#include <cstdio>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace pqpage::cli {
namespace {

const OptionSpec* FindSpec(const std::vector<OptionSpec>& specs, std::string_view name) {
  for (const OptionSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// Messages can carry text from a damaged file (or a multi-line status); the tool promises one
// line per error, so line breaks and other control bytes are shown escaped.
std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\n' || byte == '\r' || byte == '\t') {
      out.push_back(' ');
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", byte);
      out += escaped;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

bool ParsedArgs::Has(std::string_view name) const { return options_.find(name) != options_.end(); }

std::optional<std::string> ParsedArgs::Value(std::string_view name) const {
  auto it = options_.find(name);
  if (it == options_.end()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::Values(std::string_view name) const {
  auto it = options_.find(name);
  if (it == options_.end()) return {};
  return it->second;
}

absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<OptionSpec>& specs) {
  static const OptionSpec kHelp{"help", false};
  ParsedArgs parsed;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg[0] != '-') {
      // "-" alone is a positional argument, as tools usually treat it.
      parsed.positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    if (arg == "-h") {
      parsed.options_["help"].push_back("");
      continue;
    }
    if (arg[1] != '-') {
      return absl::InvalidArgumentError(absl::StrCat("unknown option '", arg, "'"));
    }
    std::string_view body = std::string_view(arg).substr(2);
    std::optional<std::string> inline_value;
    if (size_t equals = body.find('='); equals != std::string_view::npos) {
      inline_value = std::string(body.substr(equals + 1));
      body = body.substr(0, equals);
    }
    const OptionSpec* spec = body == "help" ? &kHelp : FindSpec(specs, body);
    if (spec == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown option '--", std::string(body), "'"));
    }
    if (!spec->takes_value) {
      if (inline_value && spec->inline_value_allowed) {
        parsed.options_[spec->name].push_back(*std::move(inline_value));
        continue;
      }
      if (inline_value) {
        return absl::InvalidArgumentError(
            absl::StrCat("option '--", std::string(body), "' takes no value"));
      }
      parsed.options_[spec->name].push_back("");
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("option '--", std::string(body), "' needs a value"));
      }
      inline_value = args[++i];
    }
    parsed.options_[spec->name].push_back(*std::move(inline_value));
  }
  return parsed;
}

absl::StatusOr<int64_t> ParseByteSizeOption(std::string_view option_view, std::string_view text,
                                            int64_t min, int64_t max) {
  const std::string option(option_view);
  std::string digits(text);
  int64_t unit = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        unit = int64_t{1} << 10;
        break;
      case 'M':
      case 'm':
        unit = int64_t{1} << 20;
        break;
      case 'G':
      case 'g':
        unit = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (unit != 1) digits.pop_back();
  }
  absl::StatusOr<int64_t> count =
      ParseIntegerOption(option, digits, 0, std::numeric_limits<int64_t>::max());
  if (!count.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "option '--", option, "' needs a size in bytes (K, M, G suffixes allowed), not '",
        std::string(text), "'"));
  }
  const int64_t bytes = *count > max / unit ? max + 1 : *count * unit;
  if (bytes < min || bytes > max) {
    return absl::InvalidArgumentError(absl::StrCat("option '--", option, "' must be between ", min,
                                                   " and ", max, " bytes, not ",
                                                   std::string(text)));
  }
  return bytes;
}

absl::StatusOr<int64_t> ParseIntegerOption(std::string_view option_view, std::string_view text,
                                           int64_t min, int64_t max) {
  // absl::StrCat here takes absl::string_view, which Debian's Abseil keeps distinct from std's.
  const std::string option(option_view);
  int64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  // from_chars rejects a leading '+'; people write it, so it is allowed here.
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, error] = std::from_chars(begin, end, value);
  if (text.empty() || error != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(
        absl::StrCat("option '--", option, "' needs an integer, not '", std::string(text), "'"));
  }
  if (value < min || value > max) {
    return absl::InvalidArgumentError(absl::StrCat("option '--", option, "' must be between ", min,
                                                   " and ", max, ", not ", value));
  }
  return value;
}

int UsageError(std::string_view command, std::string_view message) {
  std::fprintf(stderr, "pqpage %.*s: %s\nrun 'pqpage %.*s --help' for usage\n",
               static_cast<int>(command.size()), command.data(), OneLine(message).c_str(),
               static_cast<int>(command.size()), command.data());
  return 2;
}

int UsageError(std::string_view command, const absl::Status& status) {
  return UsageError(command, std::string(status.message()));
}

int FailureExit(std::string_view command, std::string_view message) {
  std::fflush(stdout);
  std::fprintf(stderr, "pqpage %.*s: %s\n", static_cast<int>(command.size()), command.data(),
               OneLine(message).c_str());
  return 1;
}

int FailureExit(std::string_view command, const absl::Status& status) {
  return FailureExit(command, std::string(status.message()));
}

}  // namespace pqpage::cli
