// main() of a harness program: kernel-lab itself, or a project's own (KernelLab::cli_main), whose
// families are the ones its family set lists. See `<program> help`.
#include "cli.hpp"

#include <iostream>

int main(int argc, char** argv) {
  if (argc > 0) kl::cli::set_program_name(argv[0]);
  return kl::cli::main(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
