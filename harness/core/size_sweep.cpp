#include "size_sweep.hpp"

#include "format.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <sstream>
#include <stdexcept>

namespace kl::bench {

const std::vector<std::int64_t>& sweep_sizes() {
  static const std::vector<std::int64_t> sizes = [] {
    std::vector<std::int64_t> n;
    for (int log2 = 12; log2 <= 30; log2 += 2) n.push_back(std::int64_t{1} << log2);
    return n;
  }();
  return sizes;
}

std::string size_tag(std::int64_t n) {
  const std::vector<std::int64_t>& sizes = sweep_sizes();
  if (std::find(sizes.begin(), sizes.end(), n) == sizes.end())
    throw std::invalid_argument("size_tag: " + std::to_string(n) + " is not a swept size (2^12, 2^14, ..., 2^30)");
  static constexpr const char* prefixes[] = {"", "k", "m", "g"};
  int prefix = 0;
  while (prefix < 3 && n % 1024 == 0) {
    n /= 1024;
    ++prefix;
  }
  return "n" + std::to_string(n) + prefixes[prefix];
}

std::optional<std::int64_t> size_of_tag(const std::string& tag) {
  for (const std::int64_t n : sweep_sizes())
    if (size_tag(n) == tag) return n;
  return std::nullopt;
}

std::string size_text(std::int64_t n) {
  if (n > 0 && std::has_single_bit(static_cast<std::uint64_t>(n)))
    return "2^" + std::to_string(std::bit_width(static_cast<std::uint64_t>(n)) - 1);
  return std::to_string(n);
}

std::optional<std::int64_t> SweepRow::limit_from() const {
  for (const auto& [n, r] : points)
    if (r->ratio() >= sweep_limit_share) return n;
  return std::nullopt;
}

std::vector<SweepRow> sweep_rows(const std::vector<Result>& results) {
  std::vector<SweepRow> rows;
  for (const Result& r : results) {
    const std::optional<std::int64_t> n = size_of_tag(r.sweep);
    if (!n) continue;
    Result unswept = r;
    unswept.sweep.clear();
    const std::string key = unswept.key();
    auto row = std::find_if(rows.begin(), rows.end(), [&](const SweepRow& s) { return s.key == key; });
    if (row == rows.end()) row = rows.insert(rows.end(), SweepRow{key, {}});
    row->points.emplace_back(*n, &r);
  }
  for (SweepRow& row : rows)
    std::stable_sort(row.points.begin(), row.points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return rows;
}

std::string sweep_markdown(const std::vector<Result>& results) {
  const std::vector<SweepRow> rows = sweep_rows(results);
  if (rows.empty()) return "";
  std::vector<std::int64_t> columns;
  for (const SweepRow& row : rows)
    for (const auto& point : row.points)
      if (std::find(columns.begin(), columns.end(), point.first) == columns.end()) columns.push_back(point.first);
  std::sort(columns.begin(), columns.end());
  std::ostringstream o;
  o << "| variant | ceiling |";
  for (const std::int64_t n : columns) o << " n=" << size_text(n) << " |";
  o << " reaches " << percent(sweep_limit_share) << " from |\n|---|---|";
  for (std::size_t i = 0; i < columns.size(); ++i) o << "---|";
  o << "---|\n";
  for (const SweepRow& row : rows) {
    // The ceiling's name without its size suffix: "cub_sum.float" (of "cub_sum.float_n64k"),
    // "d2d_copy" (of "d2d_copy_48KiB"), "memset".
    std::string ceiling = row.points.front().second->ceiling;
    if (const std::size_t cut = ceiling.rfind('_'); cut != std::string::npos) {
      const std::string suffix = ceiling.substr(cut + 1);
      if (size_of_tag(suffix) || (!suffix.empty() && std::isdigit(static_cast<unsigned char>(suffix[0])))) ceiling.erase(cut);
    }
    o << "| `" << row.key << "` | " << ceiling << " |";
    for (const std::int64_t n : columns) {
      const auto it = std::find_if(row.points.begin(), row.points.end(), [&](const auto& p) { return p.first == n; });
      o << " " << (it == row.points.end() ? "-" : percent(it->second->ratio())) << " |";
    }
    const std::optional<std::int64_t> from = row.limit_from();
    o << " " << (from ? "n=" + size_text(*from) : std::string("never")) << " |\n";
  }
  return o.str();
}

}  // namespace kl::bench
