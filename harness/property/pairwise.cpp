#include "pairwise.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace kl::pairwise {
namespace {

constexpr int unset = -1;

// Large counts by their power of two ("2^20+1"), small ones in decimal: the table stays readable.
std::string number_name(std::int64_t v) {
  constexpr std::int64_t first_named = 65535;
  const auto power = [](std::int64_t x) {
    return x > 0 && std::has_single_bit(static_cast<std::uint64_t>(x))
               ? "2^" + std::to_string(std::bit_width(static_cast<std::uint64_t>(x)) - 1)
               : std::string();
  };
  if (v >= first_named) {
    if (const std::string p = power(v); !p.empty()) return p;
    if (const std::string p = power(v - 1); !p.empty()) return p + "+1";
    if (const std::string p = power(v + 1); !p.empty()) return p + "-1";
  }
  return std::to_string(v);
}

std::string range_name(std::int64_t lo, std::int64_t hi) {
  return lo == hi ? number_name(lo) : number_name(lo) + ".." + number_name(hi);
}

// FNV-1a, then splitmix64: a row's seed from the run's seed and the row's id, the same on every
// platform.
std::uint64_t mix(std::uint64_t seed, const std::string& id) {
  std::uint64_t h = 1469598103934665603ull;
  for (const char c : id) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  std::uint64_t z = seed + h + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::size_t find_dimension(const Dimensions& dims, std::string_view name) {
  for (std::size_t d = 0; d < dims.size(); ++d)
    if (dims[d].name == name) return d;
  return dims.size();
}

}  // namespace

Values::Values(const std::vector<Dimension>& dims)
    : dims_(&dims), values_(dims.size(), 0), drawn_(dims.size(), false) {}

bool Values::has(std::string_view name) const {
  const std::size_t d = find_dimension(*dims_, name);
  return d < dims_->size() && drawn_[d];
}

std::int64_t Values::operator[](std::string_view name) const {
  const std::size_t d = find_dimension(*dims_, name);
  if (d == dims_->size()) throw std::logic_error("no dimension '" + std::string(name) + "' in this declaration");
  if (!drawn_[d])
    throw std::logic_error("dimension '" + std::string(name) +
                           "' is not drawn yet (a computed class may read only the dimensions before it)");
  return values_[d];
}

std::int64_t Values::value_or(std::string_view name, std::int64_t fallback) const {
  return find_dimension(*dims_, name) == dims_->size() ? fallback : (*this)[name];
}

void Values::set(std::size_t dim, std::int64_t value) {
  values_.at(dim) = value;
  drawn_.at(dim) = true;
}

std::string Values::describe() const {
  std::string out;
  for (std::size_t d = 0; d < dims_->size(); ++d)
    if (drawn_[d]) out += (out.empty() ? "" : " ") + (*dims_)[d].name + "=" + std::to_string(values_[d]);
  return out;
}

EdgeClass named(std::string name, std::int64_t lo, std::int64_t hi) {
  if (hi < lo) throw std::logic_error("edge class " + name + " is empty");
  return {std::move(name), [r = Range{lo, hi}](const Values&) { return r; }};
}

EdgeClass exactly(std::int64_t v) { return named(number_name(v), v, v); }
EdgeClass between(std::int64_t lo, std::int64_t hi) { return named(range_name(lo, hi), lo, hi); }
EdgeClass computed(std::string name, std::function<Range(const Values&)> range) {
  return {std::move(name), std::move(range)};
}

std::vector<Row> covering_array(const Dimensions& dims) {
  const std::size_t k = dims.size();
  if (k == 0) return {};
  for (const Dimension& d : dims)
    if (d.classes.empty()) throw std::logic_error("dimension '" + d.name + "' has no edge classes");
  // Work on the dimensions largest first (ties in declared order): the first two in full give
  // the lower bound on rows, and the rest then fit into them with few rows added.
  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return dims[a].classes.size() > dims[b].classes.size(); });
  const auto count = [&](std::size_t p) { return static_cast<int>(dims[order[p]].classes.size()); };

  std::vector<Row> rows;  // positions in `order`
  if (k == 1) {
    for (int c = 0; c < count(0); ++c) rows.push_back({c});
  } else {
    for (int a = 0; a < count(0); ++a)
      for (int b = 0; b < count(1); ++b) {
        Row row(k, unset);
        row[0] = a;
        row[1] = b;
        rows.push_back(row);
      }
  }

  for (std::size_t p = 2; p < k; ++p) {
    const int classes = count(p);
    // covered[q][cq * classes + c]: some row holds class cq at position q with class c at p.
    std::vector<std::vector<char>> covered(p);
    std::size_t missing = 0;
    for (std::size_t q = 0; q < p; ++q) {
      covered[q].assign(static_cast<std::size_t>(count(q) * classes), 0);
      missing += covered[q].size();
    }
    const auto slot = [&](std::size_t q, int cq, int c) -> char& {
      return covered[q][static_cast<std::size_t>(cq * classes + c)];
    };
    const auto gain = [&](const Row& row, int c) {
      int g = 0;
      for (std::size_t q = 0; q < p; ++q)
        if (row[q] != unset && !slot(q, row[q], c)) ++g;
      return g;
    };
    const auto mark = [&](const Row& row) {
      for (std::size_t q = 0; q < p; ++q)
        if (row[q] != unset && row[p] != unset && !slot(q, row[q], row[p])) {
          slot(q, row[q], row[p]) = 1;
          --missing;
        }
    };
    // Horizontal: each row takes the class that covers the most new pairs (the smallest on a tie:
    // breaking ties toward the least used class spread the draws but cost rows, 58 instead of 53
    // for dispatch's guarded kernel).
    for (Row& row : rows) {
      if (missing == 0) break;
      int best = unset, best_gain = 0;
      for (int c = 0; c < classes; ++c)
        if (const int g = gain(row, c); g > best_gain) {
          best = c;
          best_gain = g;
        }
      if (best == unset) continue;  // nothing new here: left free for the pairs still missing
      row[p] = best;
      mark(row);
    }
    // Vertical: each pair still missing goes into the first row with both places free (or
    // already right), else into a new row.
    for (std::size_t q = 0; q < p && missing > 0; ++q)
      for (int cq = 0; cq < count(q); ++cq)
        for (int c = 0; c < classes; ++c) {
          if (slot(q, cq, c)) continue;
          auto fits = [&](const Row& row) {
            return (row[q] == unset || row[q] == cq) && (row[p] == unset || row[p] == c);
          };
          auto it = std::find_if(rows.begin(), rows.end(), fits);
          if (it == rows.end()) it = rows.insert(rows.end(), Row(k, unset));
          (*it)[q] = cq;
          (*it)[p] = c;
          mark(*it);
        }
  }

  // Free places (no pair needed them) take the class whose pairs with the row's other classes
  // were drawn least so far, then the least used, then the smallest: the draws spread over pairs.
  const auto times_together = [&](std::size_t q, int cq, std::size_t p, int cp) {
    return std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r[q] == cq && r[p] == cp; });
  };
  for (Row& row : rows)
    for (std::size_t p = 0; p < k; ++p) {
      if (row[p] != unset) continue;
      int best = 0;
      std::ptrdiff_t best_score = -1, best_uses = 0;
      for (int c = 0; c < count(p); ++c) {
        std::ptrdiff_t score = 0;
        for (std::size_t q = 0; q < k; ++q)
          if (q != p && row[q] != unset) score += times_together(q, row[q], p, c);
        const auto uses = std::count_if(rows.begin(), rows.end(), [&](const Row& r) { return r[p] == c; });
        if (best_score < 0 || score < best_score || (score == best_score && uses < best_uses)) {
          best = c;
          best_score = score;
          best_uses = uses;
        }
      }
      row[p] = best;
    }

  // Back to the declared order of dimensions.
  std::vector<Row> out;
  out.reserve(rows.size());
  for (const Row& row : rows) {
    Row declared(k, 0);
    for (std::size_t p = 0; p < k; ++p) declared[order[p]] = row[p];
    out.push_back(declared);
  }
  return out;
}

