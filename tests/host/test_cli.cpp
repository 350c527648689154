// The CLI's parsing and its errors, in-process. None of these needs a GPU: every bad input is
// rejected before CUDA is touched.
#include "cli.hpp"
#include "family.hpp"
#include "regex_support.hpp"
#include "report_output.hpp"
#include "run_support.hpp"
#include "sanitizer.hpp"
#include "scoped_env.hpp"

#include "kl/registry.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

Outcome run(std::vector<std::string> argv) {
  std::ostringstream out, err;
  const int code = kl::cli::main(argv, out, err);
  return {code, out.str(), err.str()};
}

void expect_usage_error(std::vector<std::string> argv, const std::string& message) {
  const Outcome o = run(argv);
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find(message), std::string::npos) << "stderr: " << o.err;
}

}  // namespace

TEST(CliParse, ValuesSwitchesAndInlineForms) {
  const auto args = kl::cli::parse({"run", "elementwise.add", "--n", "1000", "--block=128"}, kl::cli::command_specs());
  EXPECT_EQ(args.positionals, std::vector<std::string>{"elementwise.add"});
  EXPECT_EQ(args.integer("n", 0, 0, 5000), 1000);
  EXPECT_EQ(args.integer("block", 0, 0, 5000), 128);
  EXPECT_EQ(kl::cli::parse_dim2("block", "16x8"), (kl::Dim2{16, 8}));
  EXPECT_EQ(kl::cli::parse_dim2("block", "32"), (kl::Dim2{32, 1}));
}

// What the parser (CLI11) settles: the last of a repeated flag wins, a switch takes CLI11's
// --name=true|false form, words after `--` belong to the command run under a tool (its -h too),
// and the operand count is the command's.
TEST(CliParse, RepeatsSwitchesPassthroughAndOperands) {
  const auto specs = kl::cli::command_specs();
  EXPECT_EQ(kl::cli::parse({"run", "elementwise.add", "--n=5", "--n", "7"}, specs).integer("n", 0, 0, 10), 7);
  EXPECT_TRUE(kl::cli::parse({"list", "--json"}, specs).has("json"));
  EXPECT_FALSE(kl::cli::parse({"list", "--json=false"}, specs).has("json"));
  const auto sanitize = kl::cli::parse({"sanitize", "--tool", "memcheck", "--", "prog", "-h", "--n", "3"}, specs);
  EXPECT_FALSE(sanitize.help);
  EXPECT_EQ(sanitize.passthrough, (std::vector<std::string>{"prog", "-h", "--n", "3"}));
  EXPECT_EQ(sanitize.text("tool", ""), "memcheck");
  expect_usage_error({"list", "extra"}, "unexpected argument 'extra' for 'list'");
  expect_usage_error({"run", "elementwise.add", "matmul.naive"}, "unexpected argument 'matmul.naive' for 'run'");
  expect_usage_error({"list", "--json=maybe"}, "--json");
  expect_usage_error({"run", "elementwise.add", "--n", "10", "--bogus"}, "unknown flag --bogus for 'run'");
}

TEST(CliErrors, UnknownCommandFlagAndVariant) {
  expect_usage_error({"frobnicate"}, "unknown command 'frobnicate'");
  expect_usage_error({"run", "elementwise.add", "--bogus", "1"}, "unknown flag --bogus");
  expect_usage_error({"run", "elementwise.add", "-n", "1"}, "unknown flag -n");
  expect_usage_error({"run", "elementwise.nope"}, "unknown variant 'elementwise.nope'");
  expect_usage_error({"run", "nofamily.add"}, "unknown variant 'nofamily.add'");
  expect_usage_error({}, "usage: kernel-lab");
}

TEST(CliErrors, MalformedNumbers) {
  expect_usage_error({"run", "elementwise.add", "--n", "abc"}, "--n expects an integer");
  expect_usage_error({"run", "elementwise.add", "--n", "12x"}, "--n expects an integer");
  expect_usage_error({"run", "elementwise.add", "--n"}, "--n needs a value");
  // A flag where the value should be is not taken as the value (it would name a file "--html").
  expect_usage_error({"run", "elementwise.add", "--n", "--block", "128"}, "--n needs a value, got the flag --block");
  expect_usage_error({"report", "r.json", "--markdown", "--html"}, "--markdown needs a value, got the flag --html");
  expect_usage_error({"compare", "a.tsv", "b.tsv", "--title", "-h"}, "--title needs a value, got the flag -h");
  expect_usage_error({"bench", "--family", "--sweep"}, "--family needs a value, got the flag --sweep");
  // An empty directory would write the new project over the working directory's files.
  expect_usage_error({"new-family", "scale", ""}, "the directory is empty");
  // An empty value reads as no flag at all (every family, the default): refused.
  expect_usage_error({"bench", "--family", ""}, "--family needs a value, got an empty one");
  expect_usage_error({"bench", "--variant", ""}, "--variant needs a value, got an empty one");
  expect_usage_error({"coords", "--block", "2y2"}, "--block expects an integer");
  expect_usage_error({"run", "elementwise.add", "--reps", "0"}, "--reps must be in [1, 10000]");
}

