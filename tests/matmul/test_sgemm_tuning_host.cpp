// The tuning file of matmul.tuned (kernels/matmul/sgemm_tuning.conf), host only: the shipped file
// parses against the compiled candidates, lines pick per GPU model with the default as fallback,
// bad lines are refused naming the rule, and `tune --write` rewrites exactly one line.
#include "kl/matmul.hpp"
#include "kl/sgemm_tuning.hpp"

#include <gtest/gtest.h>

using namespace kl::matmul;

namespace {

const std::vector<std::string> known = {"a", "b", "c"};

std::string error_of(const std::string& text) {
  try {
    tuning::parse(text, known);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SgemmTuning, ShippedFileNamesCompiledCandidates) {
  const std::vector<tuning::Choice> choices = tuning::parse(tuning_file_text(), tuned_config_names());
  const std::string fallback = tuning::config_for(choices, "some GPU without a line");
  EXPECT_FALSE(fallback.empty());
  for (const tuning::Choice& c : choices) EXPECT_EQ(tuning::config_for(choices, c.gpu.empty() ? "x" : c.gpu),
                                                    c.gpu.empty() ? fallback : c.config);
}

TEST(SgemmTuning, GpuLineWinsOverDefault) {
  const auto choices = tuning::parse("# comment\ndefault a\ngpu NVIDIA H100 80GB HBM3 = b  # fastest\n", known);
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H100 80GB HBM3"), "b");
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H200"), "a");
}

TEST(SgemmTuning, BadLinesNameTheRule) {
  EXPECT_NE(error_of("gpu X = a\n").find("no 'default CONFIG' line"), std::string::npos);
  EXPECT_NE(error_of("default z\n").find("unknown config 'z' (known: a, b, c)"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X a\n").find("line 2 'gpu X a': expected 'gpu NAME = CONFIG'"), std::string::npos);
  EXPECT_NE(error_of("default a\nfastest a\n").find("expected 'default CONFIG' or 'gpu NAME = CONFIG'"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ndefault b\n").find("a second default line"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X = a\ngpu X = b\n").find("a second line for this GPU"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu  = a\n").find("the GPU name is empty"), std::string::npos);
  EXPECT_EQ(error_of("default a\ngpu X = b\n"), "");
}

TEST(SgemmTuning, WithChoiceReplacesOrAddsOneLine) {
  const std::string text = "# head\ndefault a\ngpu X = b\ngpu Y = c\n";
  EXPECT_EQ(tuning::with_choice(text, "X", "c"), "# head\ndefault a\ngpu X = c\ngpu Y = c\n");
  EXPECT_EQ(tuning::with_choice(text, "Z", "a"), text + "gpu Z = a\n");
}
