// Fuzz target: the reader of the bench's JSON report (`kernel-lab report`, the HTML report and
// merged reports start from it) and the charts drawn from what it reads. Any text must parse
// into a report (no measurement negative) or be refused with a JsonError naming the file; a
// report must then render (HTML, every SVG) with one roofline point per result that has an
// intensity and a rate. Anything else (a crash, another exception, a hang, unbounded memory) is a
// finding.
#include "fuzz_input.hpp"

#include "core/charts.hpp"
#include "core/report_reader.hpp"

#include <string_view>

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
  for (const kl::bench::Result& r : report.results)
    for (const double x : {r.value, r.median_ms, r.min_ms, r.max_ms, r.ceiling_value, r.intensity})
      if (x < 0) kl::fuzz::finding("result " + r.key() + " accepted with a negative measurement");
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
