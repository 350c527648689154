// The kit for families of double output (kit_family.hpp).
#include "kit_family.hpp"

KL_KIT_INSTANTIATE(kl::kit::Vector, double)
KL_KIT_INSTANTIATE(kl::kit::Matrix, double)
