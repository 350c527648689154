// The CLI's parsing and its errors, in-process. None of these needs a GPU: every bad input is
// rejected before CUDA is touched.
#include "cli.hpp"
#include "kl/registry.hpp"

#include <gtest/gtest.h>

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
  expect_usage_error({"run", "basics.atomic_counter", "--blocks", "2097152", "--threads", "1024"},
                     "blocks * threads must be at most 2^31-1");
}

TEST(CliErrors, FlagsOfAnotherFamily) {
  expect_usage_error({"run", "elementwise.add", "--width", "4"}, "flag --width does not apply to 'run elementwise.add'");
  expect_usage_error({"run", "dispatch.record_thread_coords_guarded", "--n", "4"}, "flag --n does not apply");
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
