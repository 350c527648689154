// What the fuzz targets share: reading typed values out of libFuzzer's bytes, and the contract
// of a target that finds something it must report (print what and why, then abort, which
// libFuzzer records as a crash with the input that caused it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace kl::fuzz {

// Consumes the input front to back; past its end every value is 0, so any input is valid.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  template <class T>
  T next() {
    T value{};
    const std::size_t n = size_ - pos_ < sizeof(T) ? size_ - pos_ : sizeof(T);
    if (n > 0) std::memcpy(&value, data_ + pos_, n);  // an empty input's data may be null (memcpy: UB)
    pos_ += n;
    return value;
  }
  // One of `choices`, picked by the next byte.
  template <class T>
  T pick(const std::vector<T>& choices) {
    return choices[next<std::uint8_t>() % choices.size()];
  }
  bool done() const { return pos_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

// The input as lines: the words of a command line, one a line.
inline std::vector<std::string> lines_of(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') words.emplace_back();
    else words.back().push_back(static_cast<char>(data[i]));
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::abort();
}

}  // namespace kl::fuzz
