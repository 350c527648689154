#include "args.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <bit>
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

// A range's end as the user would write it: a power of two from 2^20 up as 2^E (the shape flags'
// -2^40..2^40 reads so instead of as thirteen digits), anything else in digits.
std::string bound_text(std::int64_t v) {
  const std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  if (magnitude >= (std::uint64_t{1} << 20) && (magnitude & (magnitude - 1)) == 0)
    return std::string(v < 0 ? "-" : "") + "2^" + std::to_string(std::countr_zero(magnitude));
  return std::to_string(v);
}

}  // namespace

std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t lo, std::int64_t hi) {
  const std::string range = "[" + bound_text(lo) + ", " + bound_text(hi) + "]";
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

namespace {

// A word that is a flag: "--name", "--name=value", "-x"; not "-5" or "-0.5" (values).
bool looks_like_flag(const std::string& word) {
  return word.size() > 1 && word[0] == '-' && !std::isdigit(static_cast<unsigned char>(word[1])) && word[1] != '.';
}

// The command's flags and operands as a CLI11 subcommand writing into `out`. Every value flag
// keeps its text (ParsedArgs converts and range-checks it when asked: integers as digits or B^E);
// a repeated flag keeps its last value; words CLI11 does not recognise are left in remaining()
// and reported below in the lab's own words.
void declare(CLI::App& app, const CommandSpec& spec, ParsedArgs& out) {
  for (const FlagSpec& f : spec.flags) {
    if (f.value.empty()) {
      app.add_flag_callback("--" + f.name, [&out, name = f.name] { out.switches.insert(name); });
    } else {
      app.add_option_function<std::string>("--" + f.name, [&out, name = f.name](const std::string& v) {
           out.values[name] = v;
         })
          ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }
  // Every positional word, however many: an unknown flag's value must not read as one too many
  // operands, so the count is checked after the flags (parse, below).
  app.add_option("operands", out.positionals);
  app.allow_extras();
  app.set_help_flag();  // help is the lab's own (cli.cpp), asked for with --help or -h
}

// CLI11's complaint about a flag missing its value, in the lab's words ("--n needs a value").
std::string missing_value(const CLI::Error& e, const CommandSpec& spec) {
  const std::string what = e.what();
  for (const FlagSpec& f : spec.flags)
    if (!f.value.empty() && what.rfind("--" + f.name + ":", 0) == 0) return "--" + f.name + " needs a value";
  return what;
}

}  // namespace

ParsedArgs parse(const std::vector<std::string>& argv, const std::vector<CommandSpec>& commands) {
  if (argv.empty()) throw UsageError("missing command");
  ParsedArgs out;
  out.command = argv[0];
  const CommandSpec* spec = nullptr;
  for (const CommandSpec& c : commands)
    if (c.name == out.command) spec = &c;
  if (spec == nullptr) throw UsageError("unknown command '" + out.command + "'");

  // What follows `--` is another program's command line (sanitize): kept verbatim, never parsed.
  std::vector<std::string> words(argv.begin() + 1, argv.end());
  if (spec->passthrough) {
    const auto dashes = std::find(words.begin(), words.end(), "--");
    if (dashes != words.end()) {
      out.passthrough.assign(dashes + 1, words.end());
      words.erase(dashes, words.end());
    }
  }
  // A value flag followed by nothing or by another flag is missing its value: CLI11 would take the
  // next word, "--html" say, as the value. A value that starts with '-' is written --name=VALUE.
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.rfind("--", 0) != 0 || w.find('=') != std::string::npos) continue;
    const FlagSpec* f = spec->flag(w.substr(2));
    if (f == nullptr || f->value.empty()) continue;
    if (i + 1 == words.size()) throw UsageError(w + " needs a value");
    if (looks_like_flag(words[i + 1]))
      throw UsageError(w + " needs a value, got the flag " + words[i + 1] + " (a value that starts with - is written " + w +
                       "=VALUE)");
    ++i;  // its value
  }
  // --help or -h, whatever else the line holds, asks for usage and runs nothing.
  for (const std::string& w : words)
    if (w == "--help" || w == "-h") {
      out.help = true;
      return out;
    }

  CLI::App app{"", out.command};
  declare(app, *spec, out);
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 consumes from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ArgumentMismatch& e) {
    throw UsageError(missing_value(e, *spec));
  } catch (const CLI::ParseError& e) {
    throw UsageError(std::string(e.what()) + " (for '" + spec->name + "')");
  }
  // An empty value ("--family ''") would read as the flag's absence: everything, or the default.
  for (const auto& [flag, value] : out.values)
    if (value.empty()) throw UsageError("--" + flag + " needs a value, got an empty one");
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("--", 0) == 0 && extra.size() > 2)
      throw UsageError("unknown flag --" + extra.substr(2, extra.find('=') - 2) + " for '" + spec->name + "'");
    if (looks_like_flag(extra)) throw UsageError("unknown flag " + extra + " for '" + spec->name + "' (flags start with --)");
    throw UsageError("unexpected argument '" + extra + "' for '" + spec->name + "'");
  }
  if (static_cast<int>(out.positionals.size()) > spec->max_positionals)
    throw UsageError("unexpected argument '" + out.positionals[static_cast<std::size_t>(spec->max_positionals)] +
                     "' for '" + spec->name + "'");
  if (spec->passthrough && out.passthrough.empty())
    throw UsageError("'" + spec->name + "' needs a command after --");
  return out;
}

}  // namespace kl::cli
