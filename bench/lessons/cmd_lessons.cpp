// `kernel-lab lessons --gates FILE --out FILE BENCH.json...`: docs/LESSONS.md from the reports a
// bench wrote, on any machine (the `lessons` target runs the whole bench on the GPU first). The
// lab's own command, added through kl_add_family_set's COMMANDS (bench/CMakeLists.txt): the
// harness knows nothing of seed claims, and another project's program has no `lessons`.
#include "lessons.hpp"

#include "family.hpp"
#include "report_output.hpp"

#include "core/charts.hpp"
#include "core/report_reader.hpp"

#include <filesystem>
#include <ostream>

namespace kl {
namespace lessons {
namespace {

namespace fs = std::filesystem;

// What regenerates docs/LESSONS.md; written into its header.
constexpr const char* regenerate = "cmake --build --preset gpu --target lessons";

// The directory beside the document that holds its charts, as the document links them.
constexpr const char* charts_folder = "lessons";

// Where the document's charts go: charts_folder beside it.
std::string charts_dir_of(const std::string& path) {
  const fs::path doc(path);
  return ((doc.has_parent_path() ? doc.parent_path() : fs::path(".")) / charts_folder).string();
}

// The document, then its charts as SVG files in `charts_dir`.
void write_lessons(const std::string& path, const std::string& charts_dir, const bench::Report& report,
                   const std::vector<Gate>& gates) {
  const auto charts = bench::report_charts(report);
  cli::write_charts(charts_dir, charts);
  cli::write_file(path, lessons_markdown(seed_claims(), report.results, report.roofline, gates, report.gpu,
                                         report.arch, regenerate) +
                            bench::charts_markdown(charts, charts_folder));
}

int cmd_lessons(const cli::ParsedArgs& args, std::ostream& out) {
  if (args.positionals.empty()) throw cli::UsageError("'lessons' needs the JSON a bench wrote (kernel-lab bench --json FILE)");
  if (!args.has("gates"))
    throw cli::UsageError("'lessons' needs --gates FILE: LESSONS.md names the gate that holds each claim");
  if (!args.has("out")) throw cli::UsageError("'lessons' needs --out FILE: where LESSONS.md is written");
  cli::require_writable(args, {"out"});
  const std::string path = args.text("out", "");
  const std::string charts_dir = charts_dir_of(path);
  // Checked before anything is read or written: the charts would fail only after the reports.
  if (std::error_code error; fs::exists(charts_dir, error) && !fs::is_directory(charts_dir, error))
    throw cli::UsageError("--out: the charts go into '" + charts_dir + "' beside the document, and that is a file, not a directory");
  const bench::GatesFile gates_file = bench::load_gates(args.text("gates", ""));
  // A malformed file, or files that do not make one run: std::invalid_argument, exit 2.
  std::vector<bench::Report> reports;
  for (const std::string& report_path : args.positionals) reports.push_back(bench::load_report_json(report_path));
  const bench::Report report = bench::merge_reports(reports);
  const std::vector<Gate> gates = bench::gates_for_device(gates_file, report.arch, report.gpu);
  write_lessons(path, charts_dir, report, gates);

  std::size_t measured = 0;
  for (const SeedClaim& claim : seed_claims())
    measured += judge_claim(claim, report.results, report.roofline, gates, report.gpu).measured ? 1 : 0;
  out << "wrote " << path << ": " << measured << " of " << seed_claims().size() << " seed claims measured ("
      << report.gpu << ", commit " << report.commit << ")\n";
  if (measured < seed_claims().size())
    out << "note: the others read \"not measured in this run\": bench every family (the `lessons` target does)\n";
  return 0;
}

}  // namespace
}  // namespace lessons

// The lab program's own commands (kl_add_family_set(... COMMANDS lab_commands)).
std::vector<FamilyCommand> lab_commands() {
  return {{{"lessons",
            {{"gates", "FILE", "the gates file whose gates hold the claims (bench/gates.conf)"},
             {"out", "FILE", "where to write the document (docs/LESSONS.md; its charts go into lessons/ beside it)"}},
            64, false, "<bench.json>...",
            "write docs/LESSONS.md from bench reports, without a GPU: each seed claim against the\n"
            "measurement, the ladders beyond the seeds, the charts\n",
            cli::Needs::host},
           lessons::cmd_lessons}};
}

}  // namespace kl
