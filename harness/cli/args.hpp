// Command-line parsing for kernel-lab. Host-only, so the host tier tests every error path.
#pragma once

#include "kl/geometry.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace kl::cli {

// Bad input from the user: printed with the usage hint, exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One flag of a command: what the parser accepts and what `kernel-lab help` prints, in one
// place, so help cannot omit a flag the parser takes.
struct FlagSpec {
  std::string name;   // without dashes
  std::string value;  // what --name takes, as help shows it ("N", "FILE"); empty: a switch
  std::string help;   // one line
};

// What a command needs beyond the host: help prints it, so a user knows before running.
enum class Needs { host, gpu, gpu_and_sanitizer };

struct CommandSpec {
  std::string name;
  std::vector<FlagSpec> flags;  // in the order help lists them
  int max_positionals = 0;
  bool passthrough = false;     // everything after `--` is kept verbatim
  std::string operands;         // help: the positionals, e.g. "<family.variant>"
  std::string summary;          // help: what the command does (lines end with '\n')
  Needs needs = Needs::host;

  const FlagSpec* flag(const std::string& name) const;
};

struct ParsedArgs {
  std::string command;
  std::vector<std::string> positionals;
  std::map<std::string, std::string> values;  // flag name without dashes -> text
  std::set<std::string> switches;
  std::vector<std::string> passthrough;
  bool help = false;  // --help or -h was given: print the command's usage, run nothing

  bool has(const std::string& flag) const { return values.count(flag) || switches.count(flag); }
  // The text of a value flag, or `fallback` when absent.
  std::string text(const std::string& flag, const std::string& fallback) const;
  // An integer flag in [lo, hi]; `fallback` when absent. Throws UsageError naming the rule.
  std::int64_t integer(const std::string& flag, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
  // A 2-D block "BXxBY" (or "B" for Bx1); `fallback` when absent.
  Dim2 dim2(const std::string& flag, Dim2 fallback) const;
  // Throws UsageError if a flag outside `allowed` was given (e.g. --m for an elementwise run).
  void require_only(const std::set<std::string>& allowed, const std::string& context) const;
};

// Parses argv (without the program name) against the known commands.
ParsedArgs parse(const std::vector<std::string>& argv, const std::vector<CommandSpec>& commands);

// Digits, or a power B^E (2^28, 10^9); throws UsageError naming the flag and the range.
std::int64_t parse_integer(const std::string& flag, const std::string& text, std::int64_t lo, std::int64_t hi);
Dim2 parse_dim2(const std::string& flag, const std::string& text);

}  // namespace kl::cli
