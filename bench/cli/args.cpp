#include "args.hpp"

#include <cctype>
#include <charconv>
#include <optional>
#include <string_view>

namespace kl::cli {

namespace {

// The whole of `text` as a decimal integer, or nullopt.
std::optional<std::int64_t> whole_integer(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// B^E with E >= 0 (the form the README and the reports use: 2^28, 10^9), or nullopt when the
// text is not of that form; `overflow` is set when the power does not fit in 64 bits.
std::optional<std::int64_t> power(std::string_view text, bool& overflow) {
  const auto caret = text.find('^');
  if (caret == std::string_view::npos) return std::nullopt;
  const auto base = whole_integer(text.substr(0, caret)), exponent = whole_integer(text.substr(caret + 1));
  if (!base || !exponent || *exponent < 0) return std::nullopt;
  // 0, 1 and -1 keep their magnitude at any exponent; every other base overflows 64 bits within
  // 63 multiplications, so the loop is short whatever the exponent (1^9999999999 included).
  if (*base == 0) return *exponent == 0 ? 1 : 0;
  if (*base == 1) return 1;
  if (*base == -1) return *exponent % 2 == 0 ? 1 : -1;
  std::int64_t value = 1;
  for (std::int64_t i = 0; i < *exponent; ++i) {
    if (__builtin_mul_overflow(value, *base, &value)) {
      overflow = true;
      return std::nullopt;
    }
  }
  return value;
}

}  // namespace

std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t lo, std::int64_t hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  bool overflow = false;
  std::optional<std::int64_t> value = whole_integer(text);
  if (!value) value = power(text, overflow);
  if (overflow) throw UsageError("--" + flag + " must be in " + range + ", got " + text + " (beyond 64 bits)");
  if (!value)
    throw UsageError("--" + flag + " expects an integer in " + range + " (digits, or B^E such as 2^28), got '" +
                     text + "'");
  if (*value < lo || *value > hi) throw UsageError("--" + flag + " must be in " + range + ", got " + text);
  return *value;
}

Dim2 parse_dim2(const std::string& flag, const std::string& text) {
  const auto x = text.find('x');
  constexpr std::int64_t hi = 1 << 20;  // the real per-block rule is checked by the launcher
  if (x == std::string::npos) return {static_cast<int>(parse_integer(flag, text, 1, hi)), 1};
  return {static_cast<int>(parse_integer(flag, text.substr(0, x), 1, hi)),
          static_cast<int>(parse_integer(flag, text.substr(x + 1), 1, hi))};
}

std::string ParsedArgs::text(const std::string& flag, const std::string& fallback) const {
  const auto it = values.find(flag);
  return it == values.end() ? fallback : it->second;
}

std::int64_t ParsedArgs::integer(const std::string& flag, std::int64_t fallback, std::int64_t lo,
                                 std::int64_t hi) const {
  const auto it = values.find(flag);
  return it == values.end() ? fallback : parse_integer(flag, it->second, lo, hi);
}

Dim2 ParsedArgs::dim2(const std::string& flag, Dim2 fallback) const {
  const auto it = values.find(flag);
  return it == values.end() ? fallback : parse_dim2(flag, it->second);
}

void ParsedArgs::require_only(const std::set<std::string>& allowed, const std::string& context) const {
  std::string names;
  for (const std::string& a : allowed) names += (names.empty() ? "--" : ", --") + a;
  auto check = [&](const std::string& flag) {
    if (!allowed.count(flag))
      throw UsageError("flag --" + flag + " does not apply to " + context + " (it takes " +
                       (names.empty() ? "no flags" : names) + ")");
  };
  for (const auto& [flag, value] : values) check(flag);
  for (const std::string& flag : switches) check(flag);
}

const FlagSpec* CommandSpec::flag(const std::string& wanted) const {
  for (const FlagSpec& f : flags)
    if (f.name == wanted) return &f;
  return nullptr;
}

ParsedArgs parse(const std::vector<std::string>& argv, const std::vector<CommandSpec>& commands) {
  if (argv.empty()) throw UsageError("missing command");
  ParsedArgs out;
  out.command = argv[0];
  const CommandSpec* spec = nullptr;
  for (const CommandSpec& c : commands)
    if (c.name == out.command) spec = &c;
  if (spec == nullptr) throw UsageError("unknown command '" + out.command + "'");

  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--" && spec->passthrough) {
      out.passthrough.assign(argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
      break;
    }
    if (arg == "--help" || arg == "-h") {  // whatever else the line holds, it asks for usage
      out.help = true;
      return out;
    }
    if (arg.rfind("--", 0) == 0 && arg.size() > 2) {
      std::string flag = arg.substr(2);
      std::string value;
      const auto eq = flag.find('=');
      const bool inline_value = eq != std::string::npos;
      if (inline_value) {
        value = flag.substr(eq + 1);
        flag = flag.substr(0, eq);
      }
      const FlagSpec* known = spec->flag(flag);
      if (known == nullptr) throw UsageError("unknown flag --" + flag + " for '" + spec->name + "'");
      if (known->value.empty()) {
        if (inline_value) throw UsageError("--" + flag + " takes no value");
        out.switches.insert(flag);
      } else {
        if (!inline_value) {
          if (i + 1 >= argv.size()) throw UsageError("--" + flag + " needs a value");
          value = argv[++i];
        }
        out.values[flag] = value;
      }
      continue;
    }
    if (arg.rfind("-", 0) == 0 && arg.size() > 1 && !std::isdigit(static_cast<unsigned char>(arg[1])))
      throw UsageError("unknown flag " + arg + " for '" + spec->name + "' (flags start with --)");
    if (static_cast<int>(out.positionals.size()) >= spec->max_positionals)
      throw UsageError("unexpected argument '" + arg + "' for '" + spec->name + "'");
    out.positionals.push_back(arg);
  }
  if (spec->passthrough && out.passthrough.empty())
    throw UsageError("'" + spec->name + "' needs a command after --");
  return out;
}

}  // namespace kl::cli