TEST(CliErrors, BlockOver1024AndUnsupportedShapes) {
  expect_usage_error({"run", "elementwise.add", "--n", "10", "--block", "2048"}, "block size must be in 1..1024");
  expect_usage_error({"run", "elementwise.add_unguarded", "--n", "10", "--block", "100"}, "multiple of 32");
  expect_usage_error({"run", "elementwise.add", "--n", "-3"}, "n must be >= 0");
  expect_usage_error({"coords", "--block", "64x32"}, "at most 1024 threads");
  expect_usage_error({"run", "dispatch.record_thread_coords", "--width", "5", "--height", "6", "--block", "2x2"},
                     "multiples of the block");
}

TEST(CliErrors, RiemannAndCounterShapes) {
  expect_usage_error({"run", "riemann.shared_memory", "--n", "1000", "--block", "48"},
                     "riemann.shared_memory: block size must be a power of two in 32..1024, got 48");
  expect_usage_error({"run", "riemann.naive_atomic", "--n", "0"}, "n (intervals) must be in 1..2^31-1");
  expect_usage_error({"run", "riemann.cpu_left_sum", "--n", "2147483648"}, "n (intervals) must be in 1..2^31-1");
  expect_usage_error({"run", "riemann.unrolled", "--dtype", "float"}, "flag --dtype does not apply");
  expect_usage_error({"run", "basics.atomic_counter", "--n", "2147483648", "--block", "1024"},
                     "basics.atomic_counter: n must be at most 2^31-1");
  expect_usage_error({"run", "basics.atomic_counter", "--n", "1000", "--block", "256"}, "n must be whole blocks");
}

TEST(CliErrors, FlagsOfAnotherFamily) {
  expect_usage_error({"run", "elementwise.add", "--width", "4"}, "flag --width does not apply to 'run elementwise.add'");
  expect_usage_error({"run", "dispatch.record_thread_coords_guarded", "--n", "4"}, "flag --n does not apply");
  // A joined family's variant takes its own part's flags only: matr a matrix's, fill_arr no seed.
  expect_usage_error({"run", "basics.matr", "--n", "4"}, "flag --n does not apply to 'run basics.matr'");
  expect_usage_error({"run", "basics.fill_arr", "--rows", "4"}, "flag --rows does not apply");
  expect_usage_error({"run", "basics.fill_arr", "--seed", "4"}, "flag --seed does not apply");
}

TEST(CliErrors, BadOrderAndTool) {
  expect_usage_error({"coords", "--order", "diagonal"}, "--order must be col,row or row,col");
  expect_usage_error({"sanitize", "--tool", "leakcheck", "--", "true"}, "--tool must be one of memcheck");
  expect_usage_error({"sanitize", "--tool", "memcheck"}, "needs a command after --");
  expect_usage_error({"expect"}, "needs a finding name");
  expect_usage_error({"expect", "no-such-finding"}, "unknown planted finding");
  expect_usage_error({"expect", "memcheck-add-unguarded", "--variant", "elementwise.nope"}, "unknown variant");
  expect_usage_error({"expect", "memcheck-add-unguarded", "--variant", "elementwise.add", "--against-fix"},
                     "exclude each other");
}

TEST(CliList, TableAndJsonNameEveryVariant) {
  const Outcome table = run({"list"});
  const Outcome json = run({"list", "--json"});
  ASSERT_EQ(table.code, 0);
  ASSERT_EQ(json.code, 0);
  for (const kl::VariantInfo* v : kl::catalogue()) {
    EXPECT_NE(table.out.find(v->name), std::string::npos) << v->id();
    EXPECT_NE(json.out.find("\"id\": \"" + v->id() + "\""), std::string::npos) << v->id();
  }
  EXPECT_NE(json.out.find("\"checker\": \"memcheck\""), std::string::npos);
}

// Every row's "expected findings" cell starts where the header's does, after a space: a long seed
// kernel name never pushes the later columns out of line.
TEST(CliList, TableColumnsLineUp) {
  const Outcome table = run({"list"});
  ASSERT_EQ(table.code, 0);
  std::istringstream lines(table.out);
  std::string header;
  std::getline(lines, header);
  const std::size_t column = header.find("expected findings");
  ASSERT_NE(column, std::string::npos);
  std::size_t rows = 0;
  for (std::string line; std::getline(lines, line); ++rows) {
    ASSERT_GT(line.size(), column) << line;
    EXPECT_EQ(line[column - 1], ' ') << line;
    EXPECT_NE(line[column], ' ') << line;
  }
  EXPECT_EQ(rows, kl::catalogue().size());
}

TEST(CliJson, QuotesControlCharacters) {
  EXPECT_EQ(kl::cli::json_quote("a\"b\\c\nd"), R"("a\"b\\c\nd")");
}

// ---- help: generated from the table the parser reads, so it lists every flag accepted.

