// The tuning file of matmul.tuned (sgemm_tuning.conf): which candidate configuration each GPU
// model uses, for every shape or for one class of shapes. Host-only, so its parser is tested
// without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kl::matmul::tuning {

// The classes of shapes a GPU's line may name ("gpu NAME [large] = CONFIG"). C's size decides:
// it sets how many blocks a configuration's tiles make for the SMs and how their panels share L2,
// which is where the configurations' ranking changes (on the H100 the bench puts 64x128 tiles in
// the snake order first at 1024^3 and in column order from 2048^3 to 8192^3; sgemm_tuning.conf).
enum class ShapeClass {
  any,    // a line without a class; also the class of the shapes between small and large
  small,  // C has at most 2^20 elements (1024 x 1024)
  large,  // C has at least 2^26 elements (8192 x 8192)
};
ShapeClass shape_class_of(std::int64_t m, std::int64_t n);
// "" for any, else the name written between the brackets.
std::string_view name_of(ShapeClass c);
// What a line for `gpu` and class `shape` names before its '=': "NAME" or "NAME [CLASS]".
std::string line_key(const std::string& gpu, ShapeClass shape);
// The whole line: "gpu NAME [CLASS] = CONFIG".
std::string line_text(const std::string& gpu, ShapeClass shape, const std::string& config);

struct Choice {
  std::string gpu;                    // "" for the default line
  ShapeClass shape = ShapeClass::any;  // the class a gpu line is for
  std::string config;                 // a candidate's name
};

// Parses the file's text; throws std::invalid_argument naming the line and the rule broken
// (unknown keyword, missing '=', a config not among `known`, an unknown shape class, no default
// line, a GPU and class twice).
std::vector<Choice> parse(std::string_view text, const std::vector<std::string>& known);

// The config for `gpu` and a shape of class `shape`: the GPU's line for that class, else its
// line for every shape, else the default.
std::string config_for(const std::vector<Choice>& choices, const std::string& gpu, ShapeClass shape = ShapeClass::any);

// The file's text with the line for `gpu` and `shape` set to `config` (added at the end if absent).
std::string with_choice(std::string_view text, const std::string& gpu, ShapeClass shape, const std::string& config);

}  // namespace kl::matmul::tuning
