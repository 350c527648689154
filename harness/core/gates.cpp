#include "gates.hpp"

#include "input_file.hpp"

#include "format.hpp"
#include "result.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace kl::bench {

std::string Gate::name() const {
  return kind == GateKind::min_ratio ? "min_ratio(" + a + ")" : "order(" + a + " / " + b + ")";
}

std::string Gate::rule() const {
  if (kind == GateKind::min_ratio) return a + " ratio to its ceiling >= " + plain(threshold);
  return a + " >= " + plain(threshold) + " x " + b;
}

std::vector<std::string> Gate::keys() const {
  if (kind == GateKind::min_ratio) return {a};
  return {a, b};
}

namespace {

// The file's two patterns, written out rather than as std::regex, which costs each translation
// unit that instantiates it 7 s of g++ and 15 s of clang under the sanitizers.

// family.variant[.dtype][.sweep]: two to four dot-separated key words.
bool is_result_key(std::string_view key) {
  int words = 0;
  for (std::size_t start = 0;;) {
    const std::size_t dot = key.find('.', start);
    if (!is_key_word(key.substr(start, dot - start)) || ++words > 4) return false;
    if (dot == std::string_view::npos) return words >= 2;
    start = dot + 1;
  }
}

// default, sm_<digits>[<one letter>], or "gpu " and a name that starts with a non-space (no line
// break in it).
bool is_section_name(const std::string& name) {
  if (name == "default") return true;
  if (name.rfind("sm_", 0) == 0) {
    std::size_t i = 3;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9') ++i;
    if (i == 3) return false;
    return i == name.size() || (i + 1 == name.size() && name[i] >= 'a' && name[i] <= 'z');
  }
  if (name.rfind("gpu ", 0) != 0 || name.size() < 5 || std::isspace(static_cast<unsigned char>(name[4])) != 0) return false;
  return name.find_first_of("\n\r") == std::string::npos;
}

class LineParser {
 public:
  LineParser(std::string path, int line) : path_(std::move(path)), line_(line) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw GatesFileError(path_ + ":" + std::to_string(line_) + ": " + what);
  }

  void require_key(const std::string& key) const {
    if (!is_result_key(key))
      fail("'" + key + "' is not a result key (family.variant[.dtype][.sweep], e.g. matmul.tuned.m1024_n1024_k1024)");
  }

  // A number > 0, or `off` (returns -1).
  double threshold(const std::string& text, const char* what) const {
    if (text == "off") return -1;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0)
      fail(std::string(what) + " must be a number > 0 or `off`, got '" + text + "'");
    return v;
  }

 private:
  std::string path_;
  int line_;
};

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream words(line.substr(0, line.find('#')));
  std::vector<std::string> out;
  for (std::string w; words >> w;) out.push_back(w);
  return out;
}

Gate parse_gate(const std::vector<std::string>& t, const LineParser& p) {
  Gate g;
  if (t[0] == "min_ratio") {
    if (t.size() != 4 || t[2] != ">=") p.fail("expected `min_ratio KEY >= THRESHOLD`");
    g.kind = GateKind::min_ratio;
    p.require_key(t[1]);
    g.a = t[1];
    g.threshold = p.threshold(t[3], "THRESHOLD");
  } else if (t[0] == "order") {
    if (t.size() != 6 || t[2] != ">=" || (t[4] != "x" && t[4] != "*"))
      p.fail("expected `order KEY_A >= K x KEY_B`");
    g.kind = GateKind::order;
    p.require_key(t[1]);
    p.require_key(t[5]);
    if (t[1] == t[5]) p.fail("an order gate needs two different results, got " + t[1] + " twice");
    g.a = t[1];
    g.b = t[5];
    g.threshold = p.threshold(t[3], "K");
  } else {
    p.fail("unknown gate kind '" + t[0] + "' (expected min_ratio or order)");
  }
  g.off = g.threshold < 0;
  if (g.off) g.threshold = 0;
  return g;
}

}  // namespace

