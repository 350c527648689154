// What the derived tests share: the families of the program that give DerivedChecks (family.hpp)
// and the one-line replay of a case.
#pragma once

#include "family.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kl::derived {

// The program's families with derived checks, in catalogue order.
std::vector<const Family*> families();

// "<program> run <id> <flags> --seed <seed>": the command that runs exactly this case.
// KL_CLI_PROGRAM_NAME (set by kl_add_lab) names the program.
std::string replay(const VariantInfo& variant, const std::vector<std::string>& flags, std::uint64_t seed);

// The flags as one line: "--rows 100 --cols 37 --block 16x16".
std::string joined(const std::vector<std::string>& flags);

}  // namespace kl::derived
