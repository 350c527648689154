// The kit (kit.hpp): what exists once in a program, beside the instantiations (kit_<type>.cpp):
// the registry of the families it built, and the shapes' generic `run` flags.
#include "kit_family.hpp"

namespace kl::kit {

namespace detail {
std::map<std::string, Entry, std::less<>>& built() {
  static std::map<std::string, Entry, std::less<>> families;
  return families;
}
}  // namespace detail

std::vector<std::string> flags_of(const Vector& s) {
  return detail::Kind<Vector>::flags_of(s, detail::Kind<Vector>::flags());
}
std::vector<std::string> flags_of(const Matrix& s) {
  return detail::Kind<Matrix>::flags_of(s, detail::Kind<Matrix>::flags());
}

}  // namespace kl::kit
