// The registry's vocabulary: checkers by name. The catalogue itself is derived from the
// program's families (harness/cli/families.cpp).
#include "kl/registry.hpp"

namespace kl {

std::string_view to_string(Checker checker) {
  switch (checker) {
    case Checker::memcheck: return "memcheck";
    case Checker::racecheck: return "racecheck";
    case Checker::synccheck: return "synccheck";
    case Checker::initcheck: return "initcheck";
    case Checker::canary: return "canary";
    case Checker::oracle: return "oracle";
    case Checker::watchdog: return "watchdog";
    case Checker::perturbation: return "perturbation";
  }
  return "?";
}

bool is_sanitizer_tool(Checker checker) {
  return checker == Checker::memcheck || checker == Checker::racecheck ||
         checker == Checker::synccheck || checker == Checker::initcheck;
}

}  // namespace kl
