// The kit for families of float output (kit_family.hpp).
#include "kit_family.hpp"

KL_KIT_INSTANTIATE(kl::kit::Vector, float)
KL_KIT_INSTANTIATE(kl::kit::Matrix, float)
