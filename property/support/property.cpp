#include "property.hpp"

#include <cstdlib>
#include <filesystem>
#include <string_view>

#ifndef KL_PRESET
#define KL_PRESET "gpu"
#endif

namespace kl::prop {

rc::detail::TestParams tier_params() {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* rc_params = std::getenv("RC_PARAMS");
  const bool explicit_count = rc_params != nullptr && std::string_view(rc_params).find("max_success") != std::string_view::npos;
  if (slow_tier() && !explicit_count) params.maxSuccess = slow_tier_cases;
  return params;
}

std::string replay_lines(const std::string& id, const rc::detail::Reproduce& reproduce) {
  rc::detail::Configuration config;
  config.reproduce[id] = reproduce;
  const std::string params = rc::detail::configToMinimalString(config);
  const std::string filter = id.substr(0, id.find('/')) + "." + id.substr(id.find('/') + 1);
  const std::string binary = std::filesystem::read_symlink("/proc/self/exe").string();

  std::string ctest_name = std::getenv("KL_CTEST_NAME") ? std::getenv("KL_CTEST_NAME") : "";
  // Sanitizer runs set RC_PARAMS themselves; replay the plain test of the same binary.
  for (const char* tool : {".memcheck", ".racecheck", ".synccheck", ".initcheck"}) {
    const std::string suffix(tool);
    if (ctest_name.size() > suffix.size() && ctest_name.ends_with(suffix))
      ctest_name.resize(ctest_name.size() - suffix.size());
  }
  std::string escaped;
  for (const char c : ctest_name) escaped += c == '.' ? std::string("\\.") : std::string(1, c);

  std::string lines = "Replay this shrunk case:\n";
  if (!ctest_name.empty())
    lines += "  RC_PARAMS=\"" + params + "\" ctest --preset " KL_PRESET " -R '^" + escaped +
             "$' --output-on-failure\n";
  // The binary alone must see the same tier, or its generators would draw other shapes.
  const std::string tier = slow_tier() ? "KL_PROPERTY_TIER=slow " : "";
  lines += "  " + tier + "RC_PARAMS=\"" + params + "\" " + binary + " --gtest_filter=" + filter + "\n";
  return lines;
}

}  // namespace kl::prop
