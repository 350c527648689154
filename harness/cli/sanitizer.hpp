// Finding and running compute-sanitizer.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kl::cli {

// KL_COMPUTE_SANITIZER, then PATH, then the CUDA toolkit this was built against.
std::optional<std::string> find_compute_sanitizer();
// The message printed when it is missing (names every place looked).
std::string missing_sanitizer_message();

// The four compute-sanitizer tools every GPU test runs under, in that order.
inline constexpr std::array<const char*, 4> sanitizer_tools = {"memcheck", "racecheck", "synccheck", "initcheck"};
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

// ---- Judging a planted finding from the captured run of
//      `compute-sanitizer --tool T ... kernel-lab run <target> <args>`.

// A run under the tool cannot report its own exit status through the tool's: compute-sanitizer
// returns --error-exitcode once it counts an error, and --check-exit-code counts a failing
// application as one ("Target application returned an error"); an application that exits
// before its first CUDA call gets exit 255 and no summary (compute-sanitizer 2025.3 on an
// H100). So kernel-lab states its status as its last line when this environment variable is
// set, and `expect` sets it for the run it wraps.
inline constexpr const char* exit_status_variable = "KL_PRINT_EXIT_STATUS";
bool exit_status_requested();
std::string exit_status_line(int code);  // "kernel-lab: exit status N"
// The status the wrapped run stated last; nullopt if it stated none (it crashed or was killed).
std::optional<int> stated_exit_status(const std::string& output);

// What the tool said, read only from its own lines (those starting "========="), so nothing
// the application prints can pass for a finding or a clean summary.
struct ToolReport {
  bool tool_ran = false;       // its banner, "========= COMPUTE-SANITIZER"
  bool pattern_found = false;  // one of its lines matches the finding's pattern
  // The sum of its summaries: "ERROR SUMMARY: N errors" (memcheck, synccheck, initcheck) and
  // "RACECHECK SUMMARY: N hazards displayed" (warnings included); -1 if it printed none.
  int error_count = -1;
  // Its "Program hit cudaError..." lines: errors of CUDA calls (counted in its summary too), not
  // of a kernel's accesses, races or barriers; and whether one of them is cudaErrorLaunchFailure.
  int api_errors = 0;
  bool launch_failed = false;
};
// A tool line is matched by its first matched_line_chars characters (std::regex recurses about a
// level a character: a line of tens of thousands overflowed the stack).
constexpr std::size_t matched_line_chars = 2048;
ToolReport read_tool_report(const std::string& output, const std::string& pattern);
// "" when `pattern` is a regular expression (ECMAScript, as read_tool_report reads it), else why
// not. sanitizer.cpp is the harness's one translation unit that instantiates std::regex: that
// costs a unit 7 s of g++, 15 s of clang under the sanitizers.
std::string regular_expression_error(const std::string& pattern);

struct FindingCheck {
  std::string tool;      // memcheck, racecheck, ...
  std::string finding;   // the planted finding's repro name
  std::string planted;   // the planted variant's id
  std::string target;    // the variant run: the planted one, --variant's, or the fix
  std::string pattern;   // the tool's report must match it (ECMAScript regex)
  bool against_fix = false;
};

struct Judgement {
  int exit_code = 1;  // kernel-lab's: 0 pass, 1 fail, 2 no verdict (no tool, no GPU, bad input)
  std::string message;
  bool run_lost = false;  // the run said nothing either way (run_lost() below): worth running again
};

// A run the tool lost: its kernel ended in cudaErrorLaunchFailure, yet every error the tool
// counted is a CUDA call's, none a kernel's. On an H200 sharing the GPU with 15 other test
// processes, the planted add_unguarded's run under memcheck ended so (2026-11-29: "ERROR
// SUMMARY: 4 errors", the four calls after the launch), where memcheck reported the reads past
// a[] and b[] in every tier before. Such a run shows neither that the tool sees the bug nor that
// it does not.
bool run_lost(const ToolReport& report);
// How many runs a positive check (a planted finding, an exclusion's proof) makes while they are
// lost: the tool's report of the pattern in any of them is the verdict, as in a single run. The
// fix's check gets one run: a launch failure there may be the fix's own bug.
inline constexpr int positive_check_runs = 3;

// The positive check passes on the tool's report of the pattern alone: only a launched kernel
// can produce it, and a planted bug may well make its run fail. Silence is a miss only if the
// run got past its refusals (a run that exited 2 never launched: no verdict); silence in a lost
// run (run_lost) is "LOST", exit 1, run_lost set.
// The fix (against_fix) passes only if the tool ran, found nothing (pattern absent, summaries
// at 0), exited 0, and the run itself stated exit status 0: a fix that was refused, failed its
// oracle or crashed proves nothing by the tool's silence.
Judgement judge_finding(const FindingCheck& check, const Captured& run);

// ---- Judging an exclusion's proof: a suite left out of a tool stays out only while the tool
//      still reports on it what made us leave it out (`kernel-lab sanitize --expect-report`).
// Passes (0) if the tool ran and one of its lines matches `pattern`; fails (1), saying the
// exclusion can go, if it ran without reporting it ("LOST" and run_lost set if the run was
// lost); no verdict (2) if the tool never started.
Judgement judge_exclusion(const std::string& tool, const std::string& pattern, const std::string& command,
                          const Captured& run);

}  // namespace kl::cli
