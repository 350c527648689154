// Schedule perturbation, host side (kl/perturb.hpp).
#include "kl/perturb.hpp"
#include "kl/test_env.hpp"

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace kl::perturb {
namespace {

struct Units {
  std::mutex mutex;
  std::vector<Upload> uploads;
  std::uint32_t launches = 0;
};

// Function-local: units register from static initialisers of other translation units.
Units& units() {
  static Units all;
  return all;
}

std::uint64_t parse(const char* name, const char* text, std::uint64_t fallback, std::uint64_t largest) {
  if (text == nullptr) return fallback;
  const std::string_view s(text);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || error != std::errc() || end != s.data() + s.size() || value > largest)
    throw std::invalid_argument(std::string(name) + " must be a decimal number in 0.." + std::to_string(largest) +
                                ", got '" + std::string(s) + "'");
  return value;
}

}  // namespace

Settings settings_from(const char* seed, const char* max_delay_us) {
  Settings s;
  s.seed = parse(seed_variable, seed, default_seed, UINT64_MAX);
  s.max_delay_ns =
      static_cast<std::uint32_t>(parse(max_delay_variable, max_delay_us, default_max_delay_us, largest_max_delay_us) * 1000);
  return s;
}

namespace {
Settings& current() {
  static Settings read = settings_from(std::getenv(seed_variable), std::getenv(max_delay_variable));
  return read;
}
}  // namespace

const Settings& settings() { return current(); }

void use_seed(std::uint64_t seed) {
  Units& u = units();
  const std::lock_guard<std::mutex> lock(u.mutex);
  current().seed = seed;
  u.launches = 0;
}

bool register_unit(Upload upload) {
  Units& u = units();
  const std::lock_guard<std::mutex> lock(u.mutex);
  u.uploads.push_back(upload);
  return true;
}

int registered_units() {
  Units& u = units();
  const std::lock_guard<std::mutex> lock(u.mutex);
  return static_cast<int>(u.uploads.size());
}

void before_launch(cudaStream_t stream) {
  Units& u = units();
  const std::lock_guard<std::mutex> lock(u.mutex);
  if (u.uploads.empty()) return;
  Settings s = settings();
  s.launch = ++u.launches;
  for (const Upload upload : u.uploads) upload(s, stream);
}

std::string replay_hint() {
  if (!compiled_in()) return "";
  const Settings& s = settings();
  const std::string seed = std::to_string(s.seed);
  const std::string delay = std::to_string(s.max_delay_ns / 1000);
  // The perturb tier's tests also run at the small sizes (KL_SANITIZER_SMALL): a replay needs them.
  const std::string sizes = sanitizer_small_mode() ? " KL_SANITIZER_SMALL=1" : "";
  return "perturbation seed " + seed + ", delays up to " + delay + " us; replay with " + seed_variable + "=" + seed +
         " " + max_delay_variable + "=" + delay + sizes;
}

}  // namespace kl::perturb
