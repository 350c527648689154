#include "report_reader.hpp"

#include "format.hpp"
#include "input_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

namespace kl::bench {
namespace {

// Reads typed fields out of one object, naming the path of any field that is missing or of the
// wrong type.
class Fields {
 public:
  Fields(const JsonValue& object, std::string path, const std::string& file) : object_(object), path_(std::move(path)), file_(file) {
    if (object.kind() != JsonValue::Kind::object) fail(path_, "expected an object");
  }

  std::string text(const char* key) const {
    const JsonValue& v = member(key);
    if (v.kind() != JsonValue::Kind::string) fail(at(key), "expected a string");
    return v.string();
  }
  // A number; null (the bench's word for not finite) reads as NaN.
  double number(const char* key) const {
    const JsonValue& v = member(key);
    if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (v.kind() != JsonValue::Kind::number) fail(at(key), "expected a number or null");
    return v.number();
  }
  // A measurement: a number >= 0 (times, rates, intensities, peaks), or null.
  double measure(const char* key) const {
    const double d = number(key);
    if (d < 0) fail(at(key), "expected a number >= 0 or null, got " + json_number(d));
    return d;
  }
  int integer(const char* key) const {
    const double d = number(key);
    if (!(d >= 0 && d <= 1e9) || d != std::floor(d)) fail(at(key), "expected a whole number in [0, 10^9]");
    return static_cast<int>(d);
  }
  // An array of measurements (numbers >= 0); an absent key reads as none (fields reports gained
  // later: readings, runs_ms).
  std::vector<double> measures_if_present(const char* key) const {
    std::vector<double> values;
    if (object_.find(key) == nullptr) return values;
    const std::vector<JsonValue>& items = array(key);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind() != JsonValue::Kind::number || items[i].number() < 0)
        fail(at(key) + "[" + std::to_string(i) + "]", "expected a number >= 0");
      values.push_back(items[i].number());
    }
    return values;
  }
  const std::vector<JsonValue>& array(const char* key) const {
    const JsonValue& v = member(key);
    if (v.kind() != JsonValue::Kind::array) fail(at(key), "expected an array");
    return v.items();
  }
  const JsonValue& member(const char* key) const {
    const JsonValue* v = object_.find(key);
    if (v == nullptr) fail(at(key), "missing");
    return *v;
  }
  std::string at(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw JsonError(file_ + ": " + where + ": " + what);
  }

 private:
  const JsonValue& object_;
  std::string path_;
  const std::string& file_;
};

Roof roof_from_name(const Fields& f, const char* key) {
  const std::string name = f.text(key);
  for (Roof r : {Roof::dram_bandwidth, Roof::fp32, Roof::fp16_tensor, Roof::int32, Roof::none})
    if (roof_name(r) == name) return r;
  f.fail(f.at(key), "unknown roof '" + name + "'");
}

GateStatus status_from_name(const Fields& f, const char* key) {
  const std::string name = f.text(key);
  for (GateStatus s : {GateStatus::pass, GateStatus::fail, GateStatus::remeasured_pass})
    if (to_string(s) == name) return s;
  f.fail(f.at(key), "unknown gate status '" + name + "'");
}

std::string item_path(const char* array, std::size_t i) { return std::string(array) + "[" + std::to_string(i) + "]"; }

}  // namespace

