// The bench's oracle for a 4096^3 product: the whole rows and columns of C that matmul's own
// sampled check compares (matmul::sampled_lines_of), computed cache-friendly on the host, one
// line per task over the host's cores.
// Comparing every element would need the full oracle, minutes of host time per shape; what the
// sample cannot see, an element the kernel never wrote, a scan of the whole output finds
// (check_product).
#pragma once

#include "bench_context.hpp"

#include "kl/case_result.hpp"
#include "kl/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace kl::cli {

struct ExpectedElement {
  std::size_t index = 0;  // row * n + col
  double value = 0;
  double bound = 0;  // |got - value| allowed
};

// C = A B (row-major, m x k times k x n) on the sampled rows and columns, accumulated in Acc
// (double for floats, int64 for ints, exact for the lab's int inputs); `bound(k, sum|a b|)` is
// the error allowed at each element.
template <class Acc, class T>
std::vector<ExpectedElement> sampled_product(const std::vector<T>& a, const std::vector<T>& b, std::int64_t m,
                                             std::int64_t n, std::int64_t k,
                                             const std::function<double(std::int64_t, double)>& bound) {
  auto at = [](std::int64_t i) { return static_cast<std::size_t>(i); };
  const std::vector<std::int64_t> rows = matmul::sampled_lines_of(m), cols = matmul::sampled_lines_of(n);
  // One line of C (a sampled row, then a sampled column) per task; each task writes its own part.
  std::vector<std::vector<ExpectedElement>> parts(rows.size() + cols.size());
  auto row_of_c = [&](std::int64_t i, std::vector<ExpectedElement>& out) {  // stream the rows of B
    std::vector<Acc> sum(at(n), Acc{0});
    std::vector<double> magnitude(at(n), 0.0);
    for (std::int64_t kk = 0; kk < k; ++kk) {
      const Acc x = static_cast<Acc>(a[at(i * k + kk)]);
      const T* b_row = &b[at(kk * n)];
      for (std::int64_t j = 0; j < n; ++j) {
        const Acc p = x * static_cast<Acc>(b_row[j]);
        sum[at(j)] += p;
        if constexpr (std::is_floating_point_v<Acc>) magnitude[at(j)] += std::fabs(p);
      }
    }
    for (std::int64_t j = 0; j < n; ++j)
      out.push_back({at(i * n + j), static_cast<double>(sum[at(j)]), bound(k, magnitude[at(j)])});
  };
  auto column_of_c = [&](std::int64_t j, std::vector<ExpectedElement>& out) {  // gather B's column once
    std::vector<Acc> b_col(at(k));
    for (std::int64_t kk = 0; kk < k; ++kk) b_col[at(kk)] = static_cast<Acc>(b[at(kk * n + j)]);
    for (std::int64_t i = 0; i < m; ++i) {
      Acc s{0};
      double mag = 0;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const Acc p = static_cast<Acc>(a[at(i * k + kk)]) * b_col[at(kk)];
        s += p;
        if constexpr (std::is_floating_point_v<Acc>) mag += std::fabs(p);
      }
      out.push_back({at(i * n + j), static_cast<double>(s), bound(k, mag)});
    }
  };
  auto task = [&](std::size_t t) {
    if (t < rows.size())
      row_of_c(rows[t], parts[t]);
    else
      column_of_c(cols[t - rows.size()], parts[t]);
  };
  // The lines are independent: spread them over the host's cores (an 8192^3 oracle is 2 G
  // multiply-adds; the perf tier waits for it).
  const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, parts.size());
  std::vector<std::thread> pool;
  for (std::size_t w = 0; w + 1 < workers; ++w)
    pool.emplace_back([&, w] {
      for (std::size_t t = w; t < parts.size(); t += workers) task(t);
    });
  for (std::size_t t = workers - 1; t < parts.size(); t += workers) task(t);
  for (std::thread& worker : pool) worker.join();
  std::vector<ExpectedElement> out;
  for (std::vector<ExpectedElement>& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// Compares the sampled elements; NaN (the float poison) fails, so does the int poison.
template <class T>
CaseResult compare_sampled(const std::vector<T>& got, const std::vector<ExpectedElement>& want) {
  CaseResult r;
  for (const ExpectedElement& e : want) {
    ++r.checked;
    const double g = static_cast<double>(got[e.index]);
    if (!(std::fabs(g - e.value) <= e.bound)) r.add_mismatch({e.index, g, e.value, e.bound});
  }
  return r;
}

// The bench's check of a product: the sampled elements within their bounds, and every element
// of C written (no poison left), with the first unwritten indices named.
template <class T>
BenchCheck check_product(const std::vector<T>& got, const std::vector<ExpectedElement>& want) {
  CaseResult r = compare_sampled(got, want);
  const UnwrittenScan unwritten = scan_unwritten(got);
  if (unwritten.count == 0) return r;
  r.guards.unwritten = unwritten.count;
  r.guards.first_unwritten = unwritten.first.front();
  return {r, unwritten.describe()};
}

}  // namespace kl::cli
