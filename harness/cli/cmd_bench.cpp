// `kernel-lab bench`: measures every benchmarked variant at sizes that fill the GPU, reads each
// against a ceiling measured in this process and against the physical roofline, evaluates the
// gates file, and writes the report as JSON, Markdown, TSV, HTML or SVG. See `kernel-lab help`.
#include "bench_selection.hpp"
#include "cli.hpp"
#include "family.hpp"
#include "report_output.hpp"
#include "version.hpp"

#include "core/format.hpp"
#include "core/gates.hpp"

#include "kl/check.hpp"
#include "kl/device_facts.hpp"
#include "kl/perturb.hpp"

#include <cuda_runtime_api.h>

#include <optional>
#include <ostream>
#include <set>

namespace kl::cli {
namespace {

void print_result(std::ostream& out, const bench::Result& r, const char* prefix) {
  out << prefix << r.key() << ": " << bench::sig3(r.value) << " " << r.metric << ", median "
      << bench::fixed(r.median_ms, 3) << " ms (" << bench::fixed(r.min_ms, 3) << ".." << bench::fixed(r.max_ms, 3)
      << ", " << r.reps << " reps), " << bench::percent(r.ratio()) << " of " << r.ceiling << "\n";
}

// Measures one case and holds it against the roofline (a HarnessError ends the bench, exit 1).
bench::Result measure(const BenchCase& c, Bench& ctx) {
  ctx.begin_family(c.family);
  const bench::Result r = find_family(c.family).bench_measure(c, ctx);
  bench::check_against_roofline(r, ctx.roofline());
  return r;
}

}  // namespace

int cmd_bench(const ParsedArgs& a, std::ostream& out) {
  const BenchSelection sel = select_bench_cases(a.text("family", ""), a.text("variant", ""), a.has("sweep"));
  bench::RepetitionPolicy policy;
  policy.fixed = static_cast<int>(a.integer("reps", 0, 1, 1000));
  std::optional<bench::GatesFile> gates;
  if (a.has("gates")) gates = bench::load_gates(a.text("gates", ""));
  require_writable(a);
  if (perturb::compiled_in())
    throw std::invalid_argument("bench needs the normal program (kernel-lab): this one is a perturbation build, whose "
                                "marked kernels wait at their points, so its times would not be the kernels'");
  require_gpu();
  if (const auto reported = capability_override())
    throw std::invalid_argument("bench times the GPU as it is: unset KL_DEVICE_CC (it reports compute capability " +
                                std::to_string(reported->first) + "." + std::to_string(reported->second) +
                                ", and the roofline and the gates would follow that, not this GPU)");

  Bench ctx(policy, out);
  bench::Report report;
  report.gpu = ctx.gpu();
  report.arch = ctx.arch();
  report.commit = build_commit();
  report.date = utc_now_iso8601();
  report.roofline = ctx.roofline();
  report.excluded = sel.excluded;
  out << "kernel-lab bench on " << report.gpu << " (" << report.arch << "): " << sel.cases.size() << " cases\n";
  std::set<std::string> did_not_fit;  // keys listed in report.excluded: their gates are not applicable
  std::string family;                  // of the case before: its references are read again when it ends
  for (const BenchCase& c : sel.cases) {
    if (c.family != family) ctx.confirm_references(report.results);
    family = c.family;
    try {
      report.results.push_back(measure(c, ctx));
    } catch (const CudaError& e) {
      const std::optional<std::string> why = ctx.recover_from_running_out_of_memory(e);
      if (!why) throw;
      report.excluded.push_back({c.key(), *why});
      did_not_fit.insert(c.key());
      out << "not benchmarked " << c.key() << ": " << *why << "\n";
      continue;
    }
    print_result(out, report.results.back(), "");
  }
  ctx.confirm_references(report.results);

  if (gates) {
    const std::vector<bench::Gate> arch_gates = bench::gates_for_device(*gates, report.arch, report.gpu);
    report.gates_evaluated = true;
    report.gates_path = repository_path(gates->path);
    auto remeasure = [&](const std::string& key) {
      for (const BenchCase& c : sel.cases) {
        if (c.key() != key) continue;
        const bench::Result again = measure(c, ctx);
        // A reference's row (a library gated against the roof) keeps its fastest reading, which is
        // its ceiling too; any other row takes the new one.
        if (!ctx.add_reference_reading(again, report.results))
          for (bench::Result& r : report.results)
            if (r.key() == key) r = again;
        print_result(out, again, "re-measured ");
      }
    };
    report.gates = bench::evaluate_gates(arch_gates, report.results, sel.complete_families, remeasure,
                                          bench::default_max_remeasures, did_not_fit);
  }
  report.ceilings = ctx.ceilings();

  write_report_outputs(a, report);
  out << "\n" << bench::to_markdown(report);
  if (gates && !report.gates.passed()) {
    out << "\nkernel-lab bench: gates FAILED:\n";
    for (const bench::GateOutcome& g : report.gates.outcomes)
      if (g.status == bench::GateStatus::fail) out << "  " << g.message << "\n";
    return 1;
  }
  return 0;
}

}  // namespace kl::cli
