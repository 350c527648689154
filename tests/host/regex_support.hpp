// Regular expressions for the host tests, behind one translation unit (regex_support.cpp): each
// unit that instantiates std::regex costs 7 s of g++ and 15 s of clang under the sanitizers.
// Patterns are ECMAScript, as std::regex reads them.
#pragma once

#include <string>
#include <vector>

namespace kl::test {

// Whether the whole of `text` matches.
bool full_match(const std::string& text, const std::string& pattern);
// The first match in `text`: its groups, [0] the whole match ("" for a group that took no part),
// or an empty vector when there is none.
std::vector<std::string> search(const std::string& text, const std::string& pattern);
// Group `group` of every match in `text`, in order.
std::vector<std::string> all_matches(const std::string& text, const std::string& pattern, int group);

}  // namespace kl::test
