#include "cli.hpp"

#include "run_support.hpp"
#include "sanitizer.hpp"
#include "version.hpp"

#include "core/format.hpp"

#include "kl/check.hpp"

#include <ostream>
#include <sstream>

namespace kl::cli {

namespace {

// The flags of `run`, each with one meaning across the families that take it. A family lists
// the names it takes in runners.cpp; the help text lives here, in the order help prints them.
const std::vector<FlagSpec>& run_flag_help() {
  static const std::vector<FlagSpec> help = {
      {"m", "M", "matmul: rows of A and C"},
      {"n", "N", "elements; intervals (riemann); C's columns (matmul), side (imatmul)"},
      {"k", "K", "matmul: columns of A, rows of B"},
      {"bias", "0|1", "matmul: 1 adds seed 001's bias row to C (tiled_bounds)"},
      {"width", "W", "dispatch: cells per row of the grid"},
      {"height", "H", "dispatch: rows of the grid"},
      {"rows", "R", "basics' 2-D kernels (matr, sum_matr): rows"},
      {"cols", "C", "basics' 2-D kernels: columns"},
      {"block", "B|BXxBY", "threads per block; BXxBY for dispatch and basics' 2-D kernels"},
      {"blocks", "N", "blocks in the grid (sync; basics.hello and basics.atomic_counter)"},
      {"threads", "T", "basics: per block (hello, atomic_counter), else threads in all"},
      {"dtype", "int|float", "reduction: element type (default int)"},
      {"budget-ms", "MS", "sync: the watchdog's budget before it reports a deadlock"},
      {"seed", "S", "seed of the input data (default 1)"},
      {"reps", "R", "timed repetitions (default 20)"},
  };
  return help;
}

// `run` accepts the union of every family's flags (cmd_run then narrows them to the variant's),
// in run_flag_help's order. A family flag missing there is still accepted, with an empty help
// line that the host test CliHelp.EveryFlagTheParserAcceptsHasAHelpLine rejects.
std::vector<FlagSpec> run_flags() {
  std::set<std::string> names;
  for (const FamilyRunner& r : family_runners()) names.insert(r.flags.begin(), r.flags.end());
  std::vector<FlagSpec> flags;
  for (const FlagSpec& f : run_flag_help())
    if (names.erase(f.name)) flags.push_back(f);
  for (const std::string& undocumented : names) flags.push_back({undocumented, "VALUE", ""});
  return flags;
}

}  // namespace

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = {
      {"list",
       {{"json", "", "JSON instead of the table"}},
       0, false, "",
       "every variant: family, name, seed, lesson, expected findings\n", Needs::host},
      {"info", {}, 0, false, "", "the GPU and its limits\n", Needs::gpu},
      {"run", run_flags(), 1, false, "<family.variant>",
       "run once, check against the oracle, print the time; sync prints \"completed\" or \"deadlock\n"
       "detected after X ms: ...\" and exits 0 when that outcome is the predicted one\n",
       Needs::gpu},
      {"coords",
       {{"width", "W", "cells per row (default 4)"},
        {"height", "H", "rows (default 6)"},
        {"block", "BXxBY", "threads per block (default 2x2)"},
        {"order", "col,row|row,col", "how each cell is printed (default col,row)"},
        {"variant", "V", "dispatch variant (default record_thread_coords_guarded)"}},
       0, false, "", "print the grid of thread coordinates as the seeds do\n", Needs::gpu},
      {"bench",
       {{"family", "F", "only this family"},
        {"variant", "V", "only this variant"},
        {"reps", "N", "timed runs per case (default: about 200 ms of work, 3..20)"},
        {"gates", "FILE", "evaluate these gates; exit 1 if one fails after re-measurement"},
        {"json", "FILE", "write the results and gates as JSON"},
        {"markdown", "FILE", "write the roofline-style table"},
        {"tsv", "FILE", "write key, metric, value, median/min/max ms per result"},
        {"lessons", "FILE", "write docs/LESSONS.md (seed claims vs measurements)"}},
       0, false, "",
       "measure every benchmarked variant at sizes that fill the GPU (every timed run's output\n"
       "validated, L2 flushed, CUDA events, median and spread), each as a ratio to a ceiling\n"
       "measured here (cuBLAS, CUB, copy) and to the physical roofline\n",
       Needs::gpu},
      {"sanitize",
       {{"tool", "T", "memcheck, racecheck, synccheck or initcheck"}},
       0, true, "-- <command...>", "run a command under compute-sanitizer T\n", Needs::gpu_and_sanitizer},
      {"expect",
       {{"against-fix", "", "check the fix instead: its run must pass, the tool stay silent"},
        {"variant", "V", "the same check pointed at variant V (fails if the tool is silent)"}},
       1, false, "<finding>", "check that a planted bug's tool reports it\n", Needs::gpu_and_sanitizer},
      {"repro", {}, 1, false, "<finding>", "run the tool on one planted bug and print its report\n",
       Needs::gpu_and_sanitizer},
      {"tune",
       {{"m", "M", "rows of C timed (default 4096)"},
        {"n", "N", "columns of C timed (default 4096)"},
        {"k", "K", "depth timed (default 4096)"},
        {"reps", "N", "timed runs per candidate (default 20)"},
        {"write", "FILE", "set this GPU's line of the tuning file (kernels/matmul/sgemm_tuning.conf) to the winner"}},
       1, false, "matmul.tuned",
       "check every candidate configuration of the tuned SGEMM rung (bit-exact on a padded shape),\n"
       "time it next to cuBLAS SGEMM, print the table and the winner\n",
       Needs::gpu},
      {"help", {}, 1, false, "[command]", "this text, or one command's part of it\n", Needs::host},
  };
  return specs;
}

