#include "cli.hpp"

#include "family.hpp"

#include "perturbation.hpp"
#include "report_output.hpp"
#include "run_support.hpp"
#include "sanitizer.hpp"
#include "version.hpp"

#include "core/format.hpp"

#include "kl/check.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace kl::cli {

namespace {

// `run` accepts the union of every family's flags (cmd_run then narrows them to the variant's
// family). Each flag is listed once, with the help line of the first family that takes it; the
// per-family lines that print_family_flags adds say what it means for each family.
std::vector<FlagSpec> run_flags() {
  std::vector<FlagSpec> flags;
  for (const Family* f : families())
    for (const FlagSpec& flag : f->run_flags)
      if (std::none_of(flags.begin(), flags.end(), [&](const FlagSpec& g) { return g.name == flag.name; }))
        flags.push_back(flag);
  return flags;
}

// The commands every program of the harness has; families add their own (family.hpp).
std::vector<FlagSpec> bench_flags() {
  std::vector<FlagSpec> flags = {{"family", "F", "only this family"},
                                 {"variant", "V", "only this variant"},
                                 {"reps", "N", "timed runs per case (default: about 200 ms of work, 3..20)"},
                                 {"sweep", "", "also time the memory-bound families at n = 2^12, 2^14, ..., 2^30, each n against its own ceiling"},
                                 {"gates", "FILE", "evaluate these gates; exit 1 if one fails after re-measurement"}};
  for (FlagSpec& f : report_output_flags()) flags.push_back(std::move(f));
  return flags;
}

std::vector<CommandSpec> harness_commands() {
  return {
      {"list",
       {{"json", "", "JSON instead of the table"}},
       0, false, "",
       "every variant: family, name, seed, lesson, expected findings\n", Needs::host},
      {"info", {}, 0, false, "", "the GPU and its limits\n", Needs::gpu},
      {"run", run_flags(), 1, false, "<family.variant>",
       "run once, check against the oracle, print the time; sync prints \"completed\" or \"deadlock\n"
       "detected after X ms: ...\" and exits 0 when that outcome is the predicted one\n",
       Needs::gpu},
      {"bench", bench_flags(), 0, false, "",
       "measure every benchmarked variant at sizes that fill the GPU (every timed run's output\n"
       "validated, L2 flushed, CUDA events, median and spread), each as a ratio to a ceiling\n"
       "measured here (cuBLAS, CUB, copy) and to the physical roofline\n",
       Needs::gpu},
      {"report", report_output_flags(), 64, false, "<bench.json>...",
       "render reports the bench wrote as JSON again, without a GPU, merged into one (one GPU, one\n"
       "commit; a result or gate in two files is refused): HTML with its charts, SVG, Markdown,\n"
       "TSV, JSON\n",
       Needs::host},
      {"gates", {}, 1, false, "<file>",
       "check a gates file without a GPU: every key it names is a result the bench produces\n", Needs::host},
      {"compare",
       {{"min-change", "PCT", "smallest time change that can count as a regression (default 5)"},
        {"noise-factor", "F", "how many noise spreads a change must exceed (default 2)"},
        {"title", "TEXT", "the report's heading"},
        {"chart", "FILE", "also draw the comparison as an SVG chart: each variant's change over its noise band"}},
       2, false, "<base.tsv> <head.tsv>",
       "compare two `bench --tsv` runs (several rounds each): per result the change of the median\n"
       "time against max(PCT%, F x the noise); exit 1 on a regression (ci/perf-compare.sh)\n",
       Needs::host},
      {"sanitize",
       {{"tool", "T", "memcheck, racecheck, synccheck or initcheck"},
        {"expect-report", "REGEX",
         "prove an exclusion: pass only if T reports REGEX on the command; fail, saying the\n"
         "exclusion can go, once it does not"},
        {"expect-report-of", "FINDING",
         "the same, with the report pattern planted finding FINDING declares (kl_add_lab's proofs)"}},
       0, true, "-- <command...>", "run a command under compute-sanitizer T\n", Needs::gpu_and_sanitizer},
      {"expect",
       {{"against-fix", "", "check the fix instead: its run must pass, the tool stay silent"},
        {"variant", "V", "the same check pointed at variant V (fails if the tool is silent)"},
        {"unperturbed", "",
         "perturbation findings, normal build: every plain run passes and every tool stays silent"},
        {"runs", "N",
         "perturbation findings: runs to make (default " + std::to_string(default_perturbed_runs) +
             "; perturbed runs take seeds $KL_PERTURB_SEED, +1, ...)"}},
       1, false, "<finding>",
       "check that a planted bug's checker reports it (a perturbation finding: in kernel-lab-perturb)\n",
       Needs::gpu_and_sanitizer},
      {"repro", {}, 1, false, "<finding>", "run the tool on one planted bug and print its report\n",
       Needs::gpu_and_sanitizer},
      {"new-family", {}, 2, false, "<name> <dir>",
       "write a new project in <dir> with a family <name> under the harness: one clean kernel and\n"
       "one planted bug declared with the kit, a hand-checked test, gates, and the CMake that\n"
       "derives the rest (its host tier passes at once, its GPU tier on a GPU)\n",
       Needs::host},
      {"help", {}, 1, false, "[command]", "this text, or one command's part of it\n", Needs::host},
  };
}

// The commands the program adds to the harness's: its families', then its own.
const std::vector<const FamilyCommand*>& added_commands() {
  static const std::vector<const FamilyCommand*> commands = [] {
    std::vector<const FamilyCommand*> all;
    for (const Family* f : families())
      for (const FamilyCommand& c : f->commands) all.push_back(&c);
    for (const FamilyCommand& c : program_commands()) all.push_back(&c);
    return all;
  }();
  return commands;
}

}  // namespace

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = [] {
    std::vector<CommandSpec> all = harness_commands();
    const auto help = all.end() - 1;  // help stays last
    std::vector<CommandSpec> added;
    for (const FamilyCommand* c : added_commands()) added.push_back(c->spec);
    for (const CommandSpec& c : added) {
      const auto same_name = [&](const CommandSpec& other) { return other.name == c.name; };
      if (std::count_if(all.begin(), all.end(), same_name) + std::count_if(added.begin(), added.end(), same_name) > 1)
        throw std::logic_error("command '" + c.name + "' is defined twice: a family's or the program's own command "
                               "needs a name no other command has");
    }
    all.insert(help, added.begin(), added.end());
    return all;
  }();
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

