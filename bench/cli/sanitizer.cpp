#include "sanitizer.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#ifndef KL_CUDA_BIN_DIR
#define KL_CUDA_BIN_DIR ""
#endif

namespace kl::cli {
namespace {
bool executable(const std::filesystem::path& p) {
  return !p.empty() && std::filesystem::is_regular_file(p) && ::access(p.c_str(), X_OK) == 0;
}
}  // namespace

std::optional<std::string> find_compute_sanitizer() {
  if (const char* env = std::getenv("KL_COMPUTE_SANITIZER"); env && *env)
    return executable(env) ? std::optional<std::string>(env) : std::nullopt;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (executable(std::filesystem::path(dir) / "compute-sanitizer"))
        return (std::filesystem::path(dir) / "compute-sanitizer").string();
  }
  const std::filesystem::path bundled = std::filesystem::path(KL_CUDA_BIN_DIR) / "compute-sanitizer";
  if (executable(bundled)) return bundled.string();
  return std::nullopt;
}

std::string missing_sanitizer_message() {
  return std::string("compute-sanitizer not found (looked at $KL_COMPUTE_SANITIZER, every directory on $PATH and ") +
         KL_CUDA_BIN_DIR + "): the sanitizer tier cannot run. Install the CUDA toolkit's compute-sanitizer "
         "or set KL_COMPUTE_SANITIZER=/path/to/compute-sanitizer.";
}

bool is_tool_name(const std::string& tool) {
  return tool == "memcheck" || tool == "racecheck" || tool == "synccheck" || tool == "initcheck";
}

std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool) {
  // --error-exitcode makes any reported error fail the run; --check-exit-code makes a failing
  // application fail it too, so a crash under the tool is never a pass.
  return {sanitizer, "--tool", tool, "--error-exitcode", "86", "--check-exit-code", "yes"};
}

std::string shell_join(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) {
    std::string q = "'";
    for (const char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += (s.empty() ? "" : " ") + q + "'";
  }
  return s;
}

Captured run_captured(const std::vector<std::string>& argv) {
  Captured c;
  FILE* pipe = ::popen((shell_join(argv) + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return c;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) c.output.append(buf, n);
  const int status = ::pclose(pipe);
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return c;
}

std::string self_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

}  // namespace kl::cli
