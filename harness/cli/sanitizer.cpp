#include "sanitizer.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string_view>
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
// The compute-sanitizer the user named, if any: KL_COMPUTE_SANITIZER, set and not empty.
const char* named_sanitizer() {
  const char* env = std::getenv("KL_COMPUTE_SANITIZER");
  return env && *env ? env : nullptr;
}
}  // namespace

std::optional<std::string> find_compute_sanitizer() {
  if (const char* named = named_sanitizer()) return executable(named) ? std::optional<std::string>(named) : std::nullopt;
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
  // The user named one: say that it is that one which is wrong, not that none was found.
  if (const char* named = named_sanitizer())
    return std::string("KL_COMPUTE_SANITIZER is set to '") + named +
           "', which is not an executable file: set it to the path of compute-sanitizer, or unset it to search $PATH "
           "and " + KL_CUDA_BIN_DIR + ".";
  return std::string("compute-sanitizer not found (looked at $KL_COMPUTE_SANITIZER, every directory on $PATH and ") +
         KL_CUDA_BIN_DIR + "): the sanitizer tier cannot run. Install the CUDA toolkit's compute-sanitizer "
         "or set KL_COMPUTE_SANITIZER=/path/to/compute-sanitizer.";
}

bool is_tool_name(const std::string& tool) {
  return std::find(sanitizer_tools.begin(), sanitizer_tools.end(), tool) != sanitizer_tools.end();
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

namespace {

constexpr std::string_view status_prefix = "kernel-lab: exit status ";
constexpr std::string_view tool_prefix = "=========";
constexpr std::string_view api_error_prefix = " Program hit cudaError";  // after tool_prefix

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The count in a tool summary line, or -1 if the line is not one.
int summary_count(const std::string& line) {
  static const std::regex summary(R"((ERROR|RACECHECK) SUMMARY: ([0-9]+) (error|hazard))");
  std::smatch m;
  return std::regex_search(line, m, summary) ? std::stoi(m[2]) : -1;
}

std::string status_text(const std::optional<int>& status) {
  if (!status) return "stated no exit status: it crashed or was killed";
  if (*status == 2) return "exited 2: refused before its kernel ran (bad input, unsupported shape or no GPU)";
  return "exited " + std::to_string(*status) + (*status == 1 ? ": its check or CUDA failed" : "");
}

Judgement judge_positive(const FindingCheck& c, const ToolReport& report, const std::optional<int>& status) {
  if (report.pattern_found)
    return {0, "expected finding reproduced: " + c.tool + " reported /" + c.pattern + "/ on " + c.target + " (" +
                   std::to_string(report.error_count) + " error(s))"};
  if (status == 2)
    return {2, "NO VERDICT: the run of " + c.target + " " + status_text(status) + ", so " + c.tool +
                   "'s silence says nothing (checking " + c.finding + ")"};
  if (run_lost(report))
    return {1, "LOST: " + c.tool + " stayed silent on " + c.target + " (checking " + c.finding + "), but its kernel " +
                   "ended in cudaErrorLaunchFailure and each of the " + std::to_string(report.error_count) + " error(s) " +
                   c.tool + " counted is a CUDA call's, none the kernel's",
            true};
  return {1, "MISSED: " + c.tool + " stayed silent on " + c.target + " (checking " + c.finding + "): /" + c.pattern +
                 "/ not in its report"};
}

Judgement judge_fix(const FindingCheck& c, const ToolReport& report, const std::optional<int>& status,
                    int tool_exit) {
  const std::string fix_of = c.target + ", the variant that should fix " + c.planted;
  if (status != 0)
    return {status == 2 ? 2 : 1, "NOT PROVEN: the fix's run did not succeed: " + c.target + " " +
                                     status_text(status) + "; " + c.tool + "'s silence there proves nothing"};
  if (report.pattern_found || report.error_count > 0)
    return {1, "NOT CLEAN: " + c.tool + " reported errors on " + fix_of};
  if (report.error_count < 0)
    return {1, "NOT PROVEN: " + c.tool + " printed no error summary on " + fix_of};
  if (tool_exit != 0)
    return {1, "NOT PROVEN: " + c.tool + " exited " + std::to_string(tool_exit) + " on " + fix_of +
                   " although it reported 0 errors and the run passed"};
  return {0, "checker can fail: " + c.tool + " stayed silent on " + c.target + " (/" + c.pattern +
                 "/ absent, 0 errors, its run passed), the fix for " + c.planted};
}

}  // namespace

bool exit_status_requested() {
  const char* value = std::getenv(exit_status_variable);
  return value != nullptr && std::string_view(value) == "1";
}

std::string exit_status_line(int code) { return std::string(status_prefix) + std::to_string(code); }

std::optional<int> stated_exit_status(const std::string& output) {
  std::optional<int> status;
  for (const std::string& line : lines_of(output)) {
    if (line.size() <= status_prefix.size() || line.compare(0, status_prefix.size(), status_prefix) != 0) continue;
    const std::string digits = line.substr(status_prefix.size());
    if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() <= 3) status = std::stoi(digits);
  }
  return status;
}

