// Finding and running compute-sanitizer.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kl::cli {

// KL_COMPUTE_SANITIZER, then PATH, then the CUDA toolkit this was built against.
std::optional<std::string> find_compute_sanitizer();
// The message printed when it is missing (names every place looked).
std::string missing_sanitizer_message();

bool is_tool_name(const std::string& tool);
// compute-sanitizer --tool T with the options every kernel-lab run uses.
std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool);

struct Captured {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};
// Runs argv through the shell with every argument quoted, capturing its output.
Captured run_captured(const std::vector<std::string>& argv);
std::string shell_join(const std::vector<std::string>& argv);
// The path of the running executable (so tests can re-run this kernel-lab).
std::string self_executable();

}  // namespace kl::cli
