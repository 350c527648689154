// Why a rung does not take a shape, or does not run on this GPU: the registry's unsupported()
// answers (registry.cpp), each defined beside its kernel. Apart from launchers.hpp, which every
// kernel includes, because <string> costs each .cu file that includes it a second of nvcc's time.
#pragma once

#include "sgemm_whole_tiles.hpp"

#include <string>

namespace kl::matmul {

// "" when the padded shape still fits the kernels' int indexing and the grid, else the rule.
std::string whole_tiles_violation(const Shape& s, TileShape tile);

// "" when this process's GPU runs each sm_90a rung (33 to 37), else why it does not apply (cached).
std::string wgmma_tma_unavailable();
std::string wgmma_persistent_unavailable();
std::string wgmma_tma_store_unavailable();
std::string wgmma_stream_k_unavailable();
std::string wgmma_multicast_unavailable();

}  // namespace kl::matmul
