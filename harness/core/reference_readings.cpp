#include "reference_readings.hpp"

#include "format.hpp"

#include <algorithm>

namespace kl::bench {
namespace {

// How far the slowest reading falls below the fastest, as a fraction of the fastest; 0 with fewer
// than two.
double spread(const Ceiling& c) {
  if (c.readings.size() < 2) return 0;
  const auto [slowest, fastest] = std::minmax_element(c.readings.begin(), c.readings.end());
  return *fastest > 0 ? 1 - *slowest / *fastest : 0;
}

}  // namespace

bool needs_reading(const Ceiling& c) {
  if (c.reference.empty()) return false;
  if (c.readings.size() < 2) return true;
  return spread(c) > unsteady_spread && c.readings.size() < static_cast<std::size_t>(max_reference_readings);
}

void add_reading(Ceiling& c, double value) {
  c.readings.push_back(value);
  c.value = *std::max_element(c.readings.begin(), c.readings.end());
}

std::vector<Reread> reread_against(const Ceiling& c, std::vector<Result>& results, const Result& fastest) {
  std::vector<Reread> moved;
  for (Result& r : results) {
    const double was = r.ratio();
    if (r.key() == c.reference && fastest.value > r.value) r = fastest;
    if (r.ceiling == c.name) r.ceiling_value = c.value;
    if (r.ratio() != was) moved.push_back({r.key(), r.ceiling, was, r.ratio()});
  }
  return moved;
}

std::string reread_text(const Reread& moved) {
  // percent() is how the case line printed the ratio (cmd_bench.cpp): "was" is exactly that text.
  const std::string was = percent(moved.was), now = percent(moved.now);
  if (was == now) return "";
  return moved.key + ": " + now + " of " + moved.ceiling + " (printed above: " + was + ")";
}

std::string readings_text(const Ceiling& c) {
  std::string text = sig3(c.value) + " " + c.metric + ", the fastest of";
  for (std::size_t i = 0; i < c.readings.size(); ++i)
    text += (i == 0 ? " " : i + 1 == c.readings.size() ? " and " : ", ") + sig3(c.readings[i]);
  const double apart = spread(c);
  if (apart > unsteady_spread) text += " (the slowest " + sig3(100 * apart) + "% below: an unsteady GPU)";
  return text;
}

}  // namespace kl::bench
