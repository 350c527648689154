// Parser and writer of sgemm_tuning.conf (see sgemm_tuning.hpp).
#include "kl/sgemm_tuning.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace kl::matmul::tuning {
namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return std::string(s.substr(first, s.find_last_not_of(" \t\r") - first + 1));
}

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The GPU named by a "gpu NAME = CONFIG" line, "" for other lines.
std::string gpu_of(const std::string& line) {
  const std::string t = trim(line);
  if (t.rfind("gpu ", 0) != 0) return "";
  const auto eq = t.find('=');
  return eq == std::string::npos ? "" : trim(std::string_view(t).substr(4, eq - 4));
}

}  // namespace

std::vector<Choice> parse(std::string_view text, const std::vector<std::string>& known) {
  std::vector<Choice> choices;
  int number = 0;
  for (const std::string& raw : lines_of(text)) {
    ++number;
    const std::string line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    const auto fail = [&](const std::string& rule) {
      throw std::invalid_argument("sgemm tuning line " + std::to_string(number) + " '" + line + "': " + rule);
    };
    Choice c;
    if (line.rfind("default ", 0) == 0) {
      c.config = trim(std::string_view(line).substr(8));
    } else if (line.rfind("gpu ", 0) == 0) {
      const auto eq = line.find('=');
      if (eq == std::string::npos) fail("expected 'gpu NAME = CONFIG'");
      c.gpu = gpu_of(line);
      c.config = trim(std::string_view(line).substr(eq + 1));
      if (c.gpu.empty()) fail("the GPU name is empty");
    } else {
      fail("expected 'default CONFIG' or 'gpu NAME = CONFIG'");
    }
    if (std::find(known.begin(), known.end(), c.config) == known.end()) {
      std::string names;
      for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
      fail("unknown config '" + c.config + "' (known: " + names + ")");
    }
    for (const Choice& earlier : choices)
      if (earlier.gpu == c.gpu) fail(c.gpu.empty() ? "a second default line" : "a second line for this GPU");
    choices.push_back(c);
  }
  if (std::none_of(choices.begin(), choices.end(), [](const Choice& c) { return c.gpu.empty(); }))
    throw std::invalid_argument("sgemm tuning: no 'default CONFIG' line");
  return choices;
}

std::string config_for(const std::vector<Choice>& choices, const std::string& gpu) {
  std::string fallback;
  for (const Choice& c : choices) {
    if (c.gpu == gpu && !gpu.empty()) return c.config;
    if (c.gpu.empty()) fallback = c.config;
  }
  return fallback;
}

std::string with_choice(std::string_view text, const std::string& gpu, const std::string& config) {
  const std::string line = "gpu " + gpu + " = " + config;
  std::string out;
  bool replaced = false;
  for (const std::string& l : lines_of(text)) {
    if (!replaced && gpu_of(l) == gpu) {
      out += line + "\n";
      replaced = true;
    } else {
      out += l + "\n";
    }
  }
  if (!replaced) out += line + "\n";
  return out;
}

}  // namespace kl::matmul::tuning
