// `kernel-lab bench`: measures every benchmarked variant at sizes that fill the GPU, reads each
// against a ceiling measured in this process and against the physical roofline, evaluates the
// gates file, and writes JSON, Markdown, TSV and docs/LESSONS.md. See `kernel-lab help`.
#include "bench_selection.hpp"
#include "cli.hpp"
#include "family.hpp"

#include "core/format.hpp"
#include "core/gates.hpp"
#include "core/lessons.hpp"

#include "kl/device_facts.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include <unistd.h>

namespace kl::cli {
namespace {

// What regenerates docs/LESSONS.md; written into its header.
constexpr const char* lessons_command =
    "kernel-lab bench --gates bench/gates.conf --lessons docs/LESSONS.md (or: cmake --build --preset gpu --target lessons)";

const std::vector<std::string> output_flags = {"json", "markdown", "tsv", "lessons"};

// Whether `path` could be written, asked without creating or touching anything: an existing
// regular file we may write, or a new name in a directory we may write to.
bool writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path p(path);
  if (path.empty()) return false;
  if (fs::exists(p, error)) return fs::is_regular_file(p, error) && ::access(path.c_str(), W_OK) == 0;
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  return fs::is_directory(dir, error) && ::access(dir.c_str(), W_OK | X_OK) == 0;
}

// Fails before any measurement when an output cannot be written (a minute of GPU time lost
// otherwise), and before asking for a GPU, so the message does not depend on the machine.
void require_writable(const ParsedArgs& a) {
  for (const std::string& flag : output_flags) {
    if (!a.has(flag)) continue;
    const std::string path = a.text(flag, "");
    if (!writable(path)) throw UsageError("--" + flag + ": cannot write '" + path + "'");
  }
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::trunc);
  file << text;
  if (!file) throw std::runtime_error("cannot write '" + path + "'");
}

void print_result(std::ostream& out, const bench::Result& r, const char* prefix) {
  out << prefix << r.key() << ": " << bench::sig3(r.value) << " " << r.metric << ", median "
      << bench::fixed(r.median_ms, 3) << " ms (" << bench::fixed(r.min_ms, 3) << ".." << bench::fixed(r.max_ms, 3)
      << ", " << r.reps << " reps), " << bench::sig3(100 * r.ratio()) << "% of " << r.ceiling << "\n";
}

// Measures one case and holds it against the roofline (a HarnessError ends the bench, exit 1).
bench::Result measure(const BenchCase& c, Bench& ctx) {
  const bench::Result r = find_family(c.family).bench_measure(c, ctx);
  bench::check_against_roofline(r, ctx.roofline());
  return r;
}

}  // namespace

int cmd_bench(const ParsedArgs& a, std::ostream& out) {
  const BenchSelection sel = select_bench_cases(a.text("family", ""), a.text("variant", ""));
  bench::RepetitionPolicy policy;
  policy.fixed = static_cast<int>(a.integer("reps", 0, 1, 1000));
  std::optional<bench::GatesFile> gates;
  if (a.has("gates")) gates = bench::load_gates(a.text("gates", ""));
  require_writable(a);
  require_gpu();

  Bench ctx(policy, out);
  bench::Report report;
  report.gpu = ctx.gpu();
  report.arch = ctx.arch();
  report.roofline = ctx.roofline();
  report.excluded = sel.excluded;
  out << "kernel-lab bench on " << report.gpu << " (" << report.arch << "): " << sel.cases.size() << " cases\n";
  for (const BenchCase& c : sel.cases) {
    report.results.push_back(measure(c, ctx));
    print_result(out, report.results.back(), "");
  }

  std::vector<bench::Gate> arch_gates;
  if (gates) {
    arch_gates = bench::gates_for_device(*gates, report.arch, report.gpu);
    report.gates_evaluated = true;
    report.gates_path = gates->path;
    auto remeasure = [&](const std::string& key) {
      for (const BenchCase& c : sel.cases) {
        if (c.key() != key) continue;
        const bench::Result again = measure(c, ctx);
        for (bench::Result& r : report.results)
          if (r.key() == key) r = again;
        print_result(out, again, "re-measured ");
      }
    };
    report.gates = bench::evaluate_gates(arch_gates, report.results, sel.complete_families, remeasure);
  }
  report.ceilings = ctx.ceilings();

  if (a.has("json")) write_file(a.text("json", ""), bench::to_json(report));
  if (a.has("markdown")) write_file(a.text("markdown", ""), bench::to_markdown(report));
  if (a.has("tsv")) write_file(a.text("tsv", ""), bench::to_tsv(report));
  if (a.has("lessons")) {
    if (!sel.complete_families.count("matmul") || !sel.complete_families.count("reduction"))
      out << "note: --lessons without the whole matmul and reduction families marks their claims "
             "\"not measured in this run\"\n";
    write_file(a.text("lessons", ""), bench::lessons_markdown(bench::seed_claims(), report.results, report.roofline,
                                                             arch_gates, report.gpu, report.arch, lessons_command));
  }
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
