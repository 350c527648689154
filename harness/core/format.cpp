#include "format.hpp"
#include "result.hpp"

#include <cmath>
#include <cstdio>

namespace kl::bench {

std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}

std::string percent(double ratio) { return sig3(100.0 * ratio) + "%"; }

std::string sig3(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (value == 0) return "0";
  const double magnitude = std::floor(std::log10(std::fabs(value)));
  // Whole numbers from 1000 up keep every digit; below, three significant figures.
  const int decimals = magnitude >= 2 ? 0 : static_cast<int>(2 - magnitude);
  return fixed(value, decimals > 9 ? 9 : decimals);
}

std::string plain(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

std::string json_string(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\t': q += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          q += buf;
        } else {
          q += c;
        }
    }
  }
  return q + "\"";
}

std::string json_number(double value) {
  if (!std::isfinite(value)) return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string times_problem(double median_ms, double min_ms, double max_ms) {
  const struct {
    const char* name;
    double ms;
  } times[] = {{"median_ms", median_ms}, {"min_ms", min_ms}, {"max_ms", max_ms}};
  for (const auto& t : times)
    if (t.ms < 0) return std::string(t.name) + " " + json_number(t.ms) + " is negative";
  if (min_ms > max_ms) return "min_ms " + json_number(min_ms) + " is above max_ms " + json_number(max_ms);
  if (median_ms < min_ms || median_ms > max_ms)  // false where any is NaN
    return "median_ms " + json_number(median_ms) + " is outside min_ms " + json_number(min_ms) + " .. max_ms " +
           json_number(max_ms);
  return "";
}

}  // namespace kl::bench