std::string regular_expression_error(const std::string& pattern) {
  try {
    (void)std::regex(pattern);
    return "";
  } catch (const std::regex_error& e) {
    return e.what();
  }
}

ToolReport read_tool_report(const std::string& output, const std::string& pattern) {
  ToolReport report;
  const std::regex finding(pattern);
  for (const std::string& line : lines_of(output)) {
    if (line.compare(0, tool_prefix.size(), tool_prefix) != 0) continue;
    if (line.find("COMPUTE-SANITIZER") != std::string::npos) report.tool_ran = true;
    // Only a line's first matched_line_chars (sanitizer.hpp): the tool's own lines are short.
    const auto searched = line.size() > matched_line_chars ? line.substr(0, matched_line_chars) : line;
    if (std::regex_search(searched, finding)) report.pattern_found = true;
    if (const int n = summary_count(line); n >= 0) report.error_count = std::max(report.error_count, 0) + n;
    if (line.compare(tool_prefix.size(), api_error_prefix.size(), api_error_prefix) == 0) {
      ++report.api_errors;
      if (line.find("cudaErrorLaunchFailure") != std::string::npos) report.launch_failed = true;
    }
  }
  return report;
}

bool run_lost(const ToolReport& report) {
  return report.launch_failed && !report.pattern_found && report.error_count == report.api_errors;
}

Judgement judge_finding(const FindingCheck& check, const Captured& run) {
  const ToolReport report = read_tool_report(run.output, check.pattern);
  if (!report.tool_ran)
    return {2, "kernel-lab: " + check.tool + " did not run (exit " + std::to_string(run.exit_code) + "): no verdict"};
  const std::optional<int> status = stated_exit_status(run.output);
  return check.against_fix ? judge_fix(check, report, status, run.exit_code) : judge_positive(check, report, status);
}

Judgement judge_exclusion(const std::string& tool, const std::string& pattern, const std::string& command,
                          const Captured& run) {
  const ToolReport report = read_tool_report(run.output, pattern);
  if (!report.tool_ran)
    return {2, "kernel-lab: " + tool + " did not run (exit " + std::to_string(run.exit_code) + "): no verdict"};
  const std::string summary =
      report.error_count < 0 ? "no error summary" : std::to_string(report.error_count) + " error(s) in its summary";
  if (report.pattern_found)
    return {0, "exclusion earned: " + tool + " still reports /" + pattern + "/ on " + command + " (" + summary + ")"};
  if (run_lost(report))
    return {1, "LOST: " + tool + " did not report /" + pattern + "/ on " + command + ", but a kernel ended in " +
                   "cudaErrorLaunchFailure and each of the " + summary + " is a CUDA call's, none a kernel's",
            true};
  return {1, "EXCLUSION NO LONGER EARNED: " + tool + " did not report /" + pattern + "/ on " + command + " (" +
                 summary + ", exit " + std::to_string(run.exit_code) + "); run it under " + tool +
                 " and drop the exclusion"};
}

}  // namespace kl::cli
