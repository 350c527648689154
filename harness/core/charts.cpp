#include "charts.hpp"

#include "format.hpp"
#include "size_sweep.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace kl::bench {
namespace {

std::string xml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and carriage return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += ' ';
        else out += c;
    }
  }
  return out;
}

std::string px(double v) { return fixed(v, 1); }

// One colour per family, in the order families first appear.
const char* colour(std::size_t i) {
  static const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                  "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  return palette[i % (sizeof palette / sizeof palette[0])];
}

std::vector<std::string> families_of(const Report& rep) {
  std::vector<std::string> families;
  for (const Result& r : rep.results)
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  return families;
}

// Whether the family has results at its bench size (a ladder to draw), not only swept ones.
bool has_rungs(const Report& rep, const std::string& family) {
  return std::any_of(rep.results.begin(), rep.results.end(),
                     [&](const Result& r) { return r.family == family && r.sweep.empty(); });
}

// Attained operations per second, in GOP/s, or NaN when the result is not on the chart.
double gops(const Result& r) {
  if (!(r.intensity > 0) || !std::isfinite(r.intensity) || !std::isfinite(r.value) || !(r.value > 0)) return NAN;
  if (r.metric == "GB/s") return r.value * r.intensity;
  if (r.metric == "TFLOPS" || r.metric == "TOPS") return r.value * 1000;
  return NAN;
}

bool usable(double v) { return std::isfinite(v) && v > 0; }

// A log axis of whole decades holding [lo, hi] with a margin of a factor of 2 either side, at
// most `max_decades` wide (the top kept). Worked out in log space, so no extreme value overflows.
struct LogAxis {
  double lo_exp = 0, hi_exp = 1;
  LogAxis(double lo, double hi, int max_decades) {
    lo_exp = std::floor(std::log10(lo) - std::log10(2.0));
    hi_exp = std::ceil(std::log10(hi) + std::log10(2.0));
    if (hi_exp <= lo_exp) hi_exp = lo_exp + 1;
    if (hi_exp - lo_exp > max_decades) lo_exp = hi_exp - max_decades;
  }
  int decades() const { return static_cast<int>(hi_exp - lo_exp); }
  double at(double v, double from, double to) const {
    return from + (std::log10(v) - lo_exp) / (hi_exp - lo_exp) * (to - from);
  }
  double min() const { return std::pow(10.0, lo_exp); }
  double max() const { return std::pow(10.0, hi_exp); }
};

std::string decade_label(double exponent) {
  const double v = std::pow(10.0, exponent);
  if (exponent >= 0 && exponent <= 6) return plain(v);
  if (exponent < 0 && exponent >= -3) return plain(v);
  return "1e" + std::to_string(static_cast<int>(exponent));
}

// More points than this and the roofline names them in tooltips only (see roofline_svg).
constexpr long max_labelled_points = 24;

struct RoofLine {
  std::string id, label;
  double gops = 0;
};

}  // namespace

