// SPDX-License-Identifier: Apache-2.0
//
// A minimal JSON reader/writer for the golden-case and encoder-sweep JSON Lines files.
// Objects keep their key order so a case can be written back with only `expect` and
// `source` changed. Integers are kept exact (int64 / uint64); other numbers are doubles.
#ifndef TMA_SILICON_JSON_LITE_H_
#define TMA_SILICON_JSON_LITE_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tma::silicon {

struct JVal {
  enum Type { kNull, kBool, kInt, kUint, kDouble, kString, kArray, kObject };
  Type type = kNull;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string s;
  std::vector<JVal> a;
  std::vector<std::pair<std::string, JVal>> o;

  static JVal Int(int64_t v) {
    JVal j;
    j.type = kInt;
    j.i = v;
    return j;
  }
  static JVal Uint(uint64_t v) {
    JVal j;
    j.type = kUint;
    j.u = v;
    return j;
  }
  static JVal Str(std::string v) {
    JVal j;
    j.type = kString;
    j.s = std::move(v);
    return j;
  }
  static JVal Bool(bool v) {
    JVal j;
    j.type = kBool;
    j.b = v;
    return j;
  }
  static JVal Arr() {
    JVal j;
    j.type = kArray;
    return j;
  }
  static JVal Obj() {
    JVal j;
    j.type = kObject;
    return j;
  }

  const JVal* Get(const std::string& k) const {
    if (type != kObject)
      return nullptr;
    for (const auto& kv : o)
      if (kv.first == k)
        return &kv.second;
    return nullptr;
  }
  void Set(const std::string& k, JVal v) {
    for (auto& kv : o)
      if (kv.first == k) {
        kv.second = std::move(v);
        return;
      }
    o.emplace_back(k, std::move(v));
  }
  void Erase(const std::string& k) {
    for (size_t n = 0; n < o.size(); ++n)
      if (o[n].first == k) {
        o.erase(o.begin() + n);
        return;
      }
  }
  bool IsNum() const { return type == kInt || type == kUint || type == kDouble; }
  int64_t AsI() const {
    if (type == kInt)
      return i;
    if (type == kUint)
      return static_cast<int64_t>(u);
    if (type == kDouble)
      return static_cast<int64_t>(d);
    if (type == kBool)
      return b ? 1 : 0;
    throw std::runtime_error("json: not a number");
  }
  uint64_t AsU() const {
    if (type == kUint)
      return u;
    if (type == kInt)
      return static_cast<uint64_t>(i);
    if (type == kDouble)
      return static_cast<uint64_t>(d);
    throw std::runtime_error("json: not a number");
  }
  const std::string& AsS() const {
    if (type != kString)
      throw std::runtime_error("json: not a string");
    return s;
  }
};