void print_flag_lines(std::ostream& out, const std::vector<FlagSpec>& flags, const std::string& indent = "      ") {
  const std::size_t column = 25 + indent.size();
  for (const FlagSpec& f : flags) {
    const std::string left = indent + flag_usage(f);
    out << left << std::string(left.size() < column ? column - left.size() : 1, ' ') << f.help << "\n";
  }
}

// run's flags by family, from the same table cmd_run narrows them with: a line naming them,
// then what each means for that family.
void print_family_flags(std::ostream& out) {
  out << "      the flags each family takes:\n";
  for (const Family* f : families()) {
    std::string line = "        " + f->name + ":";
    line += std::string(line.size() < 22 ? 22 - line.size() : 1, ' ');
    for (const FlagSpec& flag : f->run_flags) line += " --" + flag.name;
    out << line << "\n";
    print_flag_lines(out, f->run_flags, "          ");
  }
}

void print_command(std::ostream& out, const CommandSpec& c) {
  out << "  " << synopsis(c);
  if (c.needs != Needs::host) out << "    (" << needs_text(c.needs) << ")";
  out << "\n";
  std::istringstream summary(c.summary);
  for (std::string line; std::getline(summary, line);) out << "      " << line << "\n";
  if (c.name == "run") print_family_flags(out);  // run's flags differ by family
  else print_flag_lines(out, c.flags);
}

}  // namespace

