#include "property.hpp"

#include "kl/test_env.hpp"

#include <cstdlib>
#include <filesystem>

#ifndef KL_PRESET
#define KL_PRESET "gpu"
#endif

namespace kl::prop {

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
  // A slow-tier ctest entry sets RC_PARAMS itself (its case count), which would override the
  // replay's; the binary line with the tier switch replays it instead.
  const std::string tier = kl::slow_tier() ? "KL_PROPERTY_TIER=slow " : "";
  if (!ctest_name.empty() && tier.empty())
    lines += "  RC_PARAMS=\"" + params + "\" ctest --preset " KL_PRESET " -R '^" + escaped +
             "$' --output-on-failure\n";
  lines += "  " + tier + "RC_PARAMS=\"" + params + "\" " + binary + " --gtest_filter=" + filter + "\n";
  return lines;
}

}  // namespace kl::prop