std::vector<Pair> declared_pairs(const Dimensions& dims) {
  std::vector<Pair> pairs;
  for (std::size_t a = 0; a < dims.size(); ++a)
    for (std::size_t b = a + 1; b < dims.size(); ++b)
      for (std::size_t ca = 0; ca < dims[a].classes.size(); ++ca)
        for (std::size_t cb = 0; cb < dims[b].classes.size(); ++cb)
          pairs.push_back({static_cast<int>(a), static_cast<int>(ca), static_cast<int>(b), static_cast<int>(cb)});
  return pairs;
}

std::vector<Pair> pairs_covered(const Dimensions& dims, const std::vector<Row>& rows) {
  std::vector<Pair> covered;
  for (const Pair& pair : declared_pairs(dims)) {
    const bool held = std::any_of(rows.begin(), rows.end(), [&](const Row& row) {
      return row[static_cast<std::size_t>(pair.dim_a)] == pair.class_a &&
             row[static_cast<std::size_t>(pair.dim_b)] == pair.class_b;
    });
    if (held) covered.push_back(pair);
  }
  return covered;
}

std::vector<Pair> pairs_missing(const Dimensions& dims, const std::vector<Row>& rows) {
  const std::vector<Pair> covered = pairs_covered(dims, rows);
  std::vector<Pair> missing;
  for (const Pair& pair : declared_pairs(dims))
    if (std::find(covered.begin(), covered.end(), pair) == covered.end()) missing.push_back(pair);
  return missing;
}

