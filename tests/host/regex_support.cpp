#include "regex_support.hpp"

#include <map>
#include <regex>

namespace kl::test {
namespace {

// Each pattern compiled once: the tests match one pattern against every line of a file.
const std::regex& compiled(const std::string& pattern) {
  static std::map<std::string, std::regex> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) it = cache.emplace(pattern, std::regex(pattern)).first;
  return it->second;
}

}  // namespace

bool full_match(const std::string& text, const std::string& pattern) {
  return std::regex_match(text, compiled(pattern));
}

std::vector<std::string> search(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, compiled(pattern))) return {};
  std::vector<std::string> groups;
  for (const auto& group : m) groups.push_back(group.str());
  return groups;
}

std::vector<std::string> all_matches(const std::string& text, const std::string& pattern, int group) {
  std::vector<std::string> found;
  for (std::sregex_iterator m(text.begin(), text.end(), compiled(pattern)), end; m != end; ++m)
    found.push_back((*m)[group].str());
  return found;
}

}  // namespace kl::test
