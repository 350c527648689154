// A JSON document as a tree, for the files kernel-lab reads back (the bench's JSON report).
// Strict RFC 8259: no comments, no trailing commas, no NaN; nesting is bounded so a hostile
// file cannot exhaust the stack. Host-only; the fuzz target tests/fuzz/fuzz_bench_json.cpp feeds it.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kl::bench {

// Malformed JSON, or a document without the field a reader needs: "<name>:<line>:<column>: ..."
// or "<name>: ...". Bad input, so the CLI exits 2.
class JsonError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class JsonValue {
 public:
  enum class Kind { null, boolean, number, string, array, object };

  JsonValue() = default;
  static JsonValue make_bool(bool b);
  static JsonValue make_number(double d);
  static JsonValue make_string(std::string s);
  static JsonValue make_array(std::vector<JsonValue> items);
  static JsonValue make_object(std::vector<std::pair<std::string, JsonValue>> members);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::null; }
  bool boolean() const { return boolean_; }
  double number() const { return number_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& items() const { return items_; }
  // The object's members in file order (a repeated name keeps its last value for find()).
  const std::vector<std::pair<std::string, JsonValue>>& members() const { return members_; }
  // The member called `name`, or nullptr (also when this is not an object).
  const JsonValue* find(std::string_view name) const;

 private:
  Kind kind_ = Kind::null;
  bool boolean_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::vector<std::pair<std::string, JsonValue>> members_;
};

inline constexpr int max_json_depth = 64;
// Throws JsonError "<name>:<line>:<column>: <what is wrong>".
JsonValue parse_json(std::string_view text, const std::string& name);

}  // namespace kl::bench