Report read_report_json(std::string_view text, const std::string& name) {
  const JsonValue doc = parse_json(text, name);
  const Fields top(doc, "", name);
  Report rep;
  rep.gpu = top.text("gpu");
  rep.arch = top.text("arch");
  // Reports written before the bench recorded them have neither: the page says "unknown".
  rep.commit = doc.find("commit") ? top.text("commit") : "unknown";
  rep.date = doc.find("date") ? top.text("date") : "unknown";

  const Fields rl(top.member("roofline"), "roofline", name);
  rep.roofline.dram_gbps = rl.measure("dram_gbps");
  rep.roofline.fp32_tflops = rl.measure("fp32_tflops");
  rep.roofline.fp16_tensor_tflops = rl.measure("fp16_tensor_tflops");
  rep.roofline.int32_tops = rl.measure("int32_tops");
  rep.roofline.fp16_tensor_basis = rl.text("fp16_tensor_basis");

  const auto& ceilings = top.array("ceilings");
  for (std::size_t i = 0; i < ceilings.size(); ++i) {
    const Fields c(ceilings[i], item_path("ceilings", i), name);
    Ceiling read{c.text("name"), c.text("metric"), c.measure("value"), c.text("how")};
    // Reports written before the bench read its references twice have neither.
    if (ceilings[i].find("reference")) read.reference = c.text("reference");
    read.readings = c.measures_if_present("readings");
    rep.ceilings.push_back(std::move(read));
  }

  const auto& results = top.array("results");
  std::set<std::string> keys;  // as merge_reports keeps them across reports
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Fields r(results[i], item_path("results", i), name);
    Result res;
    res.family = r.text("family");
    res.variant = r.text("variant");
    res.dtype = r.text("dtype");
    res.sweep = r.text("sweep");
    res.shape = r.text("shape");
    res.metric = r.text("metric");
    res.value = r.measure("value");
    res.median_ms = r.measure("median_ms");
    res.min_ms = r.measure("min_ms");
    res.max_ms = r.measure("max_ms");
    res.reps = r.integer("reps");
    res.runs_ms = r.measures_if_present("runs_ms");  // absent from reports written before 2026-11-27
    res.ceiling = r.text("ceiling");
    res.ceiling_value = r.measure("ceiling_value");
    res.intensity = r.measure("intensity");
    res.roof = roof_from_name(r, "roof");
    if (res.family.empty() || res.variant.empty()) r.fail(item_path("results", i), "family and variant must not be empty");
    if (const std::string problem = times_problem(res.median_ms, res.min_ms, res.max_ms); !problem.empty())
      r.fail(item_path("results", i), problem);
    // The words of a key name the report's files too (ladder-FAMILY.svg): never a path.
    for (const auto& [field, word] : {std::pair{"family", res.family}, {"variant", res.variant}, {"dtype", res.dtype}, {"sweep", res.sweep}})
      if (!word.empty() && !is_key_word(word))
        r.fail(r.at(field), "'" + word + "' is not a key word (lower-case letters, digits and _ only)");
    if (r.text("key") != res.key()) r.fail(r.at("key"), "'" + r.text("key") + "' is not " + res.key());
    if (!keys.insert(res.key()).second) r.fail(r.at("key"), "result " + res.key() + " is in the report twice");
    rep.results.push_back(std::move(res));
  }

  rep.gates_path = top.text("gates_file");
  const auto& gates = top.array("gates");
  rep.gates_evaluated = !rep.gates_path.empty() || !gates.empty();
  for (std::size_t i = 0; i < gates.size(); ++i) {
    const Fields g(gates[i], item_path("gates", i), name);
    GateOutcome o;
    const std::string kind = g.text("kind");
    if (kind != "min_ratio" && kind != "order") g.fail(g.at("kind"), "unknown gate kind '" + kind + "'");
    o.gate.kind = kind == "min_ratio" ? GateKind::min_ratio : GateKind::order;
    o.gate.a = g.text("a");
    o.gate.b = g.text("b");
    o.gate.threshold = g.measure("threshold");
    o.gate.section = g.text("section");
    o.status = status_from_name(g, "status");
    o.measured = g.measure("measured");
    o.remeasures = g.integer("remeasures");
    o.message = g.text("message");
    if (g.text("name") != o.gate.name()) g.fail(g.at("name"), "'" + g.text("name") + "' does not match a and b");
    rep.gates.outcomes.push_back(std::move(o));
  }
  const auto& not_applicable = top.array("gates_not_applicable");
  for (std::size_t i = 0; i < not_applicable.size(); ++i) {
    if (not_applicable[i].kind() != JsonValue::Kind::string)
      top.fail(item_path("gates_not_applicable", i), "expected a string");
    rep.gates.not_applicable.push_back(not_applicable[i].string());
  }
  const auto& excluded = top.array("excluded");
  for (std::size_t i = 0; i < excluded.size(); ++i) {
    const Fields e(excluded[i], item_path("excluded", i), name);
    rep.excluded.push_back({e.text("what"), e.text("reason")});
  }
  return rep;
}

Report merge_reports(const std::vector<Report>& reports) {
  if (reports.empty()) throw std::invalid_argument("no report to merge");
  Report merged = reports.front();
  std::set<std::string> keys, gates;
  for (const Result& r : merged.results) keys.insert(r.key());
  for (const GateOutcome& g : merged.gates.outcomes) gates.insert(g.gate.name());
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const Report& rep = reports[i];
    if (rep.gpu != merged.gpu || rep.arch != merged.arch)
      throw std::invalid_argument("cannot merge reports of different GPUs: " + merged.gpu + " (" + merged.arch + ") and " +
                                  rep.gpu + " (" + rep.arch + ")");
    if (rep.commit != merged.commit)
      throw std::invalid_argument("cannot merge reports of different commits: " + merged.commit + " and " + rep.commit);
    merged.date = std::max(merged.date, rep.date);
    for (const Ceiling& c : rep.ceilings)
      if (std::none_of(merged.ceilings.begin(), merged.ceilings.end(), [&](const Ceiling& m) { return m.name == c.name; }))
        merged.ceilings.push_back(c);
    for (const Result& r : rep.results) {
      if (!keys.insert(r.key()).second) throw std::invalid_argument("result " + r.key() + " is in more than one report");
      merged.results.push_back(r);
    }
    if (merged.gates_path.empty()) merged.gates_path = rep.gates_path;
    merged.gates_evaluated = merged.gates_evaluated || rep.gates_evaluated;
    for (const GateOutcome& g : rep.gates.outcomes) {
      if (!gates.insert(g.gate.name()).second) throw std::invalid_argument("gate " + g.gate.name() + " is in more than one report");
      merged.gates.outcomes.push_back(g);
    }
    for (const std::string& n : rep.gates.not_applicable)
      if (std::find(merged.gates.not_applicable.begin(), merged.gates.not_applicable.end(), n) == merged.gates.not_applicable.end())
        merged.gates.not_applicable.push_back(n);
    for (const Exclusion& e : rep.excluded)
      if (std::none_of(merged.excluded.begin(), merged.excluded.end(), [&](const Exclusion& m) { return m.what == e.what; }))
        merged.excluded.push_back(e);
  }
  // A gate read in one report may be "not applicable" in another that lacked its results.
  merged.gates.not_applicable.erase(
      std::remove_if(merged.gates.not_applicable.begin(), merged.gates.not_applicable.end(),
                     [&](const std::string& n) { return gates.count(n) > 0; }),
      merged.gates.not_applicable.end());
  return merged;
}

Report load_report_json(const std::string& path) {
  return read_report_json(read_input_file<JsonError>(path, "bench report", max_report_file_bytes), path);
}

}  // namespace kl::bench
