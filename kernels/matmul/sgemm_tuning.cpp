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

constexpr std::int64_t small_elements = std::int64_t{1} << 20, large_elements = std::int64_t{1} << 26;

// What a "gpu NAME [CLASS] = CONFIG" line says before its '=': the name and the raw text from its
// first '[' on ("[small]" when well formed, "" without one). found is false for other lines.
struct GpuPart {
  bool found = false;
  std::string gpu, shape;
};
GpuPart gpu_part(const std::string& line) {
  const std::string t = trim(line);
  if (t.rfind("gpu ", 0) != 0) return {};
  const auto eq = t.find('=');
  if (eq == std::string::npos) return {};
  GpuPart p{true, trim(std::string_view(t).substr(4, eq - 4)), ""};
  if (const auto open = p.gpu.find('['); open != std::string::npos) {
    p.shape = p.gpu.substr(open);
    p.gpu = trim(std::string_view(p.gpu).substr(0, open));
  }
  return p;
}

// A class as a line writes it: "[small]", "[large]", "" for any.
std::string bracketed(ShapeClass c) {
  const std::string_view name = name_of(c);
  return name.empty() ? "" : "[" + std::string(name) + "]";
}

// The class a bracketed "[small]" or "[large]" names; false for any other text.
bool class_named(const std::string& text, ShapeClass& out) {
  for (const ShapeClass c : {ShapeClass::small, ShapeClass::large})
    if (text == bracketed(c)) {
      out = c;
      return true;
    }
  return false;
}

}  // namespace

ShapeClass shape_class_of(std::int64_t m, std::int64_t n) {
  const std::int64_t elements = m * n;
  if (elements <= small_elements) return ShapeClass::small;
  if (elements >= large_elements) return ShapeClass::large;
  return ShapeClass::any;
}

std::string line_key(const std::string& gpu, ShapeClass shape) {
  return shape == ShapeClass::any ? gpu : gpu + " " + bracketed(shape);
}

std::string line_text(const std::string& gpu, ShapeClass shape, const std::string& config) {
  return "gpu " + line_key(gpu, shape) + " = " + config;
}

std::string_view name_of(ShapeClass c) {
  switch (c) {
    case ShapeClass::small: return "small";
    case ShapeClass::large: return "large";
    case ShapeClass::any: break;
  }
  return "";
}

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
      const GpuPart part = gpu_part(line);
      if (!part.found) fail("expected 'gpu NAME = CONFIG' or 'gpu NAME [CLASS] = CONFIG'");
      c.gpu = part.gpu;
      c.config = trim(std::string_view(line).substr(line.find('=') + 1));
      if (c.gpu.empty()) fail("the GPU name is empty");
      if (part.gpu.find(']') != std::string::npos || (!part.shape.empty() && !class_named(part.shape, c.shape)))
        fail("unknown shape class '" + (!part.shape.empty() ? part.shape : std::string("]")) +
             "' (known: [small] for C of at most 1024 x 1024 elements, [large] for at least 8192 x 8192)");
    } else {
      fail("expected 'default CONFIG', 'gpu NAME = CONFIG' or 'gpu NAME [CLASS] = CONFIG'");
    }
    if (std::find(known.begin(), known.end(), c.config) == known.end()) {
      std::string names;
      for (const std::string& k : known) names += (names.empty() ? "" : ", ") + k;
      fail("unknown config '" + c.config + "' (known: " + names + ")");
    }
    for (const Choice& earlier : choices)
      if (earlier.gpu == c.gpu && earlier.shape == c.shape)
        fail(c.gpu.empty() ? "a second default line"
             : c.shape == ShapeClass::any ? "a second line for this GPU"
                                          : "a second line for this GPU and shape class");
    choices.push_back(c);
  }
  if (std::none_of(choices.begin(), choices.end(), [](const Choice& c) { return c.gpu.empty(); }))
    throw std::invalid_argument("sgemm tuning: no 'default CONFIG' line");
  return choices;
}

std::string config_for(const std::vector<Choice>& choices, const std::string& gpu, ShapeClass shape) {
  std::string for_every_shape, fallback;
  for (const Choice& c : choices) {
    if (c.gpu.empty()) fallback = c.config;
    if (gpu.empty() || c.gpu != gpu) continue;
    if (c.shape == shape) return c.config;
    if (c.shape == ShapeClass::any) for_every_shape = c.config;
  }
  return !for_every_shape.empty() ? for_every_shape : fallback;
}

std::string with_choice(std::string_view text, const std::string& gpu, ShapeClass shape, const std::string& config) {
  const std::string line = line_text(gpu, shape, config);
  std::string out;
  bool replaced = false;
  for (const std::string& l : lines_of(text)) {
    const GpuPart part = gpu_part(l);
    if (!replaced && part.found && part.gpu == gpu && part.shape == bracketed(shape)) {
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
