// `kernel-lab expect` for planted cross-block bugs (perturbation.hpp).
#include "perturbation.hpp"

#include "cli.hpp"
#include "family.hpp"

#include "kl/perturb.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace kl::cli {
namespace {

// What a run prints when it stopped on a CUDA error (cli.cpp): a fault, not an oracle's verdict.
constexpr const char* cuda_error_marker = ": CUDA error: ";

std::string seed_assignment(std::uint64_t seed) { return std::string(perturb::seed_variable) + "=" + std::to_string(seed); }

std::string seeds_text(const std::vector<SeedRun>& runs) {
  if (runs.empty()) return "no runs";
  return std::to_string(runs.size()) + " perturbed run(s), seeds " + std::to_string(runs.front().seed) + ".." +
         std::to_string(runs.back().seed);
}

// The run's own statement of its exit status (sanitizer.hpp): 0 passed, 1 its check or CUDA
// failed, 2 refused; nullopt: it crashed or was killed.
std::optional<int> status_of(const Captured& run) { return stated_exit_status(run.output); }

// `run <target> <args>`, the k-th run (from 1) with data seed k where the family's runs take one
// and the finding names none: each run draws other data, so a stale value left by the run
// before (a partial from the last launch, say) cannot pass for a fresh one.
std::vector<std::string> case_argv(const ExpectedFinding& f, const std::string& target, int k) {
  std::vector<std::string> argv = {"run", target};
  argv.insert(argv.end(), f.run_args.begin(), f.run_args.end());
  const VariantInfo& info = find_info(target);
  const bool takes_seed = find_family(info.family).run_takes(info.name, "seed");
  const bool names_seed = std::find(f.run_args.begin(), f.run_args.end(), "--seed") != f.run_args.end();
  if (takes_seed && !names_seed) argv.insert(argv.end(), {"--seed", std::to_string(k)});
  return argv;
}

// `env KL_PRINT_EXIT_STATUS=1 <tool...> <this program> <the case>`: in a child process under a tool.
std::vector<std::string> tool_command(const std::vector<std::string>& tool, const std::vector<std::string>& argv) {
  std::vector<std::string> cmd = {"env", std::string(exit_status_variable) + "=1"};
  cmd.insert(cmd.end(), tool.begin(), tool.end());
  cmd.push_back(self_executable());
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  return cmd;
}

// The case run in this process, as `kernel-lab run` would run it, its exit status stated last like
// a child's under KL_PRINT_EXIT_STATUS. A process per run costs seconds when the GPU tier runs
// sixteen tests at once; a CUDA error that breaks the context ends the check at that run anyway.
Captured run_in_process(const std::vector<std::string>& argv) {
  std::ostringstream out;
  const int code = main(argv, out, out);
  return {code, out.str() + exit_status_line(code) + "\n"};
}

void print_run(std::ostream& out, const std::string& label, const Captured& run, bool whole) {
  const std::optional<int> status = status_of(run);
  out << label << ": " << (status == 0 ? "passed" : status == 1 ? "FAILED its check" : "no verdict") << "\n";
  if (whole) out << run.output << (run.output.empty() || run.output.back() != '\n' ? "\n" : "");
}

}  // namespace

Judgement judge_perturbed_runs(const std::string& finding, const std::string& target, bool against_fix,
                               const std::vector<SeedRun>& runs) {
  for (const SeedRun& r : runs) {
    const std::optional<int> status = status_of(r.run);
    if (status != 0 && status != 1)
      return {2, "NO VERDICT: the run of " + target + " under " + seed_assignment(r.seed) + " " +
                     (status ? "exited " + std::to_string(*status) + ": refused before its kernel ran"
                             : std::string("stated no exit status: it crashed or was killed")) +
                     " (checking " + finding + ")"};
    if (status == 1 && !against_fix && r.run.output.find(cuda_error_marker) != std::string::npos)
      return {2, "NO VERDICT: the run of " + target + " under " + seed_assignment(r.seed) +
                     " ended in a CUDA error, not a failed check (checking " + finding + ")"};
    if (status == 1) {
      if (against_fix)
        return {1, "NOT CLEAN: the fix " + target + " failed its check under " + seed_assignment(r.seed) +
                       " (checking " + finding + ")"};
      return {0, "expected finding reproduced: perturbation made " + target + " fail its check under " +
                     seed_assignment(r.seed) + " (checking " + finding + ")"};
    }
  }
  if (runs.empty()) return {2, "NO VERDICT: no runs (checking " + finding + ")"};
  if (against_fix)
    return {0, "checker can fail: perturbation stayed silent on " + target + " (" + seeds_text(runs) +
                   ", every one passed), the fix for " + finding};
  return {1, "MISSED: " + target + " passed " + seeds_text(runs) + " (checking " + finding +
                 "): raise the runs or the delays (" + perturb::max_delay_variable + ")"};
}

