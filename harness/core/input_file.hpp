// Reading a file kernel-lab is handed (gates file, bench TSV, bench JSON): a regular file of
// bounded size, read whole. A directory reads as empty and a device such as /dev/zero never
// ends; neither is input. Every refusal is an Error (the reader's own exception type).
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace kl::bench {

// `what` names the kind of file in the messages: "gates file", "bench TSV", "bench report".
template <class Error>
std::string read_input_file(const std::string& path, const std::string& what, std::size_t max_bytes) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw Error("cannot read " + what + " '" + path + "': no such file");
  if (!std::filesystem::is_regular_file(status)) throw Error(what + " '" + path + "' is not a regular file");
  if (std::filesystem::file_size(path, error) > max_bytes || error)
    throw Error(what + " '" + path + "' is larger than " + std::to_string(max_bytes) + " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + what + " '" + path + "'");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw Error("error while reading " + what + " '" + path + "'");
  return text;
}

}  // namespace kl::bench
