// The kit for families of int output (kit_family.hpp).
#include "kit_family.hpp"

KL_KIT_INSTANTIATE(kl::kit::Vector, int)
KL_KIT_INSTANTIATE(kl::kit::Matrix, int)
