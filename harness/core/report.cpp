#include "report.hpp"

#include "format.hpp"
#include "reference_readings.hpp"
#include "size_sweep.hpp"

#include <sstream>

namespace kl::bench {
namespace {

std::string kind_name(GateKind kind) { return kind == GateKind::min_ratio ? "min_ratio" : "order"; }

std::string json_numbers(const std::vector<double>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + json_number(values[i]);
  return text + "]";
}

void json_result(std::ostream& o, const Result& r, const Roofline& roofline) {
  o << "    {\"family\": " << json_string(r.family) << ", \"variant\": " << json_string(r.variant)
    << ", \"key\": " << json_string(r.key()) << ", \"dtype\": " << json_string(r.dtype)
    << ", \"sweep\": " << json_string(r.sweep)
    << ", \"shape\": " << json_string(r.shape) << ", \"metric\": " << json_string(r.metric)
    << ", \"value\": " << json_number(r.value) << ", \"median_ms\": " << json_number(r.median_ms)
    << ", \"min_ms\": " << json_number(r.min_ms) << ", \"max_ms\": " << json_number(r.max_ms)
    << ", \"reps\": " << r.reps << ", \"runs_ms\": " << json_numbers(r.runs_ms) << ", \"ceiling\": " << json_string(r.ceiling)
    << ", \"ceiling_value\": " << json_number(r.ceiling_value) << ", \"ratio\": " << json_number(r.ratio())
    << ", \"intensity\": " << json_number(r.intensity) << ", \"roof\": " << json_string(roof_name(r.roof))
    << ", \"roof_value\": " << json_number(roof_value(roofline, r.roof)) << "}";
}

void json_gate(std::ostream& o, const GateOutcome& g) {
  o << "    {\"name\": " << json_string(g.gate.name()) << ", \"kind\": " << json_string(kind_name(g.gate.kind))
    << ", \"a\": " << json_string(g.gate.a) << ", \"b\": " << json_string(g.gate.b)
    << ", \"rule\": " << json_string(g.gate.rule()) << ", \"status\": " << json_string(to_string(g.status))
    << ", \"measured\": " << json_number(g.measured) << ", \"threshold\": " << json_number(g.gate.threshold)
    << ", \"remeasures\": " << g.remeasures << ", \"section\": " << json_string(g.gate.section)
    << ", \"message\": " << json_string(g.message) << "}";
}

template <class T, class F>
void json_array(std::ostream& o, const std::vector<T>& items, F&& each) {
  o << "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    o << (i ? ",\n" : "\n");
    each(items[i]);
  }
  o << (items.empty() ? "]" : "\n  ]");
}


}  // namespace

std::string to_json(const Report& rep) {
  std::ostringstream o;
  const Roofline& rl = rep.roofline;
  o << "{\n  \"gpu\": " << json_string(rep.gpu) << ",\n  \"arch\": " << json_string(rep.arch)
    << ",\n  \"commit\": " << json_string(rep.commit) << ",\n  \"date\": " << json_string(rep.date) << ",\n";
  o << "  \"roofline\": {\"dram_gbps\": " << json_number(rl.dram_gbps) << ", \"fp32_tflops\": "
    << json_number(rl.fp32_tflops) << ", \"fp16_tensor_tflops\": " << json_number(rl.fp16_tensor_tflops)
    << ", \"int32_tops\": " << json_number(rl.int32_tops) << ", \"tolerance\": " << json_number(roofline_tolerance)
    << ", \"fp16_tensor_basis\": " << json_string(rl.fp16_tensor_basis) << "},\n";
  o << "  \"ceilings\": ";
  json_array(o, rep.ceilings, [&](const Ceiling& c) {
    o << "    {\"name\": " << json_string(c.name) << ", \"metric\": " << json_string(c.metric)
      << ", \"value\": " << json_number(c.value) << ", \"how\": " << json_string(c.how)
      << ", \"reference\": " << json_string(c.reference) << ", \"readings\": " << json_numbers(c.readings) << "}";
  });
  o << ",\n  \"results\": ";
  json_array(o, rep.results, [&](const Result& r) { json_result(o, r, rl); });
  o << ",\n  \"gates_file\": " << json_string(rep.gates_evaluated ? rep.gates_path : "") << ",\n  \"gates\": ";
  json_array(o, rep.gates.outcomes, [&](const GateOutcome& g) { json_gate(o, g); });
  o << ",\n  \"gates_not_applicable\": ";
  json_array(o, rep.gates.not_applicable, [&](const std::string& n) { o << "    " << json_string(n); });
  const std::vector<std::string> ungated = rep.gates_evaluated ? ungated_keys(rep.gates, rep.results) : std::vector<std::string>{};
  o << ",\n  \"ungated\": ";
  json_array(o, ungated, [&](const std::string& k) { o << "    " << json_string(k); });
  o << ",\n  \"excluded\": ";
  json_array(o, rep.excluded, [&](const Exclusion& e) {
    o << "    {\"what\": " << json_string(e.what) << ", \"reason\": " << json_string(e.reason) << "}";
  });
  o << "\n}\n";
  return o.str();
}