class JParser {
 public:
  explicit JParser(const std::string& t) : t_(t) {}
  JVal Parse() {
    JVal v = Value();
    Ws();
    if (p_ != t_.size())
      Fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void Fail(const char* what) {
    throw std::runtime_error(std::string("json: ") + what + " at " + std::to_string(p_));
  }
  void Ws() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r'))
      ++p_;
  }
  char Peek() {
    Ws();
    if (p_ >= t_.size())
      Fail("unexpected end");
    return t_[p_];
  }
  void Expect(char c) {
    if (Peek() != c)
      Fail("unexpected character");
    ++p_;
  }
  JVal Value() {
    char c = Peek();
    if (c == '{')
      return Object();
    if (c == '[')
      return Array();
    if (c == '"')
      return JVal::Str(String());
    if (c == 't' && t_.compare(p_, 4, "true") == 0) {
      p_ += 4;
      return JVal::Bool(true);
    }
    if (c == 'f' && t_.compare(p_, 5, "false") == 0) {
      p_ += 5;
      return JVal::Bool(false);
    }
    if (c == 'n' && t_.compare(p_, 4, "null") == 0) {
      p_ += 4;
      return JVal();
    }
    return Number();
  }
  JVal Object() {
    JVal v = JVal::Obj();
    Expect('{');
    if (Peek() == '}') {
      ++p_;
      return v;
    }
    for (;;) {
      if (Peek() != '"')
        Fail("expected key");
      std::string k = String();
      Expect(':');
      v.o.emplace_back(std::move(k), Value());
      char c = Peek();
      ++p_;
      if (c == '}')
        return v;
      if (c != ',')
        Fail("expected , or }");
    }
  }
  JVal Array() {
    JVal v = JVal::Arr();
    Expect('[');
    if (Peek() == ']') {
      ++p_;
      return v;
    }
    for (;;) {
      v.a.push_back(Value());
      char c = Peek();
      ++p_;
      if (c == ']')
        return v;
      if (c != ',')
        Fail("expected , or ]");
    }
  }
  std::string String() {
    Expect('"');
    std::string r;
    while (p_ < t_.size() && t_[p_] != '"') {
      char c = t_[p_++];
      if (c != '\\') {
        r.push_back(c);
        continue;
      }
      if (p_ >= t_.size())
        Fail("bad escape");
      char e = t_[p_++];
      switch (e) {
        case '"':
          r.push_back('"');
          break;
        case '\\':
          r.push_back('\\');
          break;
        case '/':
          r.push_back('/');
          break;
        case 'b':
          r.push_back('\b');
          break;
        case 'f':
          r.push_back('\f');
          break;
        case 'n':
          r.push_back('\n');
          break;
        case 'r':
          r.push_back('\r');
          break;
        case 't':
          r.push_back('\t');
          break;
        case 'u': {
          if (p_ + 4 > t_.size())
            Fail("bad \\u");
          unsigned cp = static_cast<unsigned>(std::strtoul(t_.substr(p_, 4).c_str(), nullptr, 16));
          p_ += 4;
          if (cp < 0x80) {
            r.push_back(static_cast<char>(cp));
          } else if (cp < 0x800) {
            r.push_back(static_cast<char>(0xC0 | (cp >> 6)));
            r.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          } else {
            r.push_back(static_cast<char>(0xE0 | (cp >> 12)));
            r.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            r.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          }
          break;
        }
        default:
          Fail("bad escape");
      }
    }
    if (p_ >= t_.size())
      Fail("unterminated string");
    ++p_;
    return r;
  }
  JVal Number() {
    size_t st = p_;
    bool neg = false, frac = false;
    if (t_[p_] == '-') {
      neg = true;
      ++p_;
    }
    while (p_ < t_.size()) {
      char c = t_[p_];
      if (c >= '0' && c <= '9') {
        ++p_;
      } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        frac = true;
        ++p_;
      } else {
        break;
      }
    }
    std::string n = t_.substr(st, p_ - st);
    if (n.empty() || n == "-")
      Fail("bad number");
    JVal v;
    if (frac) {
      v.type = JVal::kDouble;
      v.d = std::strtod(n.c_str(), nullptr);
    } else if (neg) {
      v.type = JVal::kInt;
      v.i = std::strtoll(n.c_str(), nullptr, 10);
    } else {
      uint64_t x = std::strtoull(n.c_str(), nullptr, 10);
      if (x <= static_cast<uint64_t>(INT64_MAX)) {
        v.type = JVal::kInt;
        v.i = static_cast<int64_t>(x);
      } else {
        v.type = JVal::kUint;
        v.u = x;
      }
    }
    return v;
  }

  const std::string& t_;
  size_t p_ = 0;
};

inline void JWriteString(std::string* out, const std::string& s) {
  out->push_back('"');
  for (unsigned char c : s) {
    if (c == '"') {
      *out += "\\\"";
    } else if (c == '\\') {
      *out += "\\\\";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      *out += buf;
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back('"');
}

inline void JWrite(std::string* out, const JVal& v) {
  switch (v.type) {
    case JVal::kNull:
      *out += "null";
      break;
    case JVal::kBool:
      *out += v.b ? "true" : "false";
      break;
    case JVal::kInt:
      *out += std::to_string(v.i);
      break;
    case JVal::kUint:
      *out += std::to_string(v.u);
      break;
    case JVal::kDouble: {
      char buf[40];
      std::snprintf(buf, sizeof(buf), "%.17g", v.d);
      *out += buf;
      break;
    }
    case JVal::kString:
      JWriteString(out, v.s);
      break;
    case JVal::kArray:
      out->push_back('[');
      for (size_t n = 0; n < v.a.size(); ++n) {
        if (n)
          out->push_back(',');
        JWrite(out, v.a[n]);
      }
      out->push_back(']');
      break;
    case JVal::kObject:
      out->push_back('{');
      for (size_t n = 0; n < v.o.size(); ++n) {
        if (n)
          out->push_back(',');
        JWriteString(out, v.o[n].first);
        out->push_back(':');
        JWrite(out, v.o[n].second);
      }
      out->push_back('}');
      break;
  }
}

inline std::string JDump(const JVal& v) {
  std::string s;
  JWrite(&s, v);
  return s;
}

}  // namespace tma::silicon

#endif  // TMA_SILICON_JSON_LITE_H_