namespace {

std::string help_text() {
  const Outcome o = run({"help"});
  EXPECT_EQ(o.code, 0);
  return o.out;
}

// The help line that introduces `command` ("  coords [flags]    (needs a GPU)").
std::string command_line_of(const std::string& help, const std::string& command) {
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  " + command + " ", 0) == 0 || line == "  " + command) return line;
  return "";
}

bool help_lists_flag(const std::string& help, const std::string& flag) {
  return help.find("--" + flag + " ") != std::string::npos || help.find("--" + flag + "\n") != std::string::npos;
}

}  // namespace

TEST(CliHelp, EveryFlagTheParserAcceptsHasAHelpLine) {
  const std::string help = help_text();
  for (const kl::cli::CommandSpec& c : kl::cli::command_specs()) {
    EXPECT_FALSE(command_line_of(help, c.name).empty()) << c.name;
    for (const kl::cli::FlagSpec& f : c.flags) {
      EXPECT_FALSE(f.help.empty()) << c.name << " --" << f.name << " has no help text";
      EXPECT_TRUE(help_lists_flag(help, f.name)) << c.name << " --" << f.name;
    }
  }
}

// Each family's line under run names exactly the flags its runner takes.
TEST(CliHelp, RunListsTheFlagsOfEachFamily) {
  const std::string help = help_text();
  const std::size_t section = help.find("the flags each family takes:");
  ASSERT_NE(section, std::string::npos);
  for (const kl::Family* f : kl::families()) {
    const std::size_t newline = help.find("\n        " + f->name + ":", section);
    ASSERT_NE(newline, std::string::npos) << f->name;
    const std::size_t at = newline + 1;
    const std::string line = help.substr(at, help.find('\n', at) - at);
    std::size_t named = 0;
    for (std::size_t p = line.find("--"); p != std::string::npos; p = line.find("--", p + 2)) ++named;
    EXPECT_EQ(named, f->run_flags.size()) << line;
    for (const kl::cli::FlagSpec& flag : f->run_flags) {
      EXPECT_NE(line.find("--" + flag.name), std::string::npos) << line;
      // and its own help line below, with what the flag means in this family
      EXPECT_FALSE(flag.help.empty()) << f->name << " --" << flag.name;
      EXPECT_NE(help.find(flag.help, at), std::string::npos) << f->name << " --" << flag.name;
    }
  }
}

TEST(CliHelp, SaysWhichCommandsNeedAGpu) {
  const std::string help = help_text();
  for (const char* gpu : {"info", "run", "coords", "bench", "sanitize", "expect", "repro"})
    EXPECT_NE(command_line_of(help, gpu).find("needs a GPU"), std::string::npos) << command_line_of(help, gpu);
  for (const char* host : {"list", "help"})
    EXPECT_EQ(command_line_of(help, host).find("needs"), std::string::npos) << command_line_of(help, host);
  EXPECT_NE(command_line_of(help, "expect").find("compute-sanitizer"), std::string::npos);
}

// Every flag of every `kernel-lab <command> ...` example in the README is accepted by that
// command and listed in help. KL_README is set by tests/CMakeLists.txt.
TEST(CliHelp, ListsEveryFlagTheReadmeUses) {
  const char* path = std::getenv("KL_README");
  ASSERT_NE(path, nullptr) << "set KL_README to the repository's README.md";
  std::ifstream readme(path);
  ASSERT_TRUE(readme) << path;
  const std::string help = help_text();
  const std::string flag = R"(--([a-z][a-z0-9-]*))";
  std::size_t flags_seen = 0;
  for (std::string line; std::getline(readme, line);) {
    const std::size_t at = line.find("kernel-lab ");
    if (at == std::string::npos) continue;
    std::istringstream words(line.substr(at + 11));
    std::string command;
    words >> command;
    const kl::cli::CommandSpec* spec = nullptr;
    for (const kl::cli::CommandSpec& c : kl::cli::command_specs())
      if (c.name == command) spec = &c;
    if (spec == nullptr) continue;  // prose such as "kernel-lab at both commits"
    const std::string rest = line.substr(at);
    for (const std::string& name : kl::test::all_matches(rest, flag, 1)) {
      ++flags_seen;
      EXPECT_NE(spec->flag(name), nullptr) << "README: kernel-lab " << command << " --" << name << ": " << line;
      EXPECT_TRUE(help_lists_flag(help, name)) << "help omits --" << name << " (README: " << line << ")";
    }
  }
  EXPECT_GE(flags_seen, 20u) << "the README's kernel-lab examples were not found in " << path;
}

// ---- expect: the verdict on a planted finding, from the captured run under the tool.

namespace {

using kl::cli::Captured;
using kl::cli::FindingCheck;

const FindingCheck fix_check{"memcheck", "memcheck-add-unguarded", "elementwise.add_unguarded", "elementwise.add",
                             "Invalid __global__ read of size 4", true};
FindingCheck planted_check() {
  FindingCheck c = fix_check;
  c.target = c.planted;
  c.against_fix = false;
  return c;
}

// What compute-sanitizer and the run it wraps print: the banner, the run's lines, `tool_lines`
// (findings), the run's stated status (none if `status` < 0) and the summary.
Captured under_tool(int tool_exit, int status, const std::string& run_lines, const std::string& tool_lines = "",
                    const std::string& summary = "========= ERROR SUMMARY: 0 errors\n") {
  std::string out = "========= COMPUTE-SANITIZER\n" + run_lines + tool_lines;
  if (status >= 0) out += kl::cli::exit_status_line(status) + "\n";
  return {tool_exit, out + summary};
}

}  // namespace

