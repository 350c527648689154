#include "json_value.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <utility>

namespace kl::bench {

JsonValue JsonValue::make_bool(bool b) {
  JsonValue v;
  v.kind_ = Kind::boolean;
  v.boolean_ = b;
  return v;
}
JsonValue JsonValue::make_number(double d) {
  JsonValue v;
  v.kind_ = Kind::number;
  v.number_ = d;
  return v;
}
JsonValue JsonValue::make_string(std::string s) {
  JsonValue v;
  v.kind_ = Kind::string;
  v.string_ = std::move(s);
  return v;
}
JsonValue JsonValue::make_array(std::vector<JsonValue> items) {
  JsonValue v;
  v.kind_ = Kind::array;
  v.items_ = std::move(items);
  return v;
}
JsonValue JsonValue::make_object(std::vector<std::pair<std::string, JsonValue>> members) {
  JsonValue v;
  v.kind_ = Kind::object;
  v.members_ = std::move(members);
  return v;
}

const JsonValue* JsonValue::find(std::string_view name) const {
  const JsonValue* found = nullptr;
  for (const auto& [key, value] : members_)
    if (key == name) found = &value;
  return found;
}

namespace {

class Parser {
 public:
  Parser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  JsonValue document() {
    skip_space();
    JsonValue v = value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') ++line, column = 1;
      else ++column;
    }
    throw JsonError(name_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_space() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
  }

  void expect(char c) {
    if (peek() != c || at_end()) fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  void literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail("expected a value");
    pos_ += word.size();
  }

  JsonValue value(int depth) {
    if (depth >= max_json_depth) fail("nested deeper than " + std::to_string(max_json_depth) + " levels");
    switch (peek()) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return JsonValue::make_string(string());
      case 't': literal("true"); return JsonValue::make_bool(true);
      case 'f': literal("false"); return JsonValue::make_bool(false);
      case 'n': literal("null"); return JsonValue();
      default: return JsonValue::make_number(number());
    }
  }

  JsonValue object(int depth) {
    expect('{');
    std::vector<std::pair<std::string, JsonValue>> members;
    skip_space();
    if (peek() == '}') return ++pos_, JsonValue::make_object(std::move(members));
    for (;;) {
      skip_space();
      if (peek() != '"') fail("expected a member name in double quotes");
      std::string key = string();
      skip_space();
      expect(':');
      skip_space();
      JsonValue v = value(depth + 1);
      members.emplace_back(std::move(key), std::move(v));
      skip_space();
      if (peek() == ',') { ++pos_; continue; }
      expect('}');
      return JsonValue::make_object(std::move(members));
    }
  }

  JsonValue array(int depth) {
    expect('[');
    std::vector<JsonValue> items;
    skip_space();
    if (peek() == ']') return ++pos_, JsonValue::make_array(std::move(items));
    for (;;) {
      skip_space();
      items.push_back(value(depth + 1));
      skip_space();
      if (peek() == ',') { ++pos_; continue; }
      expect(']');
      return JsonValue::make_array(std::move(items));
    }
  }

  unsigned hex4() {
    if (text_.size() - pos_ < 4) fail("\\u needs four hex digits");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      code <<= 4;
      if (c >= '0' && c <= '9') code |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') code |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') code |= static_cast<unsigned>(c - 'A' + 10);
      else fail("\\u needs four hex digits");
    }
    return code;
  }

  static void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;  // point at the character itself
        fail("a control character inside a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) fail("unterminated string");
      switch (const char e = text_[pos_++]) {
        case '"': case '\\': case '/': out += e; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {  // a high surrogate must be followed by a low one
            if (text_.substr(pos_, 2) != "\\u") fail("a lone UTF-16 surrogate");
            pos_ += 2;
            const std::uint32_t low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("a lone UTF-16 surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("a lone UTF-16 surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default: fail(std::string("unknown escape \\") + e);
      }
    }
  }

  double number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9' && !at_end()) ++pos_;
    } else {
      fail("expected a value");
    }
    if (peek() == '.' && !at_end()) {
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9') || at_end()) fail("a digit must follow the decimal point");
      while (peek() >= '0' && peek() <= '9' && !at_end()) ++pos_;
    }
    if ((peek() == 'e' || peek() == 'E') && !at_end()) {
      ++pos_;
      if ((peek() == '+' || peek() == '-') && !at_end()) ++pos_;
      if (!(peek() >= '0' && peek() <= '9') || at_end()) fail("a digit must follow the exponent");
      while (peek() >= '0' && peek() <= '9' && !at_end()) ++pos_;
    }
    double v = 0;
    const auto [end, error] = std::from_chars(text_.data() + start, text_.data() + pos_, v);
    if (error != std::errc() || end != text_.data() + pos_ || !std::isfinite(v)) {
      pos_ = start;
      fail("number out of range");
    }
    return v;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t pos_ = 0;
};

}  // namespace

JsonValue parse_json(std::string_view text, const std::string& name) { return Parser(text, name).document(); }

}  // namespace kl::bench