std::string to_markdown(const Report& rep) {
  std::ostringstream o;
  const Roofline& rl = rep.roofline;
  o << "# kernel-lab bench: " << rep.gpu << " (" << rep.arch << ")\n\n";
  o << "Physical roofline from the device attributes: DRAM " << sig3(rl.dram_gbps) << " GB/s, FP32 "
    << sig3(rl.fp32_tflops) << " TFLOPS, FP16 tensor " << sig3(rl.fp16_tensor_tflops) << " TFLOPS (bound: "
    << rl.fp16_tensor_basis << "), int32 issue bound " << sig3(rl.int32_tops)
    << " TOPS. A result above its roof x " << fixed(1 + roofline_tolerance, 2) << " is rejected as a harness error.\n\n";
  if (!rep.ceilings.empty()) {
    o << "Ceilings measured in this process:\n\n";
    for (const Ceiling& c : rep.ceilings)
      o << "- `" << c.name << "`: " << (c.readings.size() > 1 ? readings_text(c) : sig3(c.value) + " " + c.metric)
        << " (" << c.how << ")\n";
    o << "\n";
  }
  o << "| result | shape | intensity (op/B) | achieved | median ms (min..max) | reps | ceiling | % of ceiling | % of roof |\n"
    << "|---|---|---|---|---|---|---|---|---|\n";
  for (const Result& r : rep.results) {
    const double roof = roof_value(rl, r.roof);
    o << "| `" << r.key() << "` | " << r.shape << " | " << sig3(r.intensity) << " | " << sig3(r.value) << " "
      << r.metric << " | " << fixed(r.median_ms, 3) << " (" << fixed(r.min_ms, 3) << ".." << fixed(r.max_ms, 3)
      << ") | " << r.reps << " | " << r.ceiling << " " << sig3(r.ceiling_value) << " | " << percent(r.ratio())
      << " | " << (roof > 0 ? percent(r.value / roof) : "n/a") << " |\n";
  }
  if (const std::string sweep = sweep_markdown(rep.results); !sweep.empty())
    o << "\n## Size sweeps (% of the ceiling measured at the same n)\n\n" << sweep;
  if (rep.gates_evaluated) {
    o << "\n## Gates (" << rep.gates_path << ", [gpu " << rep.gpu << "] over [" << rep.arch << "] over [default])\n\n";
    o << "| gate | rule | status | measured | threshold |\n|---|---|---|---|---|\n";
    for (const GateOutcome& g : rep.gates.outcomes)
      o << "| `" << g.gate.name() << "` | " << g.gate.rule() << " | **" << to_string(g.status) << "**"
        << (g.remeasures ? " (re-measured " + std::to_string(g.remeasures) + "x)" : "") << " | " << sig3(g.measured)
        << " | " << plain(g.gate.threshold) << " |\n";
    for (const GateOutcome& g : rep.gates.outcomes)
      if (g.status == GateStatus::fail) o << "\n" << g.message << "\n";
    const std::vector<std::string> ungated = ungated_keys(rep.gates, rep.results);
    if (!ungated.empty()) {
      o << "\nNot gated:";
      for (const std::string& k : ungated) o << " `" << k << "`";
      o << "\n";
    }
    if (!rep.gates.not_applicable.empty())
      o << "\n" << rep.gates.not_applicable.size() << " gate(s) read results outside this run's selection.\n";
  }
  if (!rep.excluded.empty()) {
    o << "\n## Not benchmarked\n\n";
    for (const Exclusion& e : rep.excluded) o << "- `" << e.what << "`: " << e.reason << "\n";
  }
  return o.str();
}

std::string to_tsv(const Report& rep) {
  std::ostringstream o;
  for (const Result& r : rep.results)
    o << r.key() << '\t' << r.metric << '\t' << json_number(r.value) << '\t' << json_number(r.median_ms) << '\t'
      << json_number(r.min_ms) << '\t' << json_number(r.max_ms) << '\n';
  return o.str();
}

}  // namespace kl::bench
