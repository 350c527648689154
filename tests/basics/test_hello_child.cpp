// hello prints from the device, so its output is only visible on the process's stdout: run
// `kernel-lab run basics.hello` as a child and check one line per (block, thread) pair.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <utility>

namespace {

struct ChildRun {
  std::string output;
  int status = -1;
};

ChildRun run_child(const std::string& command) {
  ChildRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) run.output += buffer;
  run.status = pclose(pipe);
  return run;
}

void expect_one_line_per_thread(int blocks, int threads) {
  // --n is threads in all (blocks x threads), --block the threads of a block.
  const ChildRun run = run_child(std::string(KL_KERNEL_LAB_EXE) + " run basics.hello --n " +
                                 std::to_string(blocks * threads) + " --block " + std::to_string(threads));
  ASSERT_EQ(run.status, 0) << run.output;
  const std::regex line(R"(^block id: (\d+), thread id: (\d+)$)");
  std::set<std::pair<int, int>> pairs;
  std::size_t lines = 0;
  std::size_t start = 0;
  while (start < run.output.size()) {
    const std::size_t end = run.output.find('\n', start);
    const std::string text = run.output.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? run.output.size() : end + 1;
    std::smatch m;
    if (!std::regex_match(text, m, line)) continue;
    ++lines;
    const int b = std::stoi(m[1]), t = std::stoi(m[2]);
    EXPECT_LT(b, blocks) << text;
    EXPECT_LT(t, threads) << text;
    pairs.insert({b, t});
  }
  EXPECT_EQ(lines, static_cast<std::size_t>(blocks) * threads) << run.output;
  EXPECT_EQ(pairs.size(), static_cast<std::size_t>(blocks) * threads) << "a (block, thread) pair repeated:\n"
                                                                       << run.output;
}

}  // namespace

// Seed 004: BLOCKS = 2, THREADS = 4 prints 8 lines, each pair once.
TEST(BasicsHello, SeedLaunchTwoBlocksOfFourPrintsEightUniqueLines) { expect_one_line_per_thread(2, 4); }

// Whole warps and a partial one: lines of one warp must not interleave.
TEST(BasicsHello, ThreeBlocksOf70PrintOneWholeLinePerThread) { expect_one_line_per_thread(3, 70); }

TEST(BasicsHello, RefusesMoreLinesThanThePrintfBufferHolds) {
  const ChildRun run = run_child(std::string(KL_KERNEL_LAB_EXE) + " run basics.hello --n 102400 --block 1024 2>&1");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("basics.hello: blocks must be >= 1 and blocks * threads <= 4096"), std::string::npos)
      << run.output;
}