// A KL_COMPUTE_SANITIZER that names no program (here a directory) is named in the refusal, exit 2:
// "not found (looked at $KL_COMPUTE_SANITIZER, ...)" would send the user looking on $PATH.
TEST(CliSanitize, AKlComputeSanitizerThatIsNoProgramIsNamed) {
  const std::string dir = testing::TempDir();
  const kl::test::ScopedEnv env("KL_COMPUTE_SANITIZER", dir.c_str());
  const Outcome o = run({"sanitize", "--tool", "memcheck", "--", "true"});
  EXPECT_EQ(o.code, 2) << o.err;
  EXPECT_NE(o.err.find("KL_COMPUTE_SANITIZER is set to '" + dir + "', which is not an executable file"), std::string::npos)
      << o.err;
}

TEST(CliExpect, FixIsProvenOnlyByAPassingRunTheToolFoundClean) {
  const kl::cli::Judgement ok = kl::cli::judge_finding(fix_check, under_tool(0, 0, "check: PASS (...)\n"));
  EXPECT_EQ(ok.exit_code, 0) << ok.message;
  EXPECT_NE(ok.message.find("checker can fail: memcheck stayed silent on elementwise.add"), std::string::npos);
}

TEST(CliExpect, FixWhoseRunDidNotSucceedIsNotProven) {
  struct Case {
    Captured run;
    int code;
    const char* why;
  };
  const Case cases[] = {
      {under_tool(2, 2, "kernel-lab: no usable CUDA GPU\n"), 2,
       "elementwise.add exited 2: refused before its kernel ran"},
      {under_tool(1, 1, "check: FAIL (...)\n"), 1, "elementwise.add exited 1: its check or CUDA failed"},
      // The real tool returns --error-exitcode once it counts the failing run as an error.
      {under_tool(86, 1, "check: FAIL (...)\n", "========= Target application returned an error\n",
                  "========= ERROR SUMMARY: 1 error\n"),
       1, "elementwise.add exited 1"},
      {under_tool(0, 1, "check: FAIL (...)\n"), 1, "elementwise.add exited 1"},
      {under_tool(139, -1, "check: PASS (...)\n"), 1, "stated no exit status: it crashed or was killed"},
  };
  for (const Case& c : cases) {
    const kl::cli::Judgement j = kl::cli::judge_finding(fix_check, c.run);
    EXPECT_EQ(j.exit_code, c.code) << j.message;
    EXPECT_NE(j.message.find("NOT PROVEN: the fix's run did not succeed"), std::string::npos) << j.message;
    EXPECT_NE(j.message.find(c.why), std::string::npos) << j.message;
    EXPECT_EQ(j.message.find("checker can fail"), std::string::npos) << j.message;  // the ctest pass regex
  }
}

TEST(CliExpect, FixTheToolReportsOnOrDoesNotSummariseIsNotProven) {
  const Captured reported = under_tool(86, 0, "check: PASS\n", "========= Invalid __global__ read of size 4 bytes\n",
                                       "========= ERROR SUMMARY: 1 error\n");
  const Captured no_summary = under_tool(0, 0, "check: PASS\n", "", "");
  const Captured tool_failed = under_tool(3, 0, "check: PASS\n");
  EXPECT_NE(kl::cli::judge_finding(fix_check, reported).message.find("NOT CLEAN"), std::string::npos);
  EXPECT_NE(kl::cli::judge_finding(fix_check, no_summary).message.find("no error summary"), std::string::npos);
  EXPECT_NE(kl::cli::judge_finding(fix_check, tool_failed).message.find("memcheck exited 3"), std::string::npos);
  for (const Captured& run : {reported, no_summary, tool_failed})
    EXPECT_EQ(kl::cli::judge_finding(fix_check, run).exit_code, 1) << run.output;
}

// A planted bug may make its own run fail: the tool's report of the pattern is what counts.
TEST(CliExpect, PlantedFindingPassesOnTheToolsReportEvenIfItsRunFailed) {
  const Captured run = under_tool(86, 1, "kernel-lab: CUDA error: unspecified launch failure\n",
                                  "========= Invalid __global__ read of size 4 bytes\n",
                                  "========= ERROR SUMMARY: 24 errors\n");
  const kl::cli::Judgement j = kl::cli::judge_finding(planted_check(), run);
  EXPECT_EQ(j.exit_code, 0) << j.message;
  EXPECT_NE(j.message.find("expected finding reproduced"), std::string::npos) << j.message;
}

// The lost run seen on a shared H200 (sanitizer.hpp, run_lost): the kernel ended in a launch
// failure and each error the tool counted is a CUDA call's.
const std::string launch_failure_calls =
    "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call "
    "to cudaDeviceSynchronize.\n"
    "========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" on CUDA API call "
    "to cudaFree.\n";