namespace {

std::string needs_text(Needs needs) {
  switch (needs) {
    case Needs::gpu: return "needs a GPU";
    case Needs::gpu_and_sanitizer: return "needs a GPU and compute-sanitizer";
    case Needs::host: break;
  }
  return "";
}

std::string flag_usage(const FlagSpec& f) { return "--" + f.name + (f.value.empty() ? "" : " " + f.value); }

// "run <family.variant> [flags]": the flags follow, one a line; what follows `--` comes last.
std::string synopsis(const CommandSpec& c) {
  const std::string operands = c.operands.empty() ? "" : " " + c.operands;
  const std::string flags = c.flags.empty() ? "" : " [flags]";
  return c.name + (c.passthrough ? flags + operands : operands + flags);
}

void print_flag_lines(std::ostream& out, const std::vector<FlagSpec>& flags) {
  constexpr std::size_t column = 31;
  for (const FlagSpec& f : flags) {
    const std::string left = "      " + flag_usage(f);
    out << left << std::string(left.size() < column ? column - left.size() : 1, ' ') << f.help << "\n";
  }
}

// run's flags by family, from the same table cmd_run narrows them with.
void print_family_flags(std::ostream& out, const CommandSpec& run) {
  out << "      the flags each family takes:\n";
  for (const FamilyRunner& r : family_runners()) {
    std::string line = "        " + std::string(r.family) + ":";
    line += std::string(line.size() < 22 ? 22 - line.size() : 1, ' ');
    for (const FlagSpec& f : run.flags)
      if (r.flags.count(f.name)) line += " --" + f.name;
    out << line << "\n";
  }
}

void print_command(std::ostream& out, const CommandSpec& c) {
  out << "  " << synopsis(c);
  if (c.needs != Needs::host) out << "    (" << needs_text(c.needs) << ")";
  out << "\n";
  std::istringstream summary(c.summary);
  for (std::string line; std::getline(summary, line);) out << "      " << line << "\n";
  print_flag_lines(out, c.flags);
  if (c.name == "run") print_family_flags(out, c);
}

}  // namespace

namespace {

constexpr const char* usage_head =
    "usage: kernel-lab <command> [flags]    (flags: --name VALUE or --name=VALUE; integers as digits or\n"
    "       B^E such as 2^28; --help or -h after any command prints its part of this text)\n"
    "       kernel-lab --version\n\n";
constexpr const char* usage_tail =
    "\nA command that needs a GPU exits 2 without one (\"no usable CUDA GPU\"); one that needs\n"
    "compute-sanitizer exits 2 without it (KL_COMPUTE_SANITIZER=/path picks the binary).\n"
    "exit status: 0 ok; 1 a check failed, CUDA failed, a gate failed or a harness error (a result\n"
    "faster than the roofline); 2 bad input (flags, gates file), unsupported shape, no GPU or a\n"
    "missing tool.\n";

}  // namespace

std::string usage() {
  std::ostringstream out;
  out << usage_head;
  for (const CommandSpec& c : command_specs()) print_command(out, c);
  out << usage_tail;
  return out.str();
}

std::string command_usage(const std::string& command) {
  for (const CommandSpec& c : command_specs()) {
    if (c.name != command) continue;
    std::ostringstream out;
    out << usage_head;
    print_command(out, c);
    out << usage_tail;
    return out.str();
  }
  throw UsageError("unknown command '" + command + "'");
}

std::string version_line() {
  return std::string("kernel-lab ") + build_version() + " (commit " + build_commit() + ")";
}

std::string json_quote(const std::string& text) { return bench::json_string(text); }

namespace {

int run_command(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  try {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
      (argv.empty() ? err : out) << usage();
      return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "--version") return out << version_line() << "\n", 0;
    const ParsedArgs args = parse(argv, command_specs());
    if (args.help) return out << command_usage(args.command), 0;
    if (args.command == "help") return out << (args.positionals.empty() ? usage() : command_usage(args.positionals[0])), 0;
    if (args.command == "list") return cmd_list(args, out);
    if (args.command == "info") return cmd_info(args, out);
    if (args.command == "run") return cmd_run(args, out);
    if (args.command == "coords") return cmd_coords(args, out);
    if (args.command == "bench") return cmd_bench(args, out);
    if (args.command == "sanitize") return cmd_sanitize(args, out);
    if (args.command == "expect") return cmd_expect(args, out);
    if (args.command == "repro") return cmd_repro(args, out);
    if (args.command == "tune") return cmd_tune(args, out);
    throw UsageError("command '" + args.command + "' is not implemented");
  } catch (const UsageError& e) {
    err << "kernel-lab: " << e.what() << "\n(run `kernel-lab help` for usage)\n";
    return 2;
  } catch (const NoGpuError& e) {
    err << "kernel-lab: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    err << "kernel-lab: " << e.what() << "\n";
    return 2;
  } catch (const CudaError& e) {
    err << "kernel-lab: CUDA error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << "kernel-lab: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  const int code = run_command(argv, out, err);
  if (exit_status_requested()) {
    out.flush();  // the status must come after everything the command printed
    err << exit_status_line(code) << "\n";
  }
  return code;
}

}  // namespace kl::cli