namespace {

std::string& program_name_storage() {
  static std::string name = "kernel-lab";
  return name;
}

std::string usage_head() {
  const std::string& p = program_name();
  return "usage: " + p + " <command> [flags]    (flags: --name VALUE or --name=VALUE, the second for a\n"
         "       value that starts with -; integers as digits or B^E such as 2^28; --help or -h after\n"
         "       any command prints its part of this text)\n"
         "       " + p + " --version\n\n";
}
constexpr const char* usage_tail =
    "\nA command that needs a GPU exits 2 without one (\"no usable CUDA GPU\"); one that needs\n"
    "compute-sanitizer exits 2 without it (KL_COMPUTE_SANITIZER=/path picks the binary).\n"
    "exit status: 0 ok; 1 a check failed, CUDA failed, a gate failed or a harness error (a result\n"
    "faster than the roofline); 2 bad input (flags, gates file), unsupported shape, no GPU or a\n"
    "missing tool.\n";

}  // namespace

std::string usage() {
  std::ostringstream out;
  out << usage_head();
  for (const CommandSpec& c : command_specs()) print_command(out, c);
  out << usage_tail;
  return out.str();
}

std::string command_usage(const std::string& command) {
  for (const CommandSpec& c : command_specs()) {
    if (c.name != command) continue;
    std::ostringstream out;
    out << usage_head();
    print_command(out, c);
    out << usage_tail;
    return out.str();
  }
  throw UsageError("unknown command '" + command + "'");
}

const std::string& program_name() { return program_name_storage(); }

void set_program_name(const std::string& path) {
  const std::string base = path.substr(path.find_last_of('/') + 1);
  if (!base.empty()) program_name_storage() = base;
}

std::string version_line() {
  const std::string harness = std::string("kernel-lab ") + build_version() + " (commit " + build_commit() + ")";
  return program_name() == "kernel-lab" ? harness : program_name() + " on the harness of " + harness;
}

std::string json_quote(const std::string& text) { return bench::json_string(text); }

namespace {

int run_command(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  try {
    if (argv.empty()) return err << usage(), 2;
    // `--version extra` is a mistake, not a request for the version; `--help CMD` is `help CMD`.
    if (argv[0] == "--version") {
      if (argv.size() > 1) throw UsageError("--version takes nothing after it, got '" + argv[1] + "'");
      return out << version_line() << "\n", 0;
    }
    if (argv[0] == "--help" || argv[0] == "-h") {
      if (argv.size() > 2)
        throw UsageError(argv[0] + " takes at most a command after it (" + argv[0] + " CMD is help CMD), got '" + argv[2] + "'");
      return out << (argv.size() == 1 ? usage() : command_usage(argv[1])), 0;
    }
    const ParsedArgs args = parse(argv, command_specs());
    if (args.help) return out << command_usage(args.command), 0;
    if (args.command == "help") return out << (args.positionals.empty() ? usage() : command_usage(args.positionals[0])), 0;
    if (args.command == "list") return cmd_list(args, out);
    if (args.command == "info") return cmd_info(args, out);
    if (args.command == "run") return cmd_run(args, out);
    if (args.command == "bench") return cmd_bench(args, out);
    if (args.command == "gates") return cmd_gates(args, out);
    if (args.command == "compare") return cmd_compare(args, out);
    if (args.command == "report") return cmd_report(args, out);
    if (args.command == "sanitize") return cmd_sanitize(args, out);
    if (args.command == "expect") return cmd_expect(args, out);
    if (args.command == "repro") return cmd_repro(args, out);
    if (args.command == "new-family") return cmd_new_family(args, out);
    for (const FamilyCommand* c : added_commands())
      if (args.command == c->spec.name) return c->run(args, out);
    throw UsageError("command '" + args.command + "' is not implemented");
  } catch (const UsageError& e) {
    err << program_name() << ": " << e.what() << "\n(run `" << program_name() << " help` for usage)\n";
    return 2;
  } catch (const NoGpuError& e) {
    err << program_name() << ": " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    err << program_name() << ": " << e.what() << "\n";
    return 2;
  } catch (const CudaError& e) {
    err << program_name() << ": CUDA error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    err << program_name() << ": " << e.what() << "\n";
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
