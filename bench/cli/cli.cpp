#include "cli.hpp"

#include "run_support.hpp"

#include "core/format.hpp"

#include "kl/check.hpp"

#include <ostream>

namespace kl::cli {

namespace {
// `run` accepts the union of every family's flags; cmd_run then narrows them to the variant's.
std::set<std::string> run_flags() {
  std::set<std::string> flags;
  for (const FamilyRunner& r : family_runners()) flags.insert(r.flags.begin(), r.flags.end());
  return flags;
}
}  // namespace

const std::vector<CommandSpec>& command_specs() {
  static const std::vector<CommandSpec> specs = {
      {"list", {}, {"json"}, 0, false},
      {"info", {}, {}, 0, false},
      {"run", run_flags(), {}, 1, false},
      {"coords", {"width", "height", "block", "order", "variant"}, {}, 0, false},
      {"bench", {"family", "variant", "reps", "gates", "json", "markdown", "tsv", "lessons"}, {}, 0, false},
      {"sanitize", {"tool"}, {}, 0, true},
      {"expect", {"variant"}, {"against-fix"}, 1, false},
      {"repro", {}, {}, 1, false},
      {"help", {}, {}, 1, false},
  };
  return specs;
}

std::string usage() {
  return R"(usage: kernel-lab <command> [flags]

  list [--json]                         every variant: family, name, seed, lesson, expected findings
  info                                  the GPU and its limits
  run <family.variant> [shape flags]    run once, check against the oracle, print the time
        elementwise: --n N --block B    dispatch: --width W --height H --block BXxBY
        sync: --blocks N --block B --budget-ms MS (watchdog budget); prints "completed" or
              "deadlock detected after X ms: ..."; exit 0 when that outcome is the predicted one
        all: --seed S (input data), --reps R (timed repetitions, default 20)
  bench [--family F] [--variant V] [--reps N] [--gates FILE]
        [--json FILE] [--markdown FILE] [--tsv FILE] [--lessons FILE]
                                        measure every benchmarked variant at sizes that fill the GPU
                                        (validated, L2 flushed, CUDA events, median and spread), each
                                        as a ratio to a ceiling measured here (cuBLAS, CUB, copy) and
                                        to the physical roofline; --gates: exit 1 if a gate fails after
                                        re-measurement; --tsv: key, metric, value, median/min/max ms;
                                        --lessons: write docs/LESSONS.md (seed claims vs measurements)
  coords --width W --height H --block BXxBY [--order col,row|row,col] [--variant V]
                                        print the grid of thread coordinates as the seeds do
  sanitize --tool T -- <command...>     run a command under compute-sanitizer T
                                        (memcheck, racecheck, synccheck, initcheck)
  expect <finding> [--against-fix | --variant V]
                                        check that a planted bug's tool reports it; --against-fix:
                                        that its fixed variant stays silent; --variant: the same
                                        check pointed at variant V (fails if the tool is silent)
  repro <finding>                       run the tool on one planted bug and print its report
  help                                  this text

exit status: 0 ok; 1 a check failed, CUDA failed, a gate failed or a harness error (a result
faster than the roofline); 2 bad input (flags, gates file), unsupported shape, no GPU or a
missing tool.
)";
}

std::string json_quote(const std::string& text) { return bench::json_string(text); }

int main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  try {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h") {
      (argv.empty() ? err : out) << usage();
      return argv.empty() ? 2 : 0;
    }
    const ParsedArgs args = parse(argv, command_specs());
    if (args.command == "help") return out << usage(), 0;
    if (args.command == "list") return cmd_list(args, out);
    if (args.command == "info") return cmd_info(args, out);
    if (args.command == "run") return cmd_run(args, out);
    if (args.command == "coords") return cmd_coords(args, out);
    if (args.command == "bench") return cmd_bench(args, out);
    if (args.command == "sanitize") return cmd_sanitize(args, out);
    if (args.command == "expect") return cmd_expect(args, out);
    if (args.command == "repro") return cmd_repro(args, out);
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

}  // namespace kl::cli
