// Rung 10 (10_bulk_copy_ring.cu) to the registry: its plan, whose grid comes from the GPU it
// runs on, and why it does not run here. Apart from launchers.hpp, which every kernel includes,
// because <string> would cost each of them a second of nvcc's time.
#pragma once

#include "summation_plan.hpp"

#include "kl/reduction_args.hpp"

#include <string>

namespace kl::reduction {

plan::Summation bulk_copy_ring_plan(const Shape& shape);
std::string bulk_copy_ring_unavailable();

}  // namespace kl::reduction
