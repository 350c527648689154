#include "derived.hpp"

#ifndef KL_CLI_PROGRAM_NAME
#define KL_CLI_PROGRAM_NAME "kernel-lab"
#endif

namespace kl::derived {

std::vector<const Family*> families() {
  std::vector<const Family*> out;
  for (const Family* f : kl::families())
    if (!f->derived.empty()) out.push_back(f);
  return out;
}

std::string joined(const std::vector<std::string>& flags) {
  std::string line;
  for (const std::string& f : flags) line += (line.empty() ? "" : " ") + f;
  return line;
}

std::string replay(const VariantInfo& variant, const std::vector<std::string>& flags, std::uint64_t seed) {
  std::string line = std::string(KL_CLI_PROGRAM_NAME) + " run " + variant.id() + " " + joined(flags);
  // Variants without inputs take no --seed: their cases do not depend on one.
  return find_family(variant.family).run_takes(variant.name, "seed") ? line + " --seed " + std::to_string(seed) : line;
}

}  // namespace kl::derived
