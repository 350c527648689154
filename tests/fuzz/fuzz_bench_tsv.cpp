// Fuzz target: the reader of `bench --tsv` files and the comparison `kernel-lab compare` (and so
// ci/perf-compare.sh) builds on them. The input is two files, base and head, split at the first
// form feed. Each must parse or be refused with a TsvFileError naming its file and line (a row
// accepted has a positive median and times that are a measurement: kl::bench::times_problem);
// two parsed files must compare into rows that keep the rule's own invariants, and render, or be
// refused exactly when a side has no rows (it would pass as no regression). Anything else (a
// crash, another exception, a hang) is a finding.
#include "fuzz_input.hpp"

#include "core/run_compare.hpp"

#include <cmath>
#include <set>
#include <string_view>
#include <utility>

namespace {

bool parse_side(std::string_view text, const std::string& name, std::vector<kl::bench::TsvRow>& rows) {
  try {
    rows = kl::bench::parse_bench_tsv(text, name);
  } catch (const kl::bench::TsvFileError& e) {
    if (std::string(e.what()).rfind(name + ":", 0) != 0)
      kl::fuzz::finding(std::string("a refusal that names no line: ") + e.what());
    return false;
  }
  for (const kl::bench::TsvRow& r : rows)
    if (r.median_ms && !(*r.median_ms > 0 && std::isfinite(*r.median_ms)))
      kl::fuzz::finding("a row accepted with median time " + std::to_string(*r.median_ms));
    else if (const std::string problem = kl::bench::times_problem(r); !problem.empty())
      kl::fuzz::finding("a row accepted whose times are no measurement: " + problem);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\f');
  const std::string_view base_text = input.substr(0, split);
  const std::string_view head_text = split == std::string_view::npos ? std::string_view() : input.substr(split + 1);
  std::vector<kl::bench::TsvRow> base, head;
  if (!parse_side(base_text, "base.tsv", base) || !parse_side(head_text, "head.tsv", head)) return 0;

  kl::bench::Comparison c;
  try {
    c = kl::bench::compare_runs(base, head, {});
  } catch (const kl::bench::TsvFileError& e) {
    if (!base.empty() && !head.empty()) kl::fuzz::finding(std::string("rows refused as none: ") + e.what());
    return 0;
  }
  if (base.empty() || head.empty()) kl::fuzz::finding("a side without rows compared: it would pass as no regression");
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto* side : {&base, &head})
    for (const kl::bench::TsvRow& r : *side) keys.insert({r.key, r.metric});
  if (c.rows.size() != keys.size()) kl::fuzz::finding("the comparison lost or repeated a (variant, metric)");
  for (const kl::bench::ComparedRow& r : c.rows) {
    const bool compared = r.base_ms && r.head_ms;
    if (compared && (std::isnan(r.change) || !(r.bound >= 0.05)))
      kl::fuzz::finding("a compared row with change " + std::to_string(r.change) + ", bound " + std::to_string(r.bound));
    if (compared != (r.verdict == kl::bench::Verdict::within_noise || r.verdict == kl::bench::Verdict::faster ||
                     r.verdict == kl::bench::Verdict::regression))
      kl::fuzz::finding(std::string("verdict '") + kl::bench::to_string(r.verdict) + "' on row " + r.key);
  }
  if (kl::bench::comparison_markdown(c, "fuzz").rfind("### fuzz\n", 0) != 0) kl::fuzz::finding("a report without its title");
  return 0;
}