Judgement judge_unseen(const std::string& finding, const std::string& target, const std::vector<SeedRun>& plain_runs,
                       const std::vector<std::string>& tools, const std::vector<Captured>& tool_runs) {
  for (std::size_t i = 0; i < plain_runs.size(); ++i) {
    const std::optional<int> status = status_of(plain_runs[i].run);
    if (status == 0) continue;
    const std::string which = "plain run " + std::to_string(i + 1) + " of " + std::to_string(plain_runs.size());
    if (status == 1)
      return {1, "SEEN WITHOUT PERTURBATION: " + which + " of " + target +
                     " failed its check: the normal tiers can see this bug (checking " + finding + ")"};
    return {2, "NO VERDICT: " + which + " of " + target + " was refused or crashed (checking " + finding + ")"};
  }
  for (std::size_t i = 0; i < tools.size(); ++i) {
    const Captured& run = i < tool_runs.size() ? tool_runs[i] : Captured{};
    const ToolReport report = read_tool_report(run.output, "(?!)");
    const std::optional<int> status = status_of(run);
    if (!report.tool_ran) return {2, "NO VERDICT: " + tools[i] + " did not run on " + target};
    if (report.error_count > 0)
      return {1, "SEEN WITHOUT PERTURBATION: " + tools[i] + " reported " + std::to_string(report.error_count) +
                     " error(s) on " + target + " (checking " + finding + ")"};
    if (report.error_count < 0) return {2, "NO VERDICT: " + tools[i] + " printed no error summary on " + target};
    if (status == 1)
      return {1, "SEEN WITHOUT PERTURBATION: " + target + " failed its check under " + tools[i] + " (checking " +
                     finding + ")"};
    if (status != 0) return {2, "NO VERDICT: the run of " + target + " under " + tools[i] + " was refused or crashed"};
  }
  std::string names;
  for (std::size_t i = 0; i < tools.size(); ++i)
    names += (i == 0 ? "" : i + 1 == tools.size() ? " and " : ", ") + tools[i];
  return {0, "unseen without perturbation: " + target + " passed " + std::to_string(plain_runs.size()) +
                 " plain run(s), and " + names + " each reported 0 errors on a passing run (checking " + finding + ")"};
}

int check_perturbation_finding(const PlantedFinding& planted, bool against_fix, int runs, std::ostream& out) {
  const ExpectedFinding& f = *planted.finding;
  if (!perturb::compiled_in())
    throw std::invalid_argument("finding '" + f.repro +
                                "' is a cross-block ordering bug: check it with the perturbation build of this "
                                "program (kernel-lab-perturb, built with -DKL_PERTURBATION=ON); this one carries no "
                                "perturbation points. `expect " + f.repro + " --unperturbed` shows what it does here");
  const std::string target = against_fix ? f.fixed_by : planted.variant->id();
  if (target.empty()) throw std::invalid_argument("finding '" + f.repro + "' names no fixed variant");
  std::vector<SeedRun> done;
  const std::uint64_t first = perturb::settings().seed;
  for (int i = 0; i < runs; ++i) {
    const std::uint64_t seed = first + static_cast<std::uint64_t>(i);
    perturb::use_seed(seed);  // the delays a fresh process with KL_PERTURB_SEED=seed draws
    SeedRun r{seed, run_in_process(case_argv(f, target, i + 1))};
    const bool failed = status_of(r.run) != 0;
    print_run(out, seed_assignment(seed), r.run, failed);
    done.push_back(std::move(r));
    if (failed) break;  // a catch, a fix that failed, or no verdict: the judgement is made
  }
  const Judgement verdict = judge_perturbed_runs(f.repro, target, against_fix, done);
  out << verdict.message << "\n";
  if (verdict.exit_code != 0 || !against_fix) {
    std::vector<std::string> replay = {self_executable()};
    const std::vector<std::string> argv = case_argv(f, target, static_cast<int>(done.size()));
    replay.insert(replay.end(), argv.begin(), argv.end());
    out << "replay: " << seed_assignment(done.back().seed) << " " << perturb::max_delay_variable << "="
        << perturb::settings().max_delay_ns / 1000 << " " << shell_join(replay) << "\n";
  }
  return verdict.exit_code;
}

int check_unseen_without_perturbation(const PlantedFinding& planted, int runs, std::ostream& out) {
  const ExpectedFinding& f = *planted.finding;
  if (perturb::compiled_in())
    throw std::invalid_argument("--unperturbed needs the normal program: this one (" + self_executable() +
                                ") is a perturbation build");
  const std::optional<std::string> sanitizer = find_compute_sanitizer();
  if (!sanitizer) throw std::invalid_argument(missing_sanitizer_message());
  const std::string target = planted.variant->id();
  std::vector<SeedRun> plain;
  for (int i = 0; i < runs; ++i) {
    SeedRun r{0, run_in_process(case_argv(f, target, i + 1))};
    print_run(out, "plain run " + std::to_string(i + 1), r.run, status_of(r.run) != 0);
    plain.push_back(std::move(r));
  }
  const std::vector<std::string> tools(sanitizer_tools.begin(), sanitizer_tools.end());
  std::vector<Captured> tool_runs;
  for (const std::string& tool : tools) {
    tool_runs.push_back(run_captured(tool_command(sanitizer_command(*sanitizer, tool), case_argv(f, target, 1))));
    const ToolReport report = read_tool_report(tool_runs.back().output, "(?!)");
    out << tool << ": " << (report.error_count == 0 ? "0 errors" : "see its report") << "\n";
    if (report.error_count != 0) out << tool_runs.back().output << "\n";
  }
  const Judgement verdict = judge_unseen(f.repro, target, plain, tools, tool_runs);
  out << verdict.message << "\n";
  return verdict.exit_code;
}

}  // namespace kl::cli