TEST(CliExpect, ALostPlantedRunIsSaidAndMarked) {
  const Captured run = under_tool(86, 1, "kernel-lab: CUDA error: unspecified launch failure\n", launch_failure_calls,
                                  "========= ERROR SUMMARY: 2 errors\n");
  const kl::cli::Judgement j = kl::cli::judge_finding(planted_check(), run);
  EXPECT_EQ(j.exit_code, 1) << j.message;
  EXPECT_TRUE(j.run_lost) << j.message;
  EXPECT_NE(j.message.find("LOST: memcheck stayed silent on elementwise.add_unguarded (checking "
                           "memcheck-add-unguarded), but its kernel ended in cudaErrorLaunchFailure and each of the 2 "
                           "error(s) memcheck counted is a CUDA call's, none the kernel's"),
            std::string::npos)
      << j.message;
}

// Not lost: the tool counted an error of the kernel's beside the calls' (a planted bug the tool
// saw, only not as the finding's pattern), or the failure was another error than a launch failure,
// or the tool printed no summary to count against.
TEST(CliExpect, ARunIsLostOnlyIfEveryCountedErrorIsALaunchFailuresCall) {
  const std::string failed = "kernel-lab: CUDA error: unspecified launch failure\n";
  const std::vector<Captured> not_lost = {
      under_tool(86, 1, failed, "========= Invalid __shared__ write of size 4 bytes\n" + launch_failure_calls,
                 "========= ERROR SUMMARY: 3 errors\n"),
      under_tool(86, 1, "kernel-lab: CUDA error: too many blocks in cooperative launch\n",
                 "========= Program hit cudaErrorCooperativeLaunchTooLarge (error 720) on CUDA API call to "
                 "cudaLaunchCooperativeKernel.\n",
                 "========= ERROR SUMMARY: 1 error\n"),
      under_tool(86, 1, failed, launch_failure_calls, ""),
  };
  for (const Captured& run : not_lost) {
    const kl::cli::Judgement j = kl::cli::judge_finding(planted_check(), run);
    EXPECT_EQ(j.exit_code, 1) << run.output;
    EXPECT_FALSE(j.run_lost) << run.output;
    EXPECT_NE(j.message.find("MISSED: memcheck stayed silent"), std::string::npos) << j.message;
  }
}

// The fix's check runs once: a launch failure in the fix's run may be the fix's own bug.
TEST(CliExpect, AFixsLostRunIsNotRunAgain) {
  const Captured run = under_tool(86, 1, "kernel-lab: CUDA error: unspecified launch failure\n", launch_failure_calls,
                                  "========= ERROR SUMMARY: 2 errors\n");
  const kl::cli::Judgement j = kl::cli::judge_finding(fix_check, run);
  EXPECT_EQ(j.exit_code, 1) << j.message;
  EXPECT_FALSE(j.run_lost) << j.message;
  EXPECT_NE(j.message.find("NOT PROVEN: the fix's run did not succeed"), std::string::npos) << j.message;
}

TEST(CliExpect, SilenceOnARefusedPlantedRunIsNoVerdictNotAMiss) {
  const kl::cli::Judgement refused = kl::cli::judge_finding(planted_check(), under_tool(2, 2, "kernel-lab: bad\n"));
  EXPECT_EQ(refused.exit_code, 2) << refused.message;
  EXPECT_NE(refused.message.find("NO VERDICT"), std::string::npos) << refused.message;
  const kl::cli::Judgement missed = kl::cli::judge_finding(planted_check(), under_tool(0, 0, "check: PASS\n"));
  EXPECT_EQ(missed.exit_code, 1) << missed.message;
  EXPECT_NE(missed.message.find("MISSED: memcheck stayed silent"), std::string::npos) << missed.message;
}

// Only the tool's own lines count: the application printing the pattern or a clean summary
// proves nothing.
TEST(CliExpect, OnlyTheToolsOwnLinesCount) {
  const kl::cli::ToolReport app_only = kl::cli::read_tool_report(
      "Invalid __global__ read of size 4\nERROR SUMMARY: 0 errors\nCOMPUTE-SANITIZER\n", "Invalid __global__ read");
  EXPECT_FALSE(app_only.tool_ran);
  EXPECT_FALSE(app_only.pattern_found);
  EXPECT_EQ(app_only.error_count, -1);
  const kl::cli::ToolReport both = kl::cli::read_tool_report(
      "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)\n"
      "========= ERROR SUMMARY: 1 error\n",
      "Race reported between");
  EXPECT_TRUE(both.tool_ran);
  EXPECT_EQ(both.error_count, 3);  // every summary counts: 0 only if all say 0
}

