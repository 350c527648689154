// `kernel-lab sanitize`, `expect` and `repro`: compute-sanitizer as a checker whose verdict is a
// test result. A missing tool is an error (exit 2), never a pass.
#include "cli.hpp"
#include "perturbation.hpp"
#include "sanitizer.hpp"

#include "kl/registry.hpp"

#include <ostream>
#include <unistd.h>

namespace kl::cli {
namespace {

std::string require_sanitizer() {
  const std::optional<std::string> path = find_compute_sanitizer();
  if (!path) throw std::invalid_argument(missing_sanitizer_message());
  return *path;
}

// Runs `cmd` and judges it, printing its output and the verdict. A lost run (run_lost in
// sanitizer.hpp) is run again, up to `runs` in all, each said; `all_lost` is the verdict when
// every one was lost. A verdict reached in a later run says which run it was.
template <class Judge>
int run_and_judge(const std::vector<std::string>& cmd, int runs, Judge&& judge, const std::string& all_lost,
                  std::ostream& out) {
  for (int attempt = 1;; ++attempt) {
    const Captured run = run_captured(cmd);
    out << run.output;
    if (run.output.empty() || run.output.back() != '\n') out << "\n";
    Judgement verdict = judge(run);
    if (attempt > 1 && !verdict.run_lost)
      verdict.message += " (run " + std::to_string(attempt) + " of at most " + std::to_string(runs) + ")";
    out << verdict.message << "\n";
    if (!verdict.run_lost) return verdict.exit_code;
    if (attempt == runs) {
      out << all_lost << "\n";
      return verdict.exit_code;
    }
    out << "kernel-lab: that run says nothing either way: running it again (run " << attempt + 1 << " of at most "
        << runs << ")\n";
  }
}

// Runs the planted finding's case (or its fix's) under its tool and reports the verdict.
// `variant` (optional) points the same positive check at another variant, to show it can fail.
int check_finding(const std::string& repro, bool against_fix, const std::string& variant, bool show_command,
                  std::ostream& out) {
  const PlantedFinding planted = find_planted(repro);
  const ExpectedFinding& f = *planted.finding;
  if (!variant.empty()) find_info(variant);  // unknown ids are bad input (exit 2)
  const std::string target = against_fix ? f.fixed_by : variant.empty() ? planted.variant->id() : variant;
  if (target.empty()) throw std::invalid_argument("finding '" + repro + "' names no fixed variant");
  const FindingCheck check{std::string(to_string(f.checker)), repro, planted.variant->id(), target,
                           f.report_pattern, against_fix};

  // `env` hands the run the variable that makes it state its own exit status (sanitizer.hpp).
  std::vector<std::string> cmd = {"env", std::string(exit_status_variable) + "=1"};
  const std::vector<std::string> tool = sanitizer_command(require_sanitizer(), check.tool);
  cmd.insert(cmd.end(), tool.begin(), tool.end());
  cmd.insert(cmd.end(), {self_executable(), "run", target});
  cmd.insert(cmd.end(), f.run_args.begin(), f.run_args.end());
  if (show_command) out << "command: " << shell_join(cmd) << "\n";
  return run_and_judge(cmd, against_fix ? 1 : positive_check_runs,
                       [&](const Captured& run) { return judge_finding(check, run); },
                       "MISSED: every one of the " + std::to_string(positive_check_runs) + " runs of " + target +
                           " under " + check.tool + " was lost, so none shows its report of /" + check.pattern +
                           "/ (checking " + repro + ")",
                       out);
}

// The pattern of --expect-report (or of the finding --expect-report-of names), checked before
// anything runs.
std::string exclusion_pattern(const ParsedArgs& args) {
  if (args.has("expect-report") && args.has("expect-report-of"))
    throw UsageError("--expect-report and --expect-report-of exclude each other");
  if (args.has("expect-report-of")) {
    const std::string name = args.text("expect-report-of", "");
    try {
      return find_planted(name).finding->report_pattern;
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--expect-report-of: ") + e.what());
    }
  }
  const std::string pattern = args.text("expect-report", "");
  if (pattern.empty()) throw UsageError("--expect-report needs a regular expression");
  if (const std::string error = regular_expression_error(pattern); !error.empty())
    throw UsageError("--expect-report '" + pattern + "' is not a regular expression: " + error);
  return pattern;
}

// Runs the tool on a suite that is left out of it and judges whether it still reports what
// earned the exclusion (kl_add_gpu_test's PROOF_<TOOL>).
int prove_exclusion(const std::string& tool, const std::string& pattern, const std::vector<std::string>& cmd,
                    const ParsedArgs& args, std::ostream& out) {
  const std::string command = shell_join(args.passthrough);
  return run_and_judge(cmd, positive_check_runs,
                       [&](const Captured& run) { return judge_exclusion(tool, pattern, command, run); },
                       "NO PROOF: every one of the " + std::to_string(positive_check_runs) + " runs of " + command +
                           " under " + tool + " was lost, so none shows whether it still reports /" + pattern + "/",
                       out);
}

}  // namespace

int cmd_sanitize(const ParsedArgs& args, std::ostream& out) {
  const std::string tool = args.text("tool", "");
  if (!is_tool_name(tool))
    throw UsageError("--tool must be one of memcheck, racecheck, synccheck, initcheck; got '" + tool + "'");
  const std::string pattern =
      args.has("expect-report") || args.has("expect-report-of") ? exclusion_pattern(args) : "";
  std::vector<std::string> cmd = sanitizer_command(require_sanitizer(), tool);
  cmd.insert(cmd.end(), args.passthrough.begin(), args.passthrough.end());
  if (!pattern.empty()) return prove_exclusion(tool, pattern, cmd, args, out);
  out.flush();
  std::vector<char*> argv;
  for (std::string& a : cmd) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  throw std::runtime_error("could not execute " + cmd[0]);
}

int cmd_expect(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'expect' needs a finding name (see `" + program_name() + " list --json`)");
  if (args.has("against-fix") && args.has("variant"))
    throw UsageError("--against-fix and --variant exclude each other");
  const PlantedFinding planted = find_planted(args.positionals[0]);
  if (planted.finding->checker == Checker::perturbation) {
    if (args.has("variant")) throw UsageError("--variant applies to sanitizer findings; '" + args.positionals[0] +
                                              "' is a perturbation finding");
    if (args.has("unperturbed") && args.has("against-fix"))
      throw UsageError("--unperturbed and --against-fix exclude each other");
    const int runs = static_cast<int>(args.integer("runs", default_perturbed_runs, 1, 1000));
    if (args.has("unperturbed")) return check_unseen_without_perturbation(planted, runs, out);
    return check_perturbation_finding(planted, args.has("against-fix"), runs, out);
  }
  if (args.has("unperturbed") || args.has("runs"))
    throw UsageError("--unperturbed and --runs apply to perturbation findings; '" + args.positionals[0] + "' is a " +
                     std::string(to_string(planted.finding->checker)) + " finding");
  return check_finding(args.positionals[0], args.has("against-fix"), args.text("variant", ""), false, out);
}

int cmd_repro(const ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw UsageError("'repro' needs a finding name (see `" + program_name() + " list --json`)");
  const PlantedFinding planted = find_planted(args.positionals[0]);
  if (planted.finding->checker == Checker::perturbation)
    return check_perturbation_finding(planted, false, default_perturbed_runs, out);
  return check_finding(args.positionals[0], false, "", true, out);
}

}  // namespace kl::cli
