// main() of every GPU test binary: without a usable GPU the binary FAILS with the reason
// (never skips, never passes), so `ctest --preset gpu` on a machine without one fails loudly.
#include "kl/device_facts.hpp"

#include <gtest/gtest.h>

#include <iostream>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  try {
    kl::require_gpu();
  } catch (const kl::NoGpuError& e) {
    std::cerr << "FAILED: this test binary needs a CUDA GPU: " << e.what() << "\n";
    return 1;
  }
  return RUN_ALL_TESTS();
}