namespace {

#ifdef KL_PLANTED_PARSER_BUG
// PLANTED BUG, compiled only into the fuzz preset's kl_bench_core_planted (tests/fuzz): a section
// named [planted] reads one byte past a heap copy of its name. kl.fuzz.planted_bug_is_found
// passes only if libFuzzer, starting from the seed corpus, finds it within a bounded number of runs.
void planted_section_bug(const std::string& name) {
  if (name != "planted") return;
  const std::vector<char> copy(name.begin(), name.end());
  volatile char past_the_end = copy.data()[copy.size()];
  (void)past_the_end;
}
#endif

// The text between the brackets of a section header, or "" when the line is not a header.
// Headers: [default], [sm_90] (an architecture), [gpu NVIDIA H100 80GB HBM3] (one GPU model, by
// the name the CUDA runtime reports; the name may contain spaces, so headers are not tokenised).
std::string section_of(const std::string& line, const LineParser& p) {
  const std::string text = line.substr(0, line.find('#'));
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos || text[first] != '[') return "";
  const auto last = text.find_last_not_of(" \t\r");
  if (text[last] != ']') p.fail("expected a section header such as [default], [sm_90] or [gpu NVIDIA H100 80GB HBM3]");
  const std::string name = text.substr(first + 1, last - first - 1);
#ifdef KL_PLANTED_PARSER_BUG
  planted_section_bug(name);
#endif
  if (!is_section_name(name))
    p.fail("unknown section [" + name +
           "] (expected [default], an architecture such as [sm_90], or [gpu NAME] with the GPU's name)");
  return name;
}

}  // namespace

GatesFile parse_gates(std::istream& in, const std::string& path) {
  GatesFile file;
  file.path = path;
  std::string section;
  std::map<std::string, int> first_line;  // "section/gate name" -> line
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const LineParser p(path, number);
    if (std::string header = section_of(line, p); !header.empty()) {
      section = std::move(header);
      continue;
    }
    const std::vector<std::string> t = tokens_of(line);
    if (t.empty()) continue;
    if (section.empty()) p.fail("gate before any section: start with [default], [sm_XX] or [gpu NAME]");
    Gate g = parse_gate(t, p);
    g.section = section;
    g.line = number;
    const auto [it, fresh] = first_line.emplace(section + "/" + g.name(), number);
    if (!fresh)
      p.fail("duplicate gate " + g.name() + " in [" + section + "] (first on line " + std::to_string(it->second) + ")");
    file.gates.push_back(std::move(g));
  }
  return file;
}

GatesFile load_gates(const std::string& path) {
  std::istringstream in(read_input_file<GatesFileError>(path, "gates file", max_gates_file_bytes));
  GatesFile file = parse_gates(in, path);
  // An empty or comment-only file (a truncated copy, the wrong path) would gate nothing and pass.
  if (file.gates.empty()) throw GatesFileError(path + ": no gates in the file (a gates file holds at least one gate line)");
  return file;
}

std::vector<Gate> gates_for_device(const GatesFile& file, const std::string& arch, const std::string& gpu) {
  std::vector<Gate> chosen;
  // Later layers replace earlier gates of the same name and add the others.
  for (const std::string& layer : {std::string("default"), arch, "gpu " + gpu}) {
    for (const Gate& g : file.gates) {
      if (g.section != layer) continue;
      const auto same = std::find_if(chosen.begin(), chosen.end(), [&](const Gate& c) { return c.name() == g.name(); });
      if (same != chosen.end()) *same = g; else chosen.push_back(g);
    }
  }
  std::erase_if(chosen, [](const Gate& g) { return g.off; });
  return chosen;
}

std::string to_string(GateStatus status) {
  switch (status) {
    case GateStatus::pass: return "pass";
    case GateStatus::fail: return "fail";
    case GateStatus::remeasured_pass: return "remeasured-pass";
  }
  return "?";
}

bool GateEvaluation::passed() const {
  return std::none_of(outcomes.begin(), outcomes.end(), [](const GateOutcome& o) { return o.status == GateStatus::fail; });
}

