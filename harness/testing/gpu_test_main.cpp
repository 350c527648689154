// main() of every GPU test binary: without a usable GPU the binary FAILS with the reason
// (never skips, never passes), so `ctest --preset gpu` on a machine without one fails loudly.
// A binary built against the perturbed kernels (the perturb tier) says its seed first and, when
// a test failed, the line that replays the run.
#include "kl/device_facts.hpp"
#include "kl/perturb.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace {

// ctest's name of this run (set by the lab's test registration), for the replay line.
std::string ctest_replay() {
  const char* name = std::getenv("KL_CTEST_NAME");
  const char* preset = std::getenv("KL_CTEST_PRESET");
  if (name == nullptr) return "";
  return std::string(" ctest --preset ") + (preset ? preset : "gpu") + " -R '^" + name + "$' --output-on-failure";
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  try {
    kl::require_gpu();
  } catch (const kl::NoGpuError& e) {
    std::cerr << "FAILED: this test binary needs a CUDA GPU: " << e.what() << "\n";
    return 1;
  }
  std::string perturbation;
  try {
    perturbation = kl::perturb::replay_hint();
  } catch (const std::invalid_argument& e) {
    std::cerr << "FAILED: " << e.what() << "\n";
    return 2;
  }
  if (!perturbation.empty()) std::cout << "kernel-lab " << perturbation << "\n";
  const int status = RUN_ALL_TESTS();
  if (status != 0 && !perturbation.empty())
    std::cout << "kernel-lab: a test failed under " << perturbation << ";" << ctest_replay() << "\n";
  return status;
}