std::string roofline_svg(const Report& rep) {
  const double W = 820, H = 524, L = 80, R = 190, T = 30, B = 84;
  const double x0 = L, x1 = W - R, y0 = H - B, y1 = T;
  const Roofline& rl = rep.roofline;
  std::vector<RoofLine> roofs;
  if (usable(rl.fp32_tflops)) roofs.push_back({"fp32", "FP32 " + sig3(rl.fp32_tflops) + " TFLOPS", rl.fp32_tflops * 1000});
  if (usable(rl.fp16_tensor_tflops))
    roofs.push_back({"fp16_tensor", "FP16 tensor " + sig3(rl.fp16_tensor_tflops) + " TFLOPS", rl.fp16_tensor_tflops * 1000});
  if (usable(rl.int32_tops)) roofs.push_back({"int32", "int32 " + sig3(rl.int32_tops) + " TOPS", rl.int32_tops * 1000});
  const double dram = usable(rl.dram_gbps) ? rl.dram_gbps : NAN;

  // The axes hold every point, every ridge and the roofs.
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
  for (const Result& r : rep.results) {
    const double y = gops(r);
    if (!usable(y)) continue;
    xmin = std::min(xmin, r.intensity), xmax = std::max(xmax, r.intensity);
    ymin = std::min(ymin, y), ymax = std::max(ymax, y);
  }
  for (const RoofLine& roof : roofs) {
    ymax = std::max(ymax, roof.gops);
    if (usable(dram) && usable(roof.gops / dram))
      xmax = std::max(xmax, roof.gops / dram), xmin = std::min(xmin, roof.gops / dram / 4);
  }
  if (!usable(xmin) || !usable(xmax)) xmin = 0.1, xmax = 1000;
  if (!usable(ymin)) ymin = usable(dram * xmin) ? dram * xmin : 1;
  if (!usable(ymax)) ymax = usable(ymin * 1000) ? ymin * 1000 : ymin;
  const LogAxis ax(xmin, xmax, 10), ay(ymin, ymax, 10);
  auto X = [&](double v) { return ax.at(v, x0, x1); };
  auto Y = [&](double v) { return ay.at(v, y0, y1); };

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart roofline\" viewBox=\"0 0 " << W << " " << H
    << "\" width=\"" << W << "\" height=\"" << H << "\" role=\"img\" aria-label=\"roofline\">\n"
    << "<title>Roofline: " << xml(rep.gpu) << "</title>\n"
    << "<defs><clipPath id=\"roofline-plot\"><rect x=\"" << x0 << "\" y=\"" << y1 << "\" width=\"" << x1 - x0
    << "\" height=\"" << y0 - y1 << "\"/></clipPath></defs>\n"
    << "<rect class=\"plot-area\" x=\"" << x0 << "\" y=\"" << y1 << "\" width=\"" << x1 - x0 << "\" height=\""
    << y0 - y1 << "\" fill=\"#fff\" stroke=\"#444\"/>\n";
  // Axes: a tick and a grid line per decade.
  o << "<g class=\"axis x\" font-size=\"11\" text-anchor=\"middle\">\n";
  for (int i = 0; i <= ax.decades(); ++i) {
    const double e = ax.lo_exp + i;
    const double x = X(std::pow(10.0, e));
    o << "<line x1=\"" << px(x) << "\" y1=\"" << y0 << "\" x2=\"" << px(x) << "\" y2=\"" << y1
      << "\" stroke=\"#ddd\"/><text x=\"" << px(x) << "\" y=\"" << y0 + 16 << "\">" << decade_label(e) << "</text>\n";
  }
  o << "<text class=\"axis-title\" x=\"" << (x0 + x1) / 2 << "\" y=\"" << y0 + 36
    << "\">operational intensity (operations per DRAM byte)</text>\n</g>\n";
  o << "<g class=\"axis y\" font-size=\"11\" text-anchor=\"end\">\n";
  for (int i = 0; i <= ay.decades(); ++i) {
    const double e = ay.lo_exp + i;
    const double y = Y(std::pow(10.0, e));
    o << "<line x1=\"" << x0 << "\" y1=\"" << px(y) << "\" x2=\"" << x1 << "\" y2=\"" << px(y)
      << "\" stroke=\"#ddd\"/><text x=\"" << x0 - 6 << "\" y=\"" << px(y + 4) << "\">" << decade_label(e) << "</text>\n";
  }
  o << "<text class=\"axis-title\" transform=\"rotate(-90)\" x=\"" << -(y0 + y1) / 2 << "\" y=\"18\" text-anchor=\"middle\">"
       "attained GOP/s</text>\n</g>\n";

  o << "<g clip-path=\"url(#roofline-plot)\">\n";
  const double top_roof = roofs.empty() ? ay.max() : std::max_element(roofs.begin(), roofs.end(), [](auto& a, auto& b) { return a.gops < b.gops; })->gops;
  if (usable(dram)) {
    const double xr = std::min(ax.max(), top_roof / dram);
    o << "<line class=\"roof\" data-roof=\"dram\" x1=\"" << px(X(ax.min())) << "\" y1=\"" << px(Y(dram * ax.min()))
      << "\" x2=\"" << px(X(xr)) << "\" y2=\"" << px(Y(dram * xr)) << "\" stroke=\"#000\" stroke-width=\"2\"/>\n";
  }
  for (const RoofLine& roof : roofs) {
    const double xs = usable(dram) ? std::max(ax.min(), roof.gops / dram) : ax.min();
    o << "<line class=\"roof\" data-roof=\"" << roof.id << "\" x1=\"" << px(X(xs)) << "\" y1=\"" << px(Y(roof.gops))
      << "\" x2=\"" << x1 << "\" y2=\"" << px(Y(roof.gops)) << "\" stroke=\"#000\" stroke-width=\"2\"/>\n";
  }
  for (const Ceiling& c : rep.ceilings) {
    if (!usable(c.value)) continue;
    if (c.metric == "GB/s")
      o << "<line class=\"ceiling\" data-ceiling=\"" << xml(c.name) << "\" x1=\"" << px(X(ax.min())) << "\" y1=\""
        << px(Y(c.value * ax.min())) << "\" x2=\"" << px(X(ax.max())) << "\" y2=\"" << px(Y(c.value * ax.max()))
        << "\" stroke=\"#666\" stroke-dasharray=\"6 4\"><title>" << xml(c.name) << ": " << sig3(c.value)
        << " GB/s (measured)</title></line>\n";
    else if (c.metric == "TFLOPS" || c.metric == "TOPS")
      o << "<line class=\"ceiling\" data-ceiling=\"" << xml(c.name) << "\" x1=\"" << x0 << "\" y1=\"" << px(Y(c.value * 1000))
        << "\" x2=\"" << x1 << "\" y2=\"" << px(Y(c.value * 1000)) << "\" stroke=\"#666\" stroke-dasharray=\"6 4\"><title>"
        << xml(c.name) << ": " << sig3(c.value) << " " << xml(c.metric) << " (measured)</title></line>\n";
  }
  const std::vector<std::string> families = families_of(rep);
  // Beyond a couple of dozen points the labels hide each other: then each point keeps its name
  // in its tooltip, and the legend tells the families apart.
  const bool label_points = std::count_if(rep.results.begin(), rep.results.end(),
                                          [](const Result& r) { return usable(gops(r)); }) <= max_labelled_points;
  for (const Result& r : rep.results) {
    const double y = gops(r);
    if (!usable(y)) continue;
    const std::size_t f = static_cast<std::size_t>(std::find(families.begin(), families.end(), r.family) - families.begin());
    o << "<circle class=\"point\" data-key=\"" << xml(r.key()) << "\" data-family=\"" << xml(r.family) << "\" cx=\""
      << px(X(r.intensity)) << "\" cy=\"" << px(Y(y)) << "\" r=\"4\" fill=\"" << colour(f) << "\"><title>" << xml(r.key())
      << ": " << sig3(r.value) << " " << xml(r.metric) << ", " << sig3(r.intensity) << " op/B</title></circle>\n";
    if (label_points)
      o << "<text class=\"point-label\" x=\"" << px(X(r.intensity) + 6) << "\" y=\"" << px(Y(y) - 4)
        << "\" font-size=\"9\" fill=\"" << colour(f) << "\">" << xml(r.variant + (r.dtype.empty() ? "" : "." + r.dtype))
        << "</text>\n";
  }
  o << "</g>\n";
  // The legend: one colour per family, in a row under the axis title.
  o << "<g class=\"legend\" font-size=\"11\">\n";
  double lx = x0;
  for (std::size_t f = 0; f < families.size(); ++f) {
    o << "<circle cx=\"" << px(lx + 5) << "\" cy=\"" << H - 14 << "\" r=\"4\" fill=\"" << colour(f) << "\"/><text x=\""
      << px(lx + 12) << "\" y=\"" << H - 10 << "\">" << xml(families[f]) << "</text>\n";
    lx += 24 + 6.5 * static_cast<double>(families[f].size());
  }
  o << "</g>\n";
  // Roof labels beside the plot, at the height of each roof.
  // Roofs of (nearly) one height keep their labels 12 px apart, top down.
  std::vector<std::pair<double, std::string>> labels;
  for (const RoofLine& roof : roofs) labels.emplace_back(std::clamp(Y(roof.gops) + 4, y1 + 10, y0), roof.label);
  std::sort(labels.begin(), labels.end());
  for (std::size_t i = 1; i < labels.size(); ++i) labels[i].first = std::max(labels[i].first, labels[i - 1].first + 12);
  o << "<g class=\"roof-labels\" font-size=\"11\">\n";
  for (const auto& [y, label] : labels) o << "<text x=\"" << x1 + 6 << "\" y=\"" << px(y) << "\">" << xml(label) << "</text>\n";
  if (usable(dram)) o << "<text x=\"" << x1 + 6 << "\" y=\"" << y0 - 4 << "\">DRAM " << sig3(dram) << " GB/s (slope)</text>\n";
  o << "<text x=\"" << x1 + 6 << "\" y=\"" << y0 - 20 << "\" fill=\"#666\">- - measured ceilings</text>\n";
  o << "</g>\n</svg>\n";
  return o.str();
}