namespace {

const Result* find_result(const std::vector<Result>& results, const std::string& key) {
  for (const Result& r : results)
    if (r.key() == key) return &r;
  return nullptr;
}

std::string family_of(const std::string& key) { return key.substr(0, key.find('.')); }

// What the gate compares with its threshold; NaN when the comparison is meaningless.
double measure(const Gate& g, const std::vector<Result>& results) {
  const Result& a = *find_result(results, g.a);
  if (g.kind == GateKind::min_ratio) return a.ratio();
  const Result& b = *find_result(results, g.b);
  return b.value > 0 ? a.value / b.value : NAN;
}

std::string describe_measured(const Gate& g, const std::vector<Result>& results, double measured) {
  if (g.kind == GateKind::min_ratio)
    return "ratio to " + find_result(results, g.a)->ceiling + " " + sig3(measured);
  return "measured " + sig3(measured) + "x";
}

// " (line 12, [sm_90])": where a failing gate is in its file.
std::string location(const Gate& g) { return " (line " + std::to_string(g.line) + ", [" + g.section + "])"; }

// Measures the gate's results again while it fails, up to `max_remeasures` in all over the
// evaluation, and writes the verdict and its message. `o.measured` holds the current reading.
void decide(GateOutcome& o, std::vector<Result>& results, const Remeasure& remeasure, int max_remeasures) {
  const Gate& g = o.gate;
  while (!(o.measured >= g.threshold) && o.remeasures < max_remeasures) {
    ++o.remeasures;
    for (const std::string& k : g.keys()) remeasure(k);
    o.measured = measure(g, results);
  }
  const bool holds = o.measured >= g.threshold;
  o.status = !holds ? GateStatus::fail : o.remeasures == 0 ? GateStatus::pass : GateStatus::remeasured_pass;
  const std::string where = location(g);
  const std::string measured = describe_measured(g, results, o.measured);
  const std::string threshold = "threshold " + plain(g.threshold);
  const std::string first = sig3(o.first_measured);
  if (o.status == GateStatus::pass) {
    o.message = g.name() + ": " + measured + " >= " + threshold;
    if (o.measured != o.first_measured) o.message += " (first " + first + ", before other gates' re-measurements)";
  } else if (o.status == GateStatus::remeasured_pass) {
    o.message = g.name() + ": " + measured + " >= " + threshold + " after " + std::to_string(o.remeasures) +
                " re-measurement(s) (first " + first + ")";
  } else {
    o.message = "FAIL " + g.name() + where + ": " + measured + " < " + threshold + " (" + g.rule() + "), still after " +
                std::to_string(o.remeasures) + " re-measurement(s)";
    if (o.first_measured >= g.threshold) o.message += "; it had read " + first + " before other gates' re-measurements";
  }
}

}  // namespace

GateEvaluation evaluate_gates(const std::vector<Gate>& gates, std::vector<Result>& results,
                              const std::set<std::string>& complete_families, const Remeasure& remeasure,
                              int max_remeasures, const std::set<std::string>& unmeasured) {
  GateEvaluation ev;
  std::vector<std::size_t> decided;  // outcomes decided on their results (not missing, not mismatched)
  for (const Gate& g : gates) {
    GateOutcome o;
    o.gate = g;
    const std::string where = location(g);
    std::vector<std::string> missing;
    for (const std::string& k : g.keys())
      if (!find_result(results, k)) missing.push_back(k);
    if (!missing.empty()) {
      const auto expected = std::find_if(missing.begin(), missing.end(), [&](const std::string& k) {
        return complete_families.count(family_of(k)) != 0 && unmeasured.count(k) == 0;
      });
      if (expected == missing.end()) {
        ev.not_applicable.push_back(g.name());
        continue;
      }
      o.measured = o.first_measured = NAN;
      o.message = "FAIL " + g.name() + where + ": names " + *expected +
                  ", which the bench did not produce (a typo, or a variant that no longer exists)";
      ev.outcomes.push_back(o);
      continue;
    }
    if (g.kind == GateKind::order && find_result(results, g.a)->metric != find_result(results, g.b)->metric) {
      o.measured = o.first_measured = NAN;
      o.message = "FAIL " + g.name() + where + ": compares " + find_result(results, g.a)->metric + " with " +
                  find_result(results, g.b)->metric;
      ev.outcomes.push_back(o);
      continue;
    }
    o.first_measured = o.measured = measure(g, results);
    decide(o, results, remeasure, max_remeasures);
    decided.push_back(ev.outcomes.size());
    ev.outcomes.push_back(o);
  }
  // A re-measurement made for one gate can move the results an earlier gate was decided on: a
  // library's faster reading raises the ceiling every ratio to it is read against, and a row measured
  // again replaces the one before. Every verdict stands on the results as they are at the end, so
  // gates whose reading moved are decided again. This ends: results move only by re-measurements,
  // and each gate has a bounded number of them.
  for (bool moved = true; moved;) {
    moved = false;
    for (const std::size_t i : decided) {
      GateOutcome& o = ev.outcomes[i];
      const double now = measure(o.gate, results);
      if (now == o.measured || (std::isnan(now) && std::isnan(o.measured))) continue;
      moved = true;
      o.measured = now;
      decide(o, results, remeasure, max_remeasures);
    }
  }
  return ev;
}

std::vector<std::string> ungated_keys(const GateEvaluation& evaluation, const std::vector<Result>& results) {
  std::set<std::string> gated;
  for (const GateOutcome& o : evaluation.outcomes)
    for (const std::string& k : o.gate.keys()) gated.insert(k);
  std::vector<std::string> out;
  for (const Result& r : results)
    if (!gated.count(r.key())) out.push_back(r.key());
  return out;
}

}  // namespace kl::bench
