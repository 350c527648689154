// The tuning file of matmul.tuned (kernels/matmul/sgemm_tuning.conf), host only: the shipped file
// parses against the compiled candidates, lines pick per GPU model and class of shapes with the
// GPU's every-shape line and then the default as fallbacks, bad lines are refused naming the
// rule, and `tune --write` rewrites exactly one line.
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
  for (const tuning::Choice& c : choices)
    EXPECT_EQ(tuning::config_for(choices, c.gpu.empty() ? "x" : c.gpu, c.shape), c.gpu.empty() ? fallback : c.config);
}

TEST(SgemmTuning, GpuLineWinsOverDefault) {
  const auto choices = tuning::parse("# comment\ndefault a\ngpu NVIDIA H100 80GB HBM3 = b  # fastest\n", known);
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H100 80GB HBM3"), "b");
  EXPECT_EQ(tuning::config_for(choices, "NVIDIA H200"), "a");
}

TEST(SgemmTuning, AClassLineWinsForItsShapesOnly) {
  const auto choices = tuning::parse("default a\ngpu H = b\ngpu H [large] = c\ngpu G [small] = c\n", known);
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::large), "c");
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::small), "b");  // H's every-shape line
  EXPECT_EQ(tuning::config_for(choices, "H", tuning::ShapeClass::any), "b");
  EXPECT_EQ(tuning::config_for(choices, "G", tuning::ShapeClass::small), "c");
  EXPECT_EQ(tuning::config_for(choices, "G", tuning::ShapeClass::large), "a");  // no G line for it: the default
  EXPECT_EQ(tuning::config_for(choices, "K", tuning::ShapeClass::large), "a");
}

TEST(SgemmTuning, ShapeClassesFollowCsSize) {
  using tuning::ShapeClass;
  EXPECT_EQ(tuning::shape_class_of(1, 1), ShapeClass::small);
  EXPECT_EQ(tuning::shape_class_of(1024, 1024), ShapeClass::small);
  EXPECT_EQ(tuning::shape_class_of(1024, 1025), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8192, 1024), ShapeClass::any);  // the skinny sweep shapes
  EXPECT_EQ(tuning::shape_class_of(4096, 4096), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8191, 8192), ShapeClass::any);
  EXPECT_EQ(tuning::shape_class_of(8192, 8192), ShapeClass::large);
  EXPECT_EQ(tuning::shape_class_of(65536, 1024), ShapeClass::large);
  EXPECT_EQ(tuning::name_of(ShapeClass::large), "large");
  EXPECT_EQ(tuning::name_of(ShapeClass::any), "");
}

// The shipped file's H100 line (sgemm_tuning.conf quotes its measurements): one configuration for
// every shape, the sweep's 1024^3 and 8192^3 included (the interleaved FMA order won at every
// shape class, 2026-11-27), and not the default's.
TEST(SgemmTuning, ShippedFileGivesTheH100OneLineForEveryShape) {
  const std::vector<tuning::Choice> choices = tuning::parse(tuning_file_text(), tuned_config_names());
  const std::string h100 = "NVIDIA H100 80GB HBM3";
  const std::string every_shape = tuning::config_for(choices, h100, tuning::ShapeClass::any);
  EXPECT_NE(every_shape, tuning::config_for(choices, "no such GPU")) << "the H100 has a line of its own";
  EXPECT_EQ(tuning::config_for(choices, h100, tuning::shape_class_of(1024, 1024)), every_shape);
  EXPECT_EQ(tuning::config_for(choices, h100, tuning::shape_class_of(4096, 4096)), every_shape);
  EXPECT_EQ(tuning::config_for(choices, h100, tuning::shape_class_of(8192, 8192)), every_shape);
}

TEST(SgemmTuning, BadLinesNameTheRule) {
  EXPECT_NE(error_of("gpu X = a\n").find("no 'default CONFIG' line"), std::string::npos);
  EXPECT_NE(error_of("default z\n").find("unknown config 'z' (known: a, b, c)"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X a\n").find("line 2 'gpu X a': expected 'gpu NAME = CONFIG'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [huge] = a\n").find("unknown shape class '[huge]' (known: [small]"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [] = a\n").find("unknown shape class '[]'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [large = a\n").find("unknown shape class '[large'"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [large] = a\ngpu X [large] = b\n").find("a second line for this GPU and shape class"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu [large] = a\n").find("the GPU name is empty"), std::string::npos);
  EXPECT_EQ(error_of("default a\ngpu X = a\ngpu X [large] = b\ngpu X [small] = c\n"), "");
  EXPECT_NE(error_of("default a\nfastest a\n").find("expected 'default CONFIG', 'gpu NAME = CONFIG' or 'gpu NAME [CLASS] = CONFIG'"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X [small] [large] = a\n").find("unknown shape class '[small] [large]'"),
            std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X ] = a\n").find("unknown shape class ']'"), std::string::npos);
  EXPECT_NE(error_of("default a\ndefault b\n").find("a second default line"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu X = a\ngpu X = b\n").find("a second line for this GPU"), std::string::npos);
  EXPECT_NE(error_of("default a\ngpu  = a\n").find("the GPU name is empty"), std::string::npos);
  EXPECT_EQ(error_of("default a\ngpu X = b\n"), "");
}

TEST(SgemmTuning, WithChoiceReplacesOrAddsOneLine) {
  const std::string text = "# head\ndefault a\ngpu X = b\ngpu Y = c\n";
  EXPECT_EQ(tuning::with_choice(text, "X", tuning::ShapeClass::any, "c"), "# head\ndefault a\ngpu X = c\ngpu Y = c\n");
  EXPECT_EQ(tuning::with_choice(text, "Z", tuning::ShapeClass::any, "a"), text + "gpu Z = a\n");
  // A class line is its own line: added beside the GPU's every-shape line, then replaced alone.
  const std::string with_large = tuning::with_choice(text, "X", tuning::ShapeClass::large, "a");
  EXPECT_EQ(with_large, text + "gpu X [large] = a\n");
  EXPECT_EQ(tuning::with_choice(with_large, "X", tuning::ShapeClass::large, "c"), text + "gpu X [large] = c\n");
  EXPECT_EQ(tuning::with_choice(with_large, "X", tuning::ShapeClass::any, "a"),
            "# head\ndefault a\ngpu X = a\ngpu Y = c\ngpu X [large] = a\n");
}