std::string ladder_svg(const Report& rep, const std::string& family) {
  std::vector<const Result*> rungs;
  for (const Result& r : rep.results)
    if (r.family == family && r.sweep.empty()) rungs.push_back(&r);
  double top = 1.0;
  for (const Result* r : rungs)
    if (std::isfinite(r->ratio())) top = std::max(top, r->ratio() * 1.1);
  top = std::min(top, 100.0);
  const double W = 820, L = 300, R = 70, T = 30, row = 22;
  const double H = T + row * static_cast<double>(rungs.size()) + 40;
  const double x0 = L, x1 = W - R;
  auto X = [&](double ratio) { return x0 + std::clamp(ratio, 0.0, top) / top * (x1 - x0); };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart ladder\" data-family=\"" << xml(family) << "\" viewBox=\"0 0 "
    << W << " " << H << "\" width=\"" << W << "\" height=\"" << H << "\" role=\"img\" aria-label=\"ladder " << xml(family) << "\">\n"
    << "<title>" << xml(family) << ": each rung's share of its ceiling</title>\n";
  o << "<g class=\"axis x\" font-size=\"11\" text-anchor=\"middle\">\n";
  for (int i = 0; i <= 4; ++i) {
    const double ratio = top * i / 4;
    o << "<line x1=\"" << px(X(ratio)) << "\" y1=\"" << T - 4 << "\" x2=\"" << px(X(ratio)) << "\" y2=\"" << H - 36
      << "\" stroke=\"#ddd\"/><text x=\"" << px(X(ratio)) << "\" y=\"" << H - 22 << "\">" << sig3(100 * ratio) << "%</text>\n";
  }
  o << "<line class=\"full-ceiling\" x1=\"" << px(X(1)) << "\" y1=\"" << T - 4 << "\" x2=\"" << px(X(1)) << "\" y2=\"" << H - 36
    << "\" stroke=\"#000\"/>\n<text class=\"axis-title\" x=\"" << (x0 + x1) / 2 << "\" y=\"" << H - 6
    << "\">share of the ceiling measured in the same run</text>\n</g>\n";
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    const Result& r = *rungs[i];
    const double y = T + row * static_cast<double>(i);
    const double ratio = std::isfinite(r.ratio()) ? r.ratio() : 0;
    o << "<g class=\"rung\" data-key=\"" << xml(r.key()) << "\">\n<text x=\"" << x0 - 6 << "\" y=\"" << px(y + 14)
      << "\" font-size=\"11\" text-anchor=\"end\">" << xml(r.key()) << "</text>\n<rect x=\"" << x0 << "\" y=\"" << px(y + 3)
      << "\" width=\"" << px(X(ratio) - x0) << "\" height=\"" << row - 6 << "\" fill=\"#4c78a8\"><title>" << xml(r.key()) << ": "
      << sig3(r.value) << " " << xml(r.metric) << ", " << sig3(100 * ratio) << "% of " << xml(r.ceiling)
      << "</title></rect>\n<text x=\"" << px(X(ratio) + 4) << "\" y=\"" << px(y + 14) << "\" font-size=\"10\">"
      << sig3(100 * ratio) << "%</text>\n";
    for (const GateOutcome& g : rep.gates.outcomes) {
      if (g.gate.kind != GateKind::min_ratio || g.gate.a != r.key() || !std::isfinite(g.gate.threshold)) continue;
      o << "<line class=\"gate-threshold\" data-gate=\"" << xml(g.gate.name()) << "\" x1=\"" << px(X(g.gate.threshold)) << "\" y1=\""
        << px(y + 1) << "\" x2=\"" << px(X(g.gate.threshold)) << "\" y2=\"" << px(y + row - 1)
        << "\" stroke=\"" << (g.status == GateStatus::fail ? "#d62728" : "#2ca02c") << "\" stroke-width=\"3\"><title>gate: "
        << xml(g.gate.rule()) << " (" << to_string(g.status) << ")</title></line>\n";
    }
    o << "</g>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string sweep_svg(const Report& rep, const std::string& family) {
  std::vector<std::string> tags;                               // swept shapes or sizes, x axis order
  std::map<std::string, std::vector<const Result*>> curves;    // variant[.dtype] -> its points
  std::vector<std::string> curve_order;
  for (const Result& r : rep.results) {
    if (r.family != family || r.sweep.empty()) continue;
    if (std::find(tags.begin(), tags.end(), r.sweep) == tags.end()) tags.push_back(r.sweep);
    const std::string name = r.variant + (r.dtype.empty() ? "" : "." + r.dtype);
    if (!curves.count(name)) curve_order.push_back(name);
    curves[name].push_back(&r);
  }
  if (tags.empty()) return "";
  // Size tags (n4k .. n1g) in ascending n, whatever order the cases ran in (the bench's own 2^16
  // cases come before the sweep's); other shapes keep the bench's order. Each curve's points in
  // the x axis' order, so a line never doubles back.
  if (std::all_of(tags.begin(), tags.end(), [](const std::string& t) { return size_of_tag(t).has_value(); }))
    std::sort(tags.begin(), tags.end(), [](const std::string& a, const std::string& b) { return *size_of_tag(a) < *size_of_tag(b); });
  const auto x_index = [&](const Result* r) {
    return static_cast<std::size_t>(std::find(tags.begin(), tags.end(), r->sweep) - tags.begin());
  };
  for (auto& [name, points] : curves)
    std::stable_sort(points.begin(), points.end(), [&](const Result* a, const Result* b) { return x_index(a) < x_index(b); });
  double top = 1.0;
  for (const auto& [name, points] : curves)
    for (const Result* r : points)
      if (std::isfinite(r->ratio())) top = std::max(top, r->ratio() * 1.1);
  top = std::min(top, 100.0);
  const double W = 820, H = 380, L = 70, R = 200, T = 30, B = 110;
  const double x0 = L, x1 = W - R, y0 = H - B, y1 = T;
  auto X = [&](std::size_t i) { return tags.size() == 1 ? (x0 + x1) / 2 : x0 + (x1 - x0) * static_cast<double>(i) / static_cast<double>(tags.size() - 1); };
  auto Y = [&](double ratio) { return y0 - std::clamp(ratio, 0.0, top) / top * (y0 - y1); };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart sweep\" data-family=\"" << xml(family) << "\" viewBox=\"0 0 " << W
    << " " << H << "\" width=\"" << W << "\" height=\"" << H << "\" role=\"img\" aria-label=\"sweep " << xml(family) << "\">\n"
    << "<title>" << xml(family) << ": share of the ceiling across the swept shapes</title>\n"
    << "<rect x=\"" << x0 << "\" y=\"" << y1 << "\" width=\"" << x1 - x0 << "\" height=\"" << y0 - y1
    << "\" fill=\"#fff\" stroke=\"#444\"/>\n<g class=\"axis y\" font-size=\"11\" text-anchor=\"end\">\n";
  for (int i = 0; i <= 4; ++i)
    o << "<text x=\"" << x0 - 6 << "\" y=\"" << px(Y(top * i / 4) + 4) << "\">" << sig3(100 * top * i / 4) << "%</text>\n";
  o << "</g>\n<g class=\"axis x\" font-size=\"10\">\n";
  for (std::size_t i = 0; i < tags.size(); ++i)
    o << "<text transform=\"translate(" << px(X(i)) << "," << y0 + 12 << ") rotate(30)\">" << xml(tags[i]) << "</text>\n";
  o << "</g>\n";
  for (std::size_t c = 0; c < curve_order.size(); ++c) {
    const std::string& name = curve_order[c];
    std::ostringstream points;
    for (const Result* r : curves[name]) {
      const std::size_t i = x_index(r);
      points << px(X(i)) << "," << px(Y(std::isfinite(r->ratio()) ? r->ratio() : 0)) << " ";
    }
    o << "<polyline class=\"sweep-curve\" data-variant=\"" << xml(name) << "\" points=\"" << points.str()
      << "\" fill=\"none\" stroke=\"" << colour(c) << "\" stroke-width=\"2\"/>\n<text x=\"" << x1 + 8 << "\" y=\""
      << px(y1 + 14 + 14 * static_cast<double>(c)) << "\" font-size=\"11\" fill=\"" << colour(c) << "\">" << xml(name) << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string comparison_svg(const Comparison& c, const std::string& title) {
  std::vector<const ComparedRow*> rows;
  for (const ComparedRow& r : c.rows)
    if (r.base_ms && r.head_ms) rows.push_back(&r);
  double span = 0.1;  // the axis: +-max(10%, the largest change or bound, 1.2x), at most +-1000%
  for (const ComparedRow* r : rows)
    if (std::isfinite(r->change) && std::isfinite(r->bound)) span = std::max({span, std::abs(r->change) * 1.2, r->bound * 1.2});
  span = std::min(span, 10.0);
  const double W = 820, L = 320, R = 80, T = 40, row = 20;
  const double H = T + row * static_cast<double>(rows.size()) + 44;
  const double x0 = L, x1 = W - R, mid = (x0 + x1) / 2;
  auto X = [&](double change) { return mid + std::clamp(change, -span, span) / span * (x1 - x0) / 2; };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart comparison\" viewBox=\"0 0 " << W << " " << H
    << "\" width=\"" << W << "\" height=\"" << H << "\" role=\"img\" aria-label=\"base against head\">\n<title>" << xml(title)
    << "</title>\n<text x=\"" << x0 << "\" y=\"18\" font-size=\"12\">" << xml(title) << "</text>\n"
    << "<g class=\"axis x\" font-size=\"11\" text-anchor=\"middle\">\n";
  for (int i = -2; i <= 2; ++i) {
    const double change = span * i / 2;
    o << "<line x1=\"" << px(X(change)) << "\" y1=\"" << T - 6 << "\" x2=\"" << px(X(change)) << "\" y2=\"" << H - 38
      << "\" stroke=\"" << (i == 0 ? "#000" : "#ddd") << "\"/><text x=\"" << px(X(change)) << "\" y=\"" << H - 24 << "\">"
      << (change > 0 ? "+" : "") << sig3(100 * change) << "%</text>\n";
  }
  o << "<text class=\"axis-title\" x=\"" << mid << "\" y=\"" << H - 6
    << "\">time change, head against base (right: slower; grey: the rule's noise band)</text>\n</g>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ComparedRow& r = *rows[i];
    const double y = T + row * static_cast<double>(i);
    const double change = std::isfinite(r.change) ? r.change : 0;
    const char* fill = r.verdict == Verdict::regression ? "#d62728" : r.verdict == Verdict::faster ? "#2ca02c" : "#4c78a8";
    const std::string key = r.key + " (" + r.metric + ")";
    o << "<g class=\"compared\">\n<text x=\"" << x0 - 6 << "\" y=\"" << px(y + 13) << "\" font-size=\"11\" text-anchor=\"end\">"
      << xml(key) << "</text>\n<rect class=\"noise\" x=\"" << px(X(-r.bound)) << "\" y=\"" << px(y + 2) << "\" width=\""
      << px(X(r.bound) - X(-r.bound)) << "\" height=\"" << row - 4 << "\" fill=\"#eee\"/>\n<rect class=\"change\" data-key=\""
      << xml(r.key) << "\" data-verdict=\"" << xml(to_string(r.verdict)) << "\" x=\"" << px(std::min(X(0), X(change)))
      << "\" y=\"" << px(y + 5) << "\" width=\"" << px(std::abs(X(change) - X(0))) << "\" height=\"" << row - 10
      << "\" fill=\"" << fill << "\"><title>" << xml(key) << ": " << (change >= 0 ? "+" : "") << sig3(100 * change)
      << "% (bound +-" << sig3(100 * r.bound) << "%), " << xml(to_string(r.verdict)) << "</title></rect>\n</g>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::vector<std::pair<std::string, std::string>> report_charts(const Report& rep) {
  std::vector<std::pair<std::string, std::string>> charts{{"roofline.svg", roofline_svg(rep)}};
  for (const std::string& f : families_of(rep)) {
    if (has_rungs(rep, f)) charts.emplace_back("ladder-" + f + ".svg", ladder_svg(rep, f));
    if (std::string s = sweep_svg(rep, f); !s.empty()) charts.emplace_back("sweep-" + f + ".svg", std::move(s));
  }
  return charts;
}

std::string charts_markdown(const std::vector<std::pair<std::string, std::string>>& charts, const std::string& dir) {
  std::ostringstream o;
  o << "\n## Pictures\n\nThe same run drawn (the charts of `kernel-lab bench --html`): where each result sits under "
       "the roofline, and how far each rung of each ladder climbs toward its ceiling, with its gate marked.\n\n";
  for (const auto& [name, svg] : charts) {
    const std::string title = name.substr(0, name.size() - 4);  // without ".svg"
    o << "![" << title << "](" << dir << "/" << name << ")\n\n";
  }
  return o.str();
}

std::string html_report(const Report& rep) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>kernel-lab bench: " << xml(rep.gpu)
    << "</title>\n<style>\n"
       "body { font-family: sans-serif; margin: 2em; color: #222; max-width: 1100px; }\n"
       "dl.meta { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }\n"
       "dt { font-weight: bold; }\n"
       "table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }\n"
       "th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; }\n"
       "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
       ".status-pass { background: #e3f4e3; } .status-fail { background: #f9dcdc; font-weight: bold; }\n"
       ".status-remeasured-pass { background: #fff3cd; }\n"
       "figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }\n"
       "</style>\n</head>\n<body>\n<h1>kernel-lab bench report</h1>\n<dl class=\"meta\">\n"
    << "<dt>GPU</dt><dd id=\"gpu\">" << xml(rep.gpu) << " (" << xml(rep.arch) << ")</dd>\n"
    << "<dt>Commit</dt><dd id=\"commit\">" << xml(rep.commit) << "</dd>\n"
    << "<dt>Date</dt><dd id=\"date\">" << xml(rep.date) << "</dd>\n"
    << "<dt>Gates</dt><dd>" << (rep.gates_evaluated ? xml(rep.gates_path) : "not evaluated") << "</dd>\n</dl>\n";

  o << "<section id=\"roofline\">\n<h2>Roofline</h2>\n<figure>\n" << roofline_svg(rep)
    << "<figcaption>Physical roofs from the device attributes (solid): DRAM " << sig3(rep.roofline.dram_gbps)
    << " GB/s, FP32 " << sig3(rep.roofline.fp32_tflops) << " TFLOPS, FP16 tensor " << sig3(rep.roofline.fp16_tensor_tflops)
    << " TFLOPS (" << xml(rep.roofline.fp16_tensor_basis) << "), int32 issue bound " << sig3(rep.roofline.int32_tops)
    << " TOPS. Dashed: ceilings measured in this run.";
  std::vector<std::string> off_chart;
  for (const Result& r : rep.results)
    if (!usable(gops(r))) off_chart.push_back(r.key());
  if (!off_chart.empty()) {
    o << " Not on the chart (no operation count or intensity):";
    for (const std::string& k : off_chart) o << " <code>" << xml(k) << "</code>";
    o << ".";
  }
  o << "</figcaption>\n</figure>\n</section>\n";

  o << "<section id=\"ladders\">\n<h2>Ladders</h2>\n";
  for (const std::string& f : families_of(rep)) {
    if (has_rungs(rep, f))
      o << "<figure>\n" << ladder_svg(rep, f) << "<figcaption>" << xml(f)
        << ": each rung's share of its ceiling; the marks are the min_ratio gates (green pass, red fail).</figcaption>\n</figure>\n";
  }
  o << "</section>\n";
  std::ostringstream sweeps;
  for (const std::string& f : families_of(rep))
    if (const std::string s = sweep_svg(rep, f); !s.empty())
      sweeps << "<figure>\n" << s << "<figcaption>" << xml(f) << " across its swept shapes.</figcaption>\n</figure>\n";
  if (!sweeps.str().empty()) o << "<section id=\"sweeps\">\n<h2>Size sweeps</h2>\n" << sweeps.str() << "</section>\n";

  o << "<section id=\"gates\">\n<h2>Gates</h2>\n";
  if (!rep.gates_evaluated) {
    o << "<p>No gates were evaluated in this run.</p>\n";
  } else {
    o << "<table class=\"gates\">\n<tr><th>gate</th><th>rule</th><th>status</th><th>measured</th><th>threshold</th></tr>\n";
    for (const GateOutcome& g : rep.gates.outcomes)
      o << "<tr class=\"gate status-" << to_string(g.status) << "\" data-gate=\"" << xml(g.gate.name()) << "\"><td><code>"
        << xml(g.gate.name()) << "</code></td><td>" << xml(g.gate.rule()) << "</td><td>" << to_string(g.status)
        << (g.remeasures ? " (re-measured " + std::to_string(g.remeasures) + "x)" : "") << "</td><td class=\"num\">"
        << sig3(g.measured) << "</td><td class=\"num\">" << plain(g.gate.threshold) << "</td></tr>\n";
    o << "</table>\n";
  }
  o << "</section>\n";

  o << "<section id=\"results\">\n<h2>Results</h2>\n<table class=\"results\">\n<tr><th>result</th><th>shape</th>"
       "<th>achieved</th><th>median ms (min..max)</th><th>ceiling</th><th>% of ceiling</th></tr>\n";
  for (const Result& r : rep.results)
    o << "<tr class=\"result\" data-key=\"" << xml(r.key()) << "\"><td><code>" << xml(r.key()) << "</code></td><td>"
      << xml(r.shape) << "</td><td class=\"num\">" << sig3(r.value) << " " << xml(r.metric) << "</td><td class=\"num\">"
      << fixed(r.median_ms, 3) << " (" << fixed(r.min_ms, 3) << ".." << fixed(r.max_ms, 3) << ")</td><td>" << xml(r.ceiling)
      << " " << sig3(r.ceiling_value) << "</td><td class=\"num\">" << sig3(100 * r.ratio()) << "%</td></tr>\n";
  o << "</table>\n</section>\n";
  if (!rep.excluded.empty()) {
    o << "<section id=\"excluded\">\n<h2>Not benchmarked</h2>\n<ul>\n";
    for (const Exclusion& e : rep.excluded) o << "<li><code>" << xml(e.what) << "</code>: " << xml(e.reason) << "</li>\n";
    o << "</ul>\n</section>\n";
  }
  o << "</body>\n</html>\n";
  return o.str();
}

}  // namespace kl::bench
