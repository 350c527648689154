// Launch geometry: the grids of kl/grid.hpp, and the rules a block must keep, as messages.
#pragma once

#include "kl/grid.hpp"

#include <string>

namespace kl {

// Returns "" when `threads` is a valid 1-D block size, else the rule it breaks.
std::string block_1d_violation(int threads);
// Returns "" when `block` is a valid 2-D block, else the rule it breaks.
std::string block_2d_violation(Dim2 block);

}  // namespace kl