std::string describe(const Dimensions& dims, const Pair& pair) {
  const Dimension& a = dims[static_cast<std::size_t>(pair.dim_a)];
  const Dimension& b = dims[static_cast<std::size_t>(pair.dim_b)];
  return a.name + "=" + a.classes[static_cast<std::size_t>(pair.class_a)].name + " x " + b.name + "=" +
         b.classes[static_cast<std::size_t>(pair.class_b)].name;
}

std::string describe(const Dimensions& dims, const Row& row) {
  std::string out;
  for (std::size_t d = 0; d < dims.size(); ++d)
    out += (d ? ", " : "") + dims[d].name + "=" + dims[d].classes[static_cast<std::size_t>(row[d])].name;
  return out;
}

rc::Gen<std::int64_t> value_in(Range range) {
  if (range.hi < range.lo)
    throw std::logic_error("empty edge class " + std::to_string(range.lo) + ".." + std::to_string(range.hi));
  return [range](const rc::Random& random, int /*size*/) {
    rc::Random r(random);
    const auto span = static_cast<std::uint64_t>(range.hi - range.lo) + 1;
    const bool an_end = r.next() % 2 == 0;
    const std::int64_t value = an_end ? (r.next() % 2 == 0 ? range.lo : range.hi)
                                      : range.lo + static_cast<std::int64_t>(r.next() % span);
    // Every draw, an end or not, shrinks through the values toward lo: a failure drawn at hi is
    // reported at the smallest failing value of the class, not at hi.
    const std::int64_t lo = range.lo;
    return rc::shrinkable::shrinkRecur(value,
                                       [lo](std::int64_t x) { return rc::shrink::towards<std::int64_t>(x, lo); });
  };
}

Coverage::Coverage(const Dimensions& dims) : dims_(&dims) {
  std::size_t size = 0;
  for (std::size_t a = 0; a < dims.size(); ++a)
    for (std::size_t b = a + 1; b < dims.size(); ++b) {
      offsets_.push_back(size);
      size += dims[a].classes.size() * dims[b].classes.size();
    }
  counts_.assign(size, 0);
}

std::size_t Coverage::index(const Pair& pair) const {
  // Dimension pairs (a, b), a < b, are laid out in order: those of a's before it, then b's place.
  const auto k = dims_->size();
  const auto a = static_cast<std::size_t>(pair.dim_a), b = static_cast<std::size_t>(pair.dim_b);
  const std::size_t table = a * k - a * (a + 1) / 2 + (b - a - 1);
  return offsets_[table] + static_cast<std::size_t>(pair.class_a) * (*dims_)[b].classes.size() +
         static_cast<std::size_t>(pair.class_b);
}

void Coverage::record(const Row& row) {
  for (std::size_t a = 0; a < dims_->size(); ++a)
    for (std::size_t b = a + 1; b < dims_->size(); ++b)
      ++counts_[index({static_cast<int>(a), row[a], static_cast<int>(b), row[b]})];
}

std::int64_t Coverage::count(const Pair& pair) const { return counts_[index(pair)]; }

std::vector<Pair> Coverage::never_drawn() const {
  std::vector<Pair> out;
  for (const Pair& pair : declared_pairs(*dims_))
    if (count(pair) == 0) out.push_back(pair);
  return out;
}

std::string Coverage::table() const {
  const Dimensions& dims = *dims_;
  std::ostringstream os;
  for (std::size_t a = 0; a < dims.size(); ++a)
    for (std::size_t b = a + 1; b < dims.size(); ++b) {
      const auto cases = [&](std::size_t ca, std::size_t cb) {
        return std::to_string(count({static_cast<int>(a), static_cast<int>(ca), static_cast<int>(b), static_cast<int>(cb)}));
      };
      const std::vector<EdgeClass>& rows = dims[a].classes;
      const std::vector<EdgeClass>& columns = dims[b].classes;
      const std::string corner = dims[a].name + " \\ " + dims[b].name;
      std::size_t first_width = corner.size();
      for (const EdgeClass& c : rows) first_width = std::max(first_width, c.name.size());
      std::vector<std::size_t> widths;
      for (std::size_t cb = 0; cb < columns.size(); ++cb) {
        std::size_t w = columns[cb].name.size();
        for (std::size_t ca = 0; ca < rows.size(); ++ca) w = std::max(w, cases(ca, cb).size());
        widths.push_back(w);
      }
      const auto cell = [&os](const std::string& text, std::size_t width) {
        os << "  " << std::string(width - std::min(width, text.size()), ' ') << text;
      };
      os << "  " << corner << std::string(first_width - corner.size(), ' ');
      for (std::size_t cb = 0; cb < columns.size(); ++cb) cell(columns[cb].name, widths[cb]);
      os << "\n";
      for (std::size_t ca = 0; ca < rows.size(); ++ca) {
        os << "  " << rows[ca].name << std::string(first_width - rows[ca].name.size(), ' ');
        for (std::size_t cb = 0; cb < columns.size(); ++cb) cell(cases(ca, cb), widths[cb]);
        os << "\n";
      }
    }
  return os.str();
}

