// The bench report as pictures: a roofline chart, one ladder chart per family, size-sweep curves,
// and the self-contained HTML page that holds them (inline SVG and CSS, nothing fetched).
// Host-only, so the host tier renders them from a JSON fixture and checks them in a browser.
#pragma once

#include "report.hpp"
#include "run_compare.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kl::bench {

// Log-log: operational intensity (operations per DRAM byte) against attained GOP/s. The physical
// roofs from the device attributes (DRAM bandwidth, FP32, FP16 tensor, int32) are solid, the
// ceilings measured in the run dashed, every result with an intensity a labelled point
// (<circle class="point" data-key="KEY">).
std::string roofline_svg(const Report& report);
// Each rung of one family as a bar of its share of its ceiling, in the bench's order, with its
// min_ratio gate's threshold marked (<line class="gate-threshold">).
std::string ladder_svg(const Report& report, const std::string& family);
// Ratio to ceiling across the swept shapes, one curve per variant; empty when the family has no
// swept results.
std::string sweep_svg(const Report& report, const std::string& family);

// Base against head (`kernel-lab compare --chart`): one bar per variant and metric compared, its
// time change from base to head, over the band the rule calls noise; red a regression, green
// faster (<rect class="change" data-key="KEY" data-verdict="...">).
std::string comparison_svg(const Comparison& comparison, const std::string& title);

// Every chart by the file name `--svg DIR` writes it under: roofline.svg, ladder-<family>.svg,
// sweep-<family>.svg.
std::vector<std::pair<std::string, std::string>> report_charts(const Report& report);
// A Markdown section that shows the charts written into `dir` (a path relative to the Markdown
// file), for docs/LESSONS.md: "## Pictures" and one image link per chart.
std::string charts_markdown(const std::vector<std::pair<std::string, std::string>>& charts, const std::string& dir);
// The whole page: GPU, commit and date, the charts, the gates table (pass / fail / re-measured),
// every result and what was left out.
std::string html_report(const Report& report);

}  // namespace kl::bench
