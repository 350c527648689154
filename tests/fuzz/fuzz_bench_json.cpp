// Fuzz target: the reader of the bench's JSON report (`kernel-lab report`, the HTML report and
// merged reports start from it) and the charts drawn from what it reads. Any text must parse
// into a report (no measurement negative, every result's times a measurement) or be refused with
// a JsonError naming the file; a report must then render (HTML, every SVG) with one roofline point
// per result that has an intensity and a rate. Anything else (a crash, another exception, a hang,
// unbounded memory) is a finding.
#include "fuzz_input.hpp"

#include "core/charts.hpp"
#include "core/report_reader.hpp"
#include "core/result.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace {

std::size_t count(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  kl::bench::Report report;
  try {
    report = kl::bench::read_report_json(text, "fuzz.json");
  } catch (const kl::bench::JsonError& e) {
    if (std::string(e.what()).rfind("fuzz.json:", 0) != 0)
      kl::fuzz::finding(std::string("a refusal that names no file: ") + e.what());
    return 0;
  }
  const auto negative = [](const std::vector<double>& xs) {
    return std::any_of(xs.begin(), xs.end(), [](double x) { return x < 0; });
  };
  for (const kl::bench::Result& r : report.results) {
    if (negative({r.value, r.median_ms, r.min_ms, r.max_ms, r.ceiling_value, r.intensity}) || negative(r.runs_ms))
      kl::fuzz::finding("result " + r.key() + " accepted with a negative measurement");
    if (const std::string problem = kl::bench::times_problem(r.median_ms, r.min_ms, r.max_ms); !problem.empty())
      kl::fuzz::finding("result " + r.key() + " accepted with times that are no measurement: " + problem);
  }
  for (const kl::bench::Ceiling& c : report.ceilings)
    if (negative({c.value}) || negative(c.readings)) kl::fuzz::finding("ceiling " + c.name + " accepted with a negative reading");
  const kl::bench::Roofline& roof = report.roofline;
  if (negative({roof.dram_gbps, roof.fp32_tflops, roof.fp16_tensor_tflops, roof.int32_tops}))
    kl::fuzz::finding("a roofline accepted with a negative peak");
  for (const kl::bench::GateOutcome& g : report.gates.outcomes)
    if (negative({g.gate.threshold, g.measured})) kl::fuzz::finding("gate " + g.gate.name() + " accepted with a negative number");
  const std::string roofline = kl::bench::roofline_svg(report);
  if (roofline.rfind("<svg ", 0) != 0 || roofline.find("</svg>") == std::string::npos)
    kl::fuzz::finding("a roofline chart that is not one svg element");
  if (count(roofline, "<circle class=\"point\"") > report.results.size())
    kl::fuzz::finding("more roofline points than results");
  const std::string page = kl::bench::html_report(report);
  if (page.find("</html>") == std::string::npos) kl::fuzz::finding("an HTML page without its end");
  for (const auto& chart : kl::bench::report_charts(report))
    if (chart.second.find("</svg>") == std::string::npos) kl::fuzz::finding("chart " + chart.first + " without its end");
  (void)kl::bench::to_json(report);
  (void)kl::bench::to_markdown(report);
  return 0;
}