int cases_per_row() { return sanitizer_small_mode() ? 1 : 2; }

std::string row_id(const std::string& prefix, std::size_t k) { return prefix + "/row" + std::to_string(k); }

std::vector<std::size_t> rows_to_run(const std::string& prefix, std::size_t rows) {
  return rows_to_run(prefix, rows, rc::detail::configuration().reproduce);
}

std::vector<std::size_t> rows_to_run(const std::string& prefix, std::size_t rows,
                                     const std::unordered_map<std::string, rc::detail::Reproduce>& reproduce) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < rows; ++k)
    if (reproduce.empty() || reproduce.count(row_id(prefix, k)) != 0) out.push_back(k);
  return out;
}

bool replaying() { return !rc::detail::configuration().reproduce.empty(); }

rc::detail::TestParams row_params(const std::string& prefix, std::size_t k) {
  rc::detail::TestParams params = prop::tier_params();
  params.maxSuccess = cases_per_row();
  params.seed = mix(params.seed, row_id(prefix, k));
  return params;
}

std::string row_failure(const std::string& prefix, std::size_t k, const Dimensions& dims, const Row& row,
                        const std::string& rapidcheck_message) {
  return row_id(prefix, k) + " failed, classes " + describe(dims, row) + ":\n" + rapidcheck_message;
}

std::vector<EdgeClass> count_classes(std::int64_t first) {
  const std::int64_t most = gen::max_count();
  constexpr std::int64_t m = std::int64_t{1} << 20;
  const Range ranges[] = {{0, 0},        {1, 1},         {2, 2},          {3, 3},          {4, 31},       {32, 127},
                          {128, 1023},   {1024, 4095},   {4096, 65535},   {65536, m},      {m + 1, most}};
  std::vector<EdgeClass> out;
  for (const Range r : ranges)
    if (r.lo >= first && r.lo <= most) out.push_back(between(r.lo, std::min(r.hi, most)));
  return out;
}

std::vector<EdgeClass> ladder_classes(std::int64_t largest) {
  if (largest < 1) throw std::logic_error("ladder_classes: nothing to draw below 1");
  const Range below_largest[] = {{1, 1}, {2, 2}, {3, 3}, {4, 31}, {32, 32}, {33, largest - 1}};
  std::vector<EdgeClass> out;
  for (const Range r : below_largest)
    if (const std::int64_t hi = std::min(r.hi, largest - 1); r.lo <= hi) out.push_back(between(r.lo, hi));
  out.push_back(exactly(largest));
  return out;
}

std::vector<EdgeClass> any_block_classes(int largest) { return ladder_classes(largest); }

std::vector<EdgeClass> power_of_two_block_classes(const std::vector<int>& powers) {
  std::vector<EdgeClass> out;
  for (const int b : powers) out.push_back(exactly(b));
  return out;
}

std::vector<EdgeClass> block_classes(const std::function<bool(int)>& accepts) {
  std::vector<int> allowed;
  for (int b = 1; b <= max_threads_per_block; ++b)
    if (accepts(b)) allowed.push_back(b);
  if (allowed.empty()) throw std::logic_error("block_classes: the rule allows no block in 1..1024");
  if (allowed.front() == 1 && allowed.back() == static_cast<int>(allowed.size()))
    return any_block_classes(allowed.back());
  std::vector<int> powers;
  for (int b = allowed.front(); b <= allowed.back(); b *= 2) powers.push_back(b);
  if (std::has_single_bit(static_cast<unsigned>(allowed.front())) && allowed == powers)
    return power_of_two_block_classes(powers);
  throw std::logic_error("block_classes: the rule allows neither 1..B nor the powers of two in a range");
}

std::vector<EdgeClass> offset_classes() { return {exactly(0), exactly(1), exactly(2), exactly(3)}; }

}  // namespace kl::pairwise
