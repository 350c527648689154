// kernel-lab: list, run, check and reproduce the lab's kernels. See `kernel-lab help`.
#include "cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  return kl::cli::main(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
