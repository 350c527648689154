// `kernel-lab sanitize`, `expect` and `repro`: compute-sanitizer as a checker whose verdict is a
// test result. A missing tool is an error (exit 2), never a pass.
#include "cli.hpp"
#include "sanitizer.hpp"

#include "kl/registry.hpp"

#include <ostream>
#include <regex>
#include <unistd.h>

namespace kl::cli {
namespace {

std::string require_sanitizer() {
  const std::optional<std::string> path = find_compute_sanitizer();
  if (!path) throw std::invalid_argument(missing_sanitizer_message());
  return *path;
}

struct Verdict {
  bool tool_ran = false;
  bool pattern_found = false;
  // Hazards/errors the tool counted: "ERROR SUMMARY: N errors" (memcheck, synccheck, initcheck)
  // or "RACECHECK SUMMARY: N hazards displayed" (racecheck, warnings included); -1 if absent.
  int error_count = -1;
};

Verdict judge(const std::string& output, const std::string& pattern) {
  Verdict v;
  v.tool_ran = output.find("COMPUTE-SANITIZER") != std::string::npos;
  v.pattern_found = std::regex_search(output, std::regex(pattern));
  std::smatch m;
  if (std::regex_search(output, m, std::regex(R"(RACECHECK SUMMARY: ([0-9]+) hazard)")) ||
      std::regex_search(output, m, std::regex(R"(ERROR SUMMARY: ([0-9]+) error)")))
    v.error_count = std::stoi(m[1]);
  return v;
}

// Runs the planted finding's case (or its fix's) under its tool and reports the verdict.
// `variant` (optional) points the same positive check at another variant, to show it can fail.
int check_finding(const std::string& repro, bool against_fix, const std::string& variant, bool show_command,
                  std::ostream& out) {
  const PlantedFinding planted = find_planted(repro);
  const ExpectedFinding& f = *planted.finding;
  const std::string tool(to_string(f.checker));
  if (!variant.empty()) find_info(variant);  // unknown ids are bad input (exit 2)
  const std::string target = against_fix ? f.fixed_by : variant.empty() ? planted.variant->id() : variant;
  if (target.empty()) throw std::invalid_argument("finding '" + repro + "' names no fixed variant");

  std::vector<std::string> cmd = sanitizer_command(require_sanitizer(), tool);
  cmd.insert(cmd.end(), {self_executable(), "run", target});
  cmd.insert(cmd.end(), f.run_args.begin(), f.run_args.end());
  if (show_command) out << "command: " << shell_join(cmd) << "\n";
  const Captured run = run_captured(cmd);
  out << run.output;
  if (run.output.empty() || run.output.back() != '\n') out << "\n";

  const Verdict v = judge(run.output, f.report_pattern);
  if (!v.tool_ran) {
    out << "kernel-lab: " << tool << " did not run (exit " << run.exit_code << "): no verdict\n";
    return 2;
  }
  if (!against_fix) {
    if (v.pattern_found) {
      out << "expected finding reproduced: " << tool << " reported /" << f.report_pattern << "/ on " << target
          << " (" << v.error_count << " error(s))\n";
      return 0;
    }
    out << "MISSED: " << tool << " stayed silent on " << target << " (checking " << repro << "): /" << f.report_pattern
        << "/ not in its report\n";
    return 1;
  }
  if (!v.pattern_found && v.error_count == 0) {
    out << "checker can fail: " << tool << " stayed silent on " << target << " (/" << f.report_pattern
        << "/ absent, 0 errors), the fix for " << planted.variant->id() << "\n";
    return 0;
  }
  out << "NOT CLEAN: " << tool << " reported errors on " << target << ", the variant that should fix "
      << planted.variant->id() << "\n";
  return 1;
}

}  // namespace

int cmd_sanitize(const ParsedArgs& args, std::ostream& out) {
  const std::string tool = args.text("tool", "");
  if (!is_tool_name(tool))
    throw UsageError("--tool must be one of memcheck, racecheck, synccheck, initcheck; got '" + tool + "'");
  std::vector<std::string> cmd = sanitizer_command(require_sanitizer(), tool);
  cmd.insert(cmd.end(), args.passthrough.begin(), args.passthrough.end());
  out.flush();
  std::vector<char*> argv;
  for (std::string& a : cmd) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  throw std::runtime_error("could not execute " + cmd[0]);
}

int cmd_expect(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'expect' needs a finding name (see `kernel-lab list --json`)");
  if (args.has("against-fix") && args.has("variant"))
    throw UsageError("--against-fix and --variant exclude each other");
  return check_finding(args.positionals[0], args.has("against-fix"), args.text("variant", ""), false, out);
}

int cmd_repro(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'repro' needs a finding name (see `kernel-lab list --json`)");
  return check_finding(args.positionals[0], false, "", true, out);
}

}  // namespace kl::cli