// A tool line of 50,000 characters overflowed std::regex's recursion (a crash): a line is matched
// by its first matched_line_chars characters, so it is read, and a finding past them is not seen.
TEST(CliExpect, AVeryLongToolLineIsReadNotFatal) {
  const std::string long_line = "========= " + std::string(50'000, 'a') + "\n";
  const kl::cli::ToolReport report =
      kl::cli::read_tool_report("========= COMPUTE-SANITIZER\n" + long_line + "========= ERROR SUMMARY: 0 errors\n", "(a|b)*c");
  EXPECT_TRUE(report.tool_ran);
  EXPECT_FALSE(report.pattern_found);
  EXPECT_EQ(report.error_count, 0);
  const std::string early = "========= Invalid __global__ write" + std::string(50'000, ' ') + "\n";
  EXPECT_TRUE(kl::cli::read_tool_report(early, "Invalid __global__ write").pattern_found);
}

// An exclusion's proof (`sanitize --expect-report`): the lines are compute-sanitizer 2025.3.1's
// on the H100, on the suites the lab leaves out of a tool.
TEST(CliExclusion, EarnedWhileTheToolStillReportsIt) {
  const Captured cdp{86, "========= COMPUTE-SANITIZER\n[  PASSED  ] 7 tests.\n"
                         "========= Warning: CUDA Dynamic Parallelism is not supported by the selected tool\n"
                         "========= ERROR SUMMARY: 1 error\n"};
  const kl::cli::Judgement j =
      kl::cli::judge_exclusion("initcheck", "Dynamic Parallelism is not supported", "qs --gtest_filter=*", cdp);
  EXPECT_EQ(j.exit_code, 0) << j.message;
  EXPECT_NE(j.message.find("exclusion earned: initcheck still reports /Dynamic Parallelism is not supported/ on "
                           "qs --gtest_filter=* (1 error(s) in its summary)"),
            std::string::npos)
      << j.message;
}

TEST(CliExclusion, OnceTheToolIsSilentTheExclusionCanGo) {
  const Captured clean{0, "========= COMPUTE-SANITIZER\n[  PASSED  ] 3 tests.\n"
                          "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"};
  // Another finding than the one that earned the exclusion does not keep it either.
  const Captured other{86, "========= COMPUTE-SANITIZER\n========= Invalid __global__ read of size 4 bytes\n"
                           "========= ERROR SUMMARY: 1 error\n"};
  // The application printing the message is not the tool reporting it.
  const Captured app{0, "========= COMPUTE-SANITIZER\nRace reported between Read access\n"
                        "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"};
  for (const Captured& run : {clean, other, app}) {
    const kl::cli::Judgement j = kl::cli::judge_exclusion("racecheck", "Race reported between", "sync", run);
    EXPECT_EQ(j.exit_code, 1) << run.output;
    EXPECT_NE(j.message.find("EXCLUSION NO LONGER EARNED: racecheck did not report /Race reported between/ on sync"),
              std::string::npos)
        << j.message;
    EXPECT_NE(j.message.find("drop the exclusion"), std::string::npos) << j.message;
  }
}

// A lost run (a launch failure, only the calls' errors counted) neither earns the exclusion nor
// ends it: it is marked to be run again.
TEST(CliExclusion, ALostRunIsNoProof) {
  const Captured lost{86, "========= COMPUTE-SANITIZER\n" + launch_failure_calls +
                              "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n"
                              "========= ERROR SUMMARY: 2 errors\n"};
  const kl::cli::Judgement j = kl::cli::judge_exclusion("racecheck", "Race reported between", "sync", lost);
  EXPECT_EQ(j.exit_code, 1) << j.message;
  EXPECT_TRUE(j.run_lost) << j.message;
  EXPECT_NE(j.message.find("LOST: racecheck did not report /Race reported between/ on sync, but a kernel ended in "
                           "cudaErrorLaunchFailure and each of the 2 error(s) in its summary is a CUDA call's"),
            std::string::npos)
      << j.message;
  EXPECT_EQ(j.message.find("drop the exclusion"), std::string::npos) << j.message;
}

TEST(CliExclusion, NoToolNoVerdict) {
  const kl::cli::Judgement j =
      kl::cli::judge_exclusion("memcheck", "x", "prog", Captured{127, "sh: compute-sanitizer: not found\n"});
  EXPECT_EQ(j.exit_code, 2) << j.message;
  EXPECT_NE(j.message.find("memcheck did not run (exit 127): no verdict"), std::string::npos) << j.message;
}

TEST(CliExclusion, ThePatternMustBeARegularExpression) {
  expect_usage_error({"sanitize", "--tool", "racecheck", "--expect-report", "Race (", "--", "true"},
                     "--expect-report 'Race (' is not a regular expression");
}

TEST(CliExpect, TheRunStatesItsExitStatusLastWhenAsked) {
  EXPECT_EQ(kl::cli::stated_exit_status("kernel-lab: exit status 1\nx\nkernel-lab: exit status 0\n"), 0);
  EXPECT_EQ(kl::cli::stated_exit_status("kernel-lab: exit status 1x\n"), std::nullopt);
  EXPECT_EQ(kl::cli::stated_exit_status("check: PASS\n"), std::nullopt);

  ASSERT_EQ(::setenv(kl::cli::exit_status_variable, "1", 1), 0);
  const Outcome refused = run({"run", "elementwise.add", "--n", "abc"});
  const Outcome listed = run({"list"});
  ::unsetenv(kl::cli::exit_status_variable);
  EXPECT_EQ(refused.code, 2);
  EXPECT_EQ(kl::cli::stated_exit_status(refused.err), 2) << refused.err;
  EXPECT_EQ(kl::cli::stated_exit_status(listed.err), 0) << listed.err;
  EXPECT_EQ(kl::cli::stated_exit_status(run({"list"}).err), std::nullopt);  // not asked: not printed
}

TEST(CliParse, IntegersAsPowers) {
  EXPECT_EQ(kl::cli::parse_integer("n", "2^28", 0, std::int64_t{1} << 40), 268435456);
  EXPECT_EQ(kl::cli::parse_integer("n", "10^9", 0, std::int64_t{1} << 40), 1000000000);
  EXPECT_EQ(kl::cli::parse_integer("n", "2^0", 0, 10), 1);
  // Bases whose powers never overflow answer at once, however large the exponent.
  EXPECT_EQ(kl::cli::parse_integer("n", "1^9999999999999", 0, 10), 1);
  EXPECT_EQ(kl::cli::parse_integer("n", "0^9999999999999", 0, 10), 0);
  EXPECT_EQ(kl::cli::parse_integer("n", "-1^9999999999999", -10, 10), -1);
  const auto args = kl::cli::parse({"run", "reduction.cub_sum", "--n", "2^28"}, kl::cli::command_specs());
  EXPECT_EQ(args.integer("n", 0, 0, std::int64_t{1} << 40), 268435456);
  auto message = [](const std::string& text, std::int64_t hi) {
    try {
      kl::cli::parse_integer("n", text, 0, hi);
    } catch (const kl::cli::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("2^20", 1000), "--n must be in [0, 1000], got 2^20");
  EXPECT_NE(message("2^64", 1000).find("(beyond 64 bits)"), std::string::npos);
  for (const char* bad : {"2^", "^3", "2^-1", "2^^3", "2 ^3", "2^3x"})
    EXPECT_NE(message(bad, 1000).find("--n expects an integer in [0, 1000] (digits, or B^E such as 2^28)"),
              std::string::npos)
        << bad;
  // Ends that are powers of two from 2^20 up read as the parser takes them; others in digits.
  EXPECT_EQ(message("2^41", std::int64_t{1} << 40), "--n must be in [0, 2^40], got 2^41");
  EXPECT_EQ(message("1048577", (std::int64_t{1} << 20)), "--n must be in [0, 2^20], got 1048577");
  EXPECT_EQ(message("524289", (std::int64_t{1} << 19)), "--n must be in [0, 524288], got 524289");
  EXPECT_EQ(message("2000001", 2000000), "--n must be in [0, 2000000], got 2000001");
  try {
    kl::cli::parse_integer("m", "abc", -(std::int64_t{1} << 40), std::int64_t{1} << 40);
    ADD_FAILURE() << "'abc' accepted";
  } catch (const kl::cli::UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--m expects an integer in [-2^40, 2^40] (digits, or B^E such as 2^28), got 'abc'");
  }
  EXPECT_NE(message("2^63", INT64_MAX).find("[0, 9223372036854775807]"), std::string::npos);
}

// --help / -h after any command prints that command's usage and runs nothing (exit 0);
// `help COMMAND` prints the same; --version names the version and the commit.
TEST(CliHelp, EveryCommandTakesHelp) {
  for (const kl::cli::CommandSpec& c : kl::cli::command_specs()) {
    for (const char* flag : {"--help", "-h"}) {
      const Outcome o = run({c.name, flag});
      EXPECT_EQ(o.code, 0) << c.name << " " << flag << ": " << o.err;
      EXPECT_NE(o.out.find("\n  " + c.name), std::string::npos) << c.name << " " << flag << ":\n" << o.out;
      EXPECT_EQ(o.out, run({"help", c.name}).out) << c.name;
    }
  }
  // Whatever else the line holds: a GPU command with --help neither runs nor needs a GPU.
  const Outcome o = run({"run", "elementwise.add", "--n", "5", "--help"});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\n  run <family.variant> [flags]"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("\n  bench [flags]"), std::string::npos) << "only run's part:\n" << o.out;
  expect_usage_error({"help", "nosuch"}, "unknown command 'nosuch'");
}

TEST(CliHelp, VersionNamesTheCommit) {
  const Outcome o = run({"--version"});
  EXPECT_EQ(o.code, 0);
  EXPECT_TRUE(kl::test::full_match(o.out, R"(kernel-lab \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(-dirty)?|unknown)\)\n)"))
      << o.out;
  // Anything after --version is refused, not ignored; --help CMD (-h CMD) is help CMD, and takes
  // nothing more.
  expect_usage_error({"--version", "extra"}, "--version takes nothing after it, got 'extra'");
  const Outcome help_run = run({"--help", "run"});
  EXPECT_EQ(help_run.code, 0) << help_run.err;
  EXPECT_EQ(help_run.out, run({"help", "run"}).out);
  expect_usage_error({"-h", "nosuch"}, "unknown command 'nosuch'");
  expect_usage_error({"-h", "run", "-x"}, "-h takes at most a command after it (-h CMD is help CMD), got '-x'");
}

// `kernel-lab gates FILE` refuses a gate naming a result no bench case produces (exit 2, the line
// and the key named) and accepts bench/gates.conf (KL_GATES_FILE, set by tests/CMakeLists.txt).
TEST(CliGates, KeysNoBenchCaseProducesAreRefused) {
  const std::string path = testing::TempDir() + "kl_gates_typo.conf";
  std::ofstream(path) << "[default]\nmin_ratio elementwise.add >= 0.3\norder matmul.naive >= 2 x matmul.nosuch\n";
  const Outcome bad = run({"gates", path});
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("kl_gates_typo.conf:3: order(matmul.naive / matmul.nosuch) names matmul.nosuch"),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(bad.err.find("elementwise.add,"), std::string::npos) << bad.err;
  const char* gates = std::getenv("KL_GATES_FILE");
  ASSERT_NE(gates, nullptr) << "set KL_GATES_FILE to bench/gates.conf";
  const Outcome good = run({"gates", gates});
  EXPECT_EQ(good.code, 0) << good.err;
  EXPECT_NE(good.out.find("every key a result the bench produces"), std::string::npos) << good.out;
}

// tune --write reads and checks its tuning file before the minutes of timing (and before looking
// for a GPU): a missing path, a directory, or a file the build would not read is refused first.
TEST(CliTune, TheFileToWriteIsCheckedFirst) {
  expect_usage_error({"tune", "matmul.tuned", "--write", "/nonexistent/sgemm_tuning.conf"},
                     "cannot read --write's tuning file '/nonexistent/sgemm_tuning.conf'");
  expect_usage_error({"tune", "matmul.tuned", "--write", testing::TempDir()}, "is not a regular file");
  const std::string garbage = testing::TempDir() + "kl_tuning_garbage.conf";
  std::ofstream(garbage) << "this is not a tuning line\n";
  expect_usage_error({"tune", "matmul.tuned", "--write", garbage}, "--write: " + garbage + ": ");
}

// A gates file without a gate (empty, or cut to its comment header) gates nothing: refused. A key
// that only `bench --sweep` produces is a result the bench produces: accepted.
TEST(CliGates, AnEmptyFileIsRefusedAndSweptKeysAreKnown) {
  const std::string empty = testing::TempDir() + "kl_gates_empty.conf";
  std::ofstream(empty) << "# the header of a gates file, and nothing else\n[default]\n";
  const Outcome none = run({"gates", empty});
  EXPECT_EQ(none.code, 2) << none.err;
  EXPECT_NE(none.err.find("kl_gates_empty.conf: no gates in the file"), std::string::npos) << none.err;
  expect_usage_error({"bench", "--gates", empty}, "no gates in the file");
  const std::string swept = testing::TempDir() + "kl_gates_swept.conf";
  std::ofstream(swept) << "[default]\nmin_ratio reduction.warp_shuffle.float.n1m >= 0.1\n";
  const Outcome known = run({"gates", swept});
  EXPECT_EQ(known.code, 0) << known.err;
}

// `report` draws a bench's JSON again: it needs the file and at least one output, and a file
// that is not a bench report is bad input naming what is wrong.
TEST(CliReport, RefusesWhatItCannotDraw) {
  expect_usage_error({"report"}, "'report' needs the JSON a bench wrote");
  expect_usage_error({"report", "x.json"}, "'report' needs at least one of --html, --svg, --markdown, --tsv, --json");
  expect_usage_error({"report", "x.json", "--html", "/no/such/dir/r.html"}, "--html: cannot write '/no/such/dir/r.html'");
  const std::string page = (std::filesystem::temp_directory_path() / "kl-cli-report-test.html").string();
  const Outcome missing = run({"report", "/no/such/bench.json", "--html", page});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("cannot read bench report '/no/such/bench.json': no such file"), std::string::npos) << missing.err;
}

// Reports name a file by its path in the repository that holds it, not the runner's absolute
// path (a gates file in bench/ reads "bench/gates.conf" on every machine).
TEST(CliReport, FilesAreNamedByTheirPathInTheRepository) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "kl-cli-repository-path";
  fs::remove_all(root);
  fs::create_directories(root / "repo" / ".git");
  fs::create_directories(root / "repo" / "bench");
  fs::create_directories(root / "loose");
  std::ofstream(root / "repo" / "bench" / "gates.conf") << "[default]\n";
  std::ofstream(root / "loose" / "gates.conf") << "[default]\n";
  EXPECT_EQ(kl::cli::repository_path((root / "repo" / "bench" / "gates.conf").string()), "bench/gates.conf");
  EXPECT_EQ(kl::cli::repository_path((root / "repo" / "bench" / ".." / "bench" / "gates.conf").string()),
            "bench/gates.conf");
  const std::string loose = (root / "loose" / "gates.conf").string();
  EXPECT_EQ(kl::cli::repository_path(loose), loose);
  fs::remove_all(root);
}
