// The tuning file of matmul.tuned (sgemm_tuning.conf): which candidate configuration each GPU
// model uses. Host-only, so its parser is tested without a GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kl::matmul::tuning {

struct Choice {
  std::string gpu;     // "" for the default line
  std::string config;  // a candidate's name
};

// Parses the file's text; throws std::invalid_argument naming the line and the rule broken
// (unknown keyword, missing '=', a config not among `known`, no default line, a GPU twice).
std::vector<Choice> parse(std::string_view text, const std::vector<std::string>& known);

// The config for `gpu`: its own line, else the default.
std::string config_for(const std::vector<Choice>& choices, const std::string& gpu);

// The file's text with `gpu`'s line set to `config` (added before the end if absent).
std::string with_choice(std::string_view text, const std::string& gpu, const std::string& config);

}  // namespace kl::matmul::tuning
