// Fuzz target: the whole kernel-lab command line, one word a line. Whatever the words, kernel-lab
// must exit 0 (a host command that succeeded, help) or 2 with a message naming the rule broken
// (bad input, an unsupported shape, no GPU): never crash, hang, allocate without bound, or exit 1
// (1 means a check or CUDA failed, which needs a GPU this target never has; only `compare`
// exits 1 without one, on a regression).
//
// It runs without a GPU (CUDA_VISIBLE_DEVICES is emptied), so every command that would launch
// stops at require_gpu() after its flags and shape were validated, which is the code under test.
// sanitize, expect and repro start other programs (compute-sanitizer, the command after --), and
// new-family writes a project into a directory: for them only the parser runs, never the command.
#include "fuzz_input.hpp"

#include "cli.hpp"
#include "family.hpp"

#include <cuda_runtime.h>

#include <sstream>

namespace {

bool only_parsed(const std::string& command) {
  return command == "sanitize" || command == "expect" || command == "repro" || command == "new-family";
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("CUDA_VISIBLE_DEVICES", "", 1);
  // One-time initialisation, done before the first input so it is not taken for a leak:
  // the CUDA runtime's (it finds no device), the families' tables, the command specs.
  int devices = 0;
  (void)cudaGetDeviceCount(&devices);
  (void)cudaGetLastError();
  (void)kl::families();
  (void)kl::cli::command_specs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> argv = kl::fuzz::lines_of(data, size);
  if (!argv.empty() && only_parsed(argv[0])) {
    try {
      (void)kl::cli::parse(argv, kl::cli::command_specs());
    } catch (const kl::cli::UsageError& e) {
      if (std::string(e.what()).empty()) kl::fuzz::finding("a usage error without a message");
    }
    return 0;
  }
  std::ostringstream out, err;
  const int code = kl::cli::main(argv, out, err);
  // compare, the one host command with a verdict, exits 1 on a regression between two files.
  const bool verdict_allowed = !argv.empty() && argv[0] == "compare";
  if (code != 0 && code != 2 && !(code == 1 && verdict_allowed))
    kl::fuzz::finding("exit status " + std::to_string(code) + " without a GPU; stderr: " + err.str());
  if (code == 2 && err.str().empty()) kl::fuzz::finding("exit status 2 with nothing on stderr");
  return 0;
}
