// The dispatch family's table.
#include "launchers.hpp"

#include "kl/dispatch.hpp"

namespace kl::dispatch {
namespace {

constexpr const char* seeds = "000_4eb26088713d3cd0.txt, 003_2eb1131b3d611900.txt";

// The kernels index cells with int: 2 * width * height must fit.
std::string domain_violation(const Shape& s) {
  if (s.width < 1 || s.height < 1)
    return "width and height must be >= 1, got " + std::to_string(s.width) + "x" + std::to_string(s.height);
  if (2LL * s.width * s.height > INT32_MAX)
    return "2 * width * height must fit in an int, got " + std::to_string(2LL * s.width * s.height);
  return "";
}

std::string any_grid(const Shape& s) {
  if (std::string rule = domain_violation(s); !rule.empty()) return rule;
  if (std::string rule = block_2d_violation(s.block); !rule.empty()) return rule;
  if (ceil_div(s.height, s.block.y) > max_grid_yz)
    return "height / block.y must need at most 65535 blocks in y, got " +
           std::to_string(ceil_div(s.height, s.block.y));
  return "";
}

// The unguarded seed kernel writes one cell per thread, so the blocks must tile the domain.
std::string exact_tiling(const Shape& s) {
  if (std::string rule = any_grid(s); !rule.empty()) return rule;
  if (s.width % s.block.x != 0 || s.height % s.block.y != 0)
    return "width and height must be multiples of the block (no bounds guard), got " +
           std::to_string(s.width) + "x" + std::to_string(s.height) + " with block " +
           std::to_string(s.block.x) + "x" + std::to_string(s.block.y);
  return "";
}

std::string host_oracle(const Shape& s) { return domain_violation(s); }

const std::vector<Variant>& table() {
  static const std::vector<Variant> variants = {
      {{{"dispatch", "cpu_oracle", "-", "CPU reference",
         "Variant 0: cell (col,row) holds (col,row); every dispatch must reproduce this map.",
         Role::reference, {}},
        host_oracle, launch_cpu_oracle}},
      {{{"dispatch", "record_thread_coords", seeds, "record_thread_coords",
         "2-D grid of 2-D blocks: col = blockIdx.x*blockDim.x + threadIdx.x, row likewise in y; "
         "as written it needs blocks that tile the domain exactly.",
         Role::teaching, {}},
        exact_tiling, launch_record_thread_coords}},
      {{{"dispatch", "record_thread_coords_guarded", seeds, "record_thread_coords",
         "The same map with a 2-D bounds guard: any width, height and block; threads past the "
         "edge write nothing.",
         Role::teaching, {}},
        any_grid, launch_record_thread_coords_guarded}},
  };
  return variants;
}

}  // namespace

std::span<const Variant> variants() { return table(); }

}  // namespace kl::dispatch
