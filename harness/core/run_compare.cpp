#include "run_compare.hpp"

#include "input_file.hpp"
#include "result.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>

namespace kl::bench {
namespace {

std::string where(const std::string& name, std::size_t line) { return name + ":" + std::to_string(line) + ": "; }

// The number grammar of the file: [+-] digits [. digits] or . digits, then an optional exponent.
// No inf, nan, hex or spaces: the bench writes none of them ("null" stands for not finite).
bool is_decimal(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const std::size_t int_start = i;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  const std::size_t int_digits = i - int_start;
  std::size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t frac_start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    frac_digits = i - frac_start;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exp_start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exp_start) return false;
  }
  return i == s.size();
}

// A field that is a number or "null"; throws naming the field otherwise.
std::optional<double> number_or_null(std::string_view field, const char* what, const std::string& at) {
  if (field == "null") return std::nullopt;
  if (!is_decimal(field))
    throw TsvFileError(at + what + " must be a number or null, got '" + std::string(field.substr(0, 40)) + "'");
  std::string_view digits = field;
  if (digits.front() == '+') digits.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size())
    throw TsvFileError(at + what + " '" + std::string(field.substr(0, 40)) + "' is out of range");
  return value;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; });
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double spread(const std::vector<double>& v, double centre) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return (*hi - *lo) / centre;
}

// One side's rows of one (key, metric).
struct Side {
  std::vector<double> times, values;
  bool untimed = false;  // a row whose median time is null
};

std::string g4(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

std::string percent(double x, const char* format) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, 100 * x);
  return buf;
}

std::string cell(const std::optional<double>& x) { return x ? g4(*x) : "-"; }

}  // namespace

std::string times_problem(const TsvRow& row) {
  const auto ms = [](const std::optional<double>& t) { return t.value_or(std::numeric_limits<double>::quiet_NaN()); };
  return times_problem(ms(row.median_ms), ms(row.min_ms), ms(row.max_ms));
}

std::vector<TsvRow> parse_bench_tsv(std::string_view text, const std::string& name) {
  std::vector<TsvRow> rows;
  std::size_t line_no = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t newline = text.find('\n', start);
    std::string_view line =
        text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start);
    start = newline == std::string_view::npos ? text.size() : newline + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // a file saved with Windows line ends
    ++line_no;
    if (blank(line) || line.front() == '#') continue;
    const std::vector<std::string_view> f = split_tabs(line);
    if (line_no == 1 && f.size() >= 4 && f[0] == "variant" && f[3] == "median_ms") continue;  // a header
    const std::string at = where(name, line_no);
    if (f.size() != 6)
      throw TsvFileError(at + "expected variant, metric, value, median_ms, min_ms, max_ms separated by tabs (6 fields), got " +
                         std::to_string(f.size()));
    if (f[0].empty() || f[1].empty()) throw TsvFileError(at + "the variant and the metric must not be empty");
    TsvRow row{std::string(f[0]), std::string(f[1]), number_or_null(f[2], "value", at),
               number_or_null(f[3], "median_ms", at), number_or_null(f[4], "min_ms", at),
               number_or_null(f[5], "max_ms", at)};
    if (row.median_ms && !(*row.median_ms > 0))
      throw TsvFileError(at + "median time " + std::string(f[3]) + " is not positive");
    // Refused as a corrupted file; compare itself reads the medians only.
    if (const std::string problem = times_problem(row); !problem.empty()) throw TsvFileError(at + problem);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<TsvRow> load_bench_tsv(const std::string& path) {
  return parse_bench_tsv(read_input_file<TsvFileError>(path, "bench TSV", max_tsv_file_bytes), path);
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::within_noise: return "within noise";
    case Verdict::faster: return "faster";
    case Verdict::regression: return "**REGRESSION**";
    case Verdict::only_in_base: return "only in base";
    case Verdict::new_in_head: return "new in head";
    case Verdict::no_time: return "no time measured";
  }
  return "?";
}

int Comparison::regressions() const {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const ComparedRow& r) { return r.verdict == Verdict::regression; }));
}

Comparison compare_runs(const std::vector<TsvRow>& base, const std::vector<TsvRow>& head, const CompareRule& rule) {
  // A side without results (an empty, comment-only or header-only file) would compare as "no
  // regression": nothing of the other side could be slower than it.
  if (base.empty()) throw TsvFileError("the base run has no results: nothing to compare against");
  if (head.empty()) throw TsvFileError("the head run has no results: nothing to compare");
  using Key = std::pair<std::string, std::string>;
  std::vector<Key> order;
  std::map<Key, Side> sides[2];
  const std::vector<TsvRow>* runs[2] = {&base, &head};
  for (int s = 0; s < 2; ++s)
    for (const TsvRow& r : *runs[s]) {
      const Key key{r.key, r.metric};
      if (!sides[0].count(key) && !sides[1].count(key)) order.push_back(key);
      Side& side = sides[s][key];
      if (!r.median_ms) side.untimed = true;
      else side.times.push_back(*r.median_ms);
      if (r.median_ms && r.value) side.values.push_back(*r.value);
    }

  Comparison c{rule, {}};
  for (const Key& key : order) {
    const Side& b = sides[0][key];
    const Side& h = sides[1][key];
    ComparedRow row{key.first, key.second, {}, {}, {}, {}, 0, 0, Verdict::within_noise};
    if (!b.values.empty()) row.base_value = median(b.values);
    if (!h.values.empty()) row.head_value = median(h.values);
    if (!b.times.empty()) row.base_ms = median(b.times);
    if (!h.times.empty()) row.head_ms = median(h.times);
    if (!row.base_ms || !row.head_ms) {
      row.verdict = b.untimed || h.untimed ? Verdict::no_time : row.base_ms ? Verdict::only_in_base : Verdict::new_in_head;
    } else {
      const double noise = std::max(spread(b.times, *row.base_ms), spread(h.times, *row.head_ms));
      row.bound = std::max(rule.min_change_pct / 100, rule.noise_factor * noise);
      row.change = *row.head_ms / *row.base_ms - 1;
      row.verdict = row.change > row.bound ? Verdict::regression : row.change < -row.bound ? Verdict::faster : Verdict::within_noise;
    }
    c.rows.push_back(std::move(row));
  }
  return c;
}

std::string comparison_markdown(const Comparison& c, const std::string& title) {
  std::ostringstream o;
  o << "### " << title << "\n\n"
    << "Rule: per variant and metric, time = median of the per-round median times; noise = (max - min) / median of "
       "those; a regression is head slower than base by more than max("
    << g4(c.rule.min_change_pct) << "%, " << g4(c.rule.noise_factor) << " x the larger noise).\n\n"
    << "| variant | metric | base value | head value | base ms | head ms | time change | bound | verdict |\n"
    << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const ComparedRow& r : c.rows) {
    const bool compared = r.base_ms && r.head_ms;
    o << "| " << r.key << " | " << r.metric << " | " << cell(r.base_value) << " | " << cell(r.head_value) << " | "
      << cell(r.base_ms) << " | " << cell(r.head_ms) << " | " << (compared ? percent(r.change, "%+.1f%%") : "-")
      << " | " << (compared ? "+-" + percent(r.bound, "%.1f%%") : "-") << " | " << to_string(r.verdict) << " |\n";
  }
  o << "\n";
  if (const int n = c.regressions()) o << "**" << n << " regression(s) beyond noise.**\n";
  else o << "No regression beyond noise.\n";
  return o.str();
}

}  // namespace kl::bench
