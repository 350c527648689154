#include "property.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string_view>

#ifndef KL_PRESET
#define KL_PRESET "gpu"
#endif

namespace kl::prop {
namespace {

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// `text` (RC_PARAMS syntax) applied over `base`; a malformed string names the variable it came
// from, since RapidCheck's own message does not.
rc::detail::Configuration apply(const char* variable, const std::string& text, const rc::detail::Configuration& base) {
  try {
    return rc::detail::configFromString(text, base);
  } catch (const rc::detail::ConfigurationException& e) {
    throw std::invalid_argument(std::string(variable) + "=\"" + text + "\": " + e.what());
  }
}

// The lab variables that change what a case does: what the generators draw (a case shrunk to
// n = 1021 under KL_SANITIZER_SMALL replays as n = 4097 without it) and, in a perturbation
// build, the delays (kl/perturb.hpp). The binary line sets each one the run had.
constexpr std::array<const char*, 4> replay_variables = {"KL_SANITIZER_SMALL", "KL_PROPERTY_TIER", "KL_PERTURB_SEED",
                                                        "KL_PERTURB_MAX_DELAY_US"};

std::string replay_environment() {
  std::string words;
  for (const char* name : replay_variables)
    if (const char* value = std::getenv(name)) words += std::string(name) + "=" + shell_word(value) + " ";
  return words;
}

// RC_PARAMS="..." as the README and the house style print it, unless the value holds a character
// that double quotes do not protect; then a single-quoted word.
std::string rc_params_assignment(const std::string& params) {
  if (params.find_first_of("$`\\\"!") == std::string::npos) return "RC_PARAMS=\"" + params + "\"";
  return "RC_PARAMS=" + shell_word(params);
}

// ^name$ for ctest -R: the test's own name, every regex metacharacter escaped.
std::string exact_ctest_regex(const std::string& name) {
  std::string regex = "^";
  for (const char c : name) {
    if (std::string_view(".[]()*+?^$|\\{}").find(c) != std::string_view::npos) regex += '\\';
    regex += c;
  }
  return regex + "$";
}

}  // namespace

rc::detail::TestParams tier_params() {
  const std::string user = env_or_empty("RC_PARAMS");
  const std::string defaults = env_or_empty("KL_RC_DEFAULTS");
  // RapidCheck's global configuration: its seed (random, or the user's) and the user's keys.
  rc::detail::Configuration config = rc::detail::configuration();
  config.testParams.maxDiscardRatio = refused_cases_per_case;
  if (slow_tier()) config.testParams.maxSuccess = slow_tier_cases;
  // The registered test's defaults over the lab's, then the user's keys over everything.
  config = apply("KL_RC_DEFAULTS", defaults, config);
  config = apply("RC_PARAMS", user, config);
  return config.testParams;
}

std::string shell_word(const std::string& text) {
  const bool plain = !text.empty() && text.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_-.,:/=+@%") == std::string::npos;
  if (plain) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string current_test_id() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "/" + info->name();
}

std::string current_test_filter() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

std::string replay_lines(const std::string& id, const rc::detail::Reproduce& reproduce) {
  const std::string filter = id.substr(0, id.find('/')) + "." + id.substr(id.find('/') + 1);
  return replay_lines(id, filter, reproduce);
}

std::string replay_lines(const std::string& id, const std::string& filter, const rc::detail::Reproduce& reproduce) {
  rc::detail::Configuration config;
  config.reproduce[id] = reproduce;
  const std::string params = rc_params_assignment(rc::detail::configToMinimalString(config));
  const std::string binary = std::filesystem::read_symlink("/proc/self/exe").string();

  std::string lines = "Replay this shrunk case:\n";
  // ctest sets the test's own environment (sanitizer mode, tier, defaults), and a user's
  // RC_PARAMS reaches every run, so the line names the very test that failed, sanitizer runs too.
  if (const std::string ctest_name = env_or_empty("KL_CTEST_NAME"); !ctest_name.empty()) {
    // The preset of the tree that registered the test (a project using the installed harness
    // has its own); the preset this library was built with otherwise.
    const std::string preset = env_or_empty("KL_CTEST_PRESET").empty() ? KL_PRESET : env_or_empty("KL_CTEST_PRESET");
    lines += "  " + params + " ctest --preset " + shell_word(preset) + " -R " + shell_word(exact_ctest_regex(ctest_name)) +
             " --output-on-failure\n";
  }
  // The binary alone (no sanitizer, no ctest) must see the same shape variables as the run.
  lines += "  " + replay_environment() + params + " " + shell_word(binary) + " " +
           shell_word("--gtest_filter=" + filter) + "\n";
  return lines;
}

}  // namespace kl::prop
