// SPDX-License-Identifier: Apache-2.0
#include "tma/ptx.h"

#include <cctype>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace tma::model {

// ---- Names ------------------------------------------------------------------------------------

const char* ToString(Target t) {
  return t == Target::kSm90a ? "sm_90a" : "sm_100a";
}

std::optional<Target> ParseTarget(const std::string& s) {
  if (s == "sm_90a") {
    return Target::kSm90a;
  }
  if (s == "sm_100a") {
    return Target::kSm100a;
  }
  return std::nullopt;
}

const char* ToString(PtxOpcode op) {
  switch (op) {
    case PtxOpcode::kBulkTensor:
      return "cp.async.bulk.tensor";
    case PtxOpcode::kReduceBulkTensor:
      return "cp.reduce.async.bulk.tensor";
    case PtxOpcode::kPrefetchTensor:
      return "cp.async.bulk.prefetch.tensor";
    case PtxOpcode::kBulk:
      return "cp.async.bulk";
    case PtxOpcode::kReduceBulk:
      return "cp.reduce.async.bulk";
    case PtxOpcode::kPrefetch:
      return "cp.async.bulk.prefetch";
    case PtxOpcode::kCommitGroup:
      return "cp.async.bulk.commit_group";
    case PtxOpcode::kWaitGroup:
      return "cp.async.bulk.wait_group";
    case PtxOpcode::kTensormapReplace:
      return "tensormap.replace";
    case PtxOpcode::kMbarInit:
      return "mbarrier.init";
    case PtxOpcode::kMbarArrive:
      return "mbarrier.arrive";
    case PtxOpcode::kMbarExpectTx:
      return "mbarrier.expect_tx";
    case PtxOpcode::kMbarCompleteTx:
      return "mbarrier.complete_tx";
    case PtxOpcode::kMbarTestWait:
      return "mbarrier.test_wait";
    case PtxOpcode::kMbarTryWait:
      return "mbarrier.try_wait";
    case PtxOpcode::kMbarInval:
      return "mbarrier.inval";
  }
  return "?";
}

const char* ToString(StateSpace s) {
  switch (s) {
    case StateSpace::kNone:
      return "";
    case StateSpace::kGlobal:
      return "global";
    case StateSpace::kSharedCta:
      return "shared::cta";
    case StateSpace::kSharedCluster:
      return "shared::cluster";
    case StateSpace::kShared:
      return "shared";
  }
  return "?";
}

namespace {

constexpr const char* kFieldNames[] = {"",
                                       "global_address",
                                       "rank",
                                       "box_dim",
                                       "global_dim",
                                       "global_stride",
                                       "element_stride",
                                       "elemtype",
                                       "interleave_layout",
                                       "swizzle_mode",
                                       "swizzle_atomicity",
                                       "fill_mode"};

}  // namespace

const char* ToString(TmapField f) {
  return kFieldNames[static_cast<int>(f)];
}

bool PtxInstr::operator==(const PtxInstr& o) const {
  return opcode == o.opcode && guard == o.guard && guard_negated == o.guard_negated &&
         dim == o.dim && dst == o.dst && src == o.src && l2 == o.l2 && load_mode == o.load_mode &&
         completion == o.completion && multicast == o.multicast && cta_group == o.cta_group &&
         cache_hint == o.cache_hint && cp_mask == o.cp_mask && redop == o.redop &&
         noftz == o.noftz && type == o.type && read == o.read && mode_tile == o.mode_tile &&
         field == o.field && b1024 == o.b1024 && space == o.space && expect_tx == o.expect_tx &&
         parity == o.parity && sem == o.sem && scope == o.scope && b64 == o.b64 &&
         operands == o.operands;
}

namespace {

Status Bad(const std::string& field, const std::string& msg) {
  return Status::Error(ErrorClass::kInvalidInstruction, field, msg);
}
Status NotOnTarget(const std::string& field, Target t, const std::string& why) {
  return Status::Error(ErrorClass::kUnsupported, field,
                       field + " is not available on " + ToString(t) + ": " + why);
}

std::string Trim(const std::string& s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) {
    ++b;
  }
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) {
    --e;
  }
  return s.substr(b, e - b);
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Splits at top-level commas (outside [] and {}); false on unbalanced brackets.
bool SplitTopLevel(const std::string& s, std::vector<std::string>* out) {
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth < 0) {
        return false;
      }
    }
    if (c == ',' && depth == 0) {
      out->push_back(Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) {
    return false;
  }
  out->push_back(Trim(cur));
  return true;
}

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Length of the identifier at s[pos] (0 if none). A '-' followed by a letter continues the
// name (the seeds write operands such as "cache-policy"); before a digit it is a minus.
size_t IdentLength(const std::string& s, size_t pos) {
  if (pos >= s.size() || !IsIdentStart(s[pos])) {
    return 0;
  }
  size_t i = pos + 1;
  while (i < s.size()) {
    if (IsIdentChar(s[i])) {
      ++i;
    } else if (s[i] == '-' && i + 1 < s.size() &&
               std::isalpha(static_cast<unsigned char>(s[i + 1]))) {
      i += 2;
    } else {
      break;
    }
  }
  return i - pos;
}

bool IsIdent(const std::string& s) {
  return !s.empty() && IdentLength(s, 0) == s.size();
}

bool ParseInt(const std::string& text, int64_t* v) {
  std::string s = Trim(text);
  if (s.empty()) {
    return false;
  }
  bool neg = false;
  size_t i = 0;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  int base = 10;
  if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  if (i >= s.size()) {
    return false;
  }
  uint64_t acc = 0;
  for (; i < s.size(); ++i) {
    int d;
    char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      d = c - '0';
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) {
      d = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      return false;
    }
    if (acc > (std::numeric_limits<uint64_t>::max() - d) / base) {
      return false;
    }
    acc = acc * base + d;
  }
  if (acc > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return false;
  }
  *v = neg ? -static_cast<int64_t>(acc) : static_cast<int64_t>(acc);
  return true;
}

// A scalar: register/symbol or immediate.
bool ParseScalar(const std::string& text, PtxOperand* op) {
  std::string s = Trim(text);
  int64_t v;
  if (ParseInt(s, &v)) {
    op->kind = PtxOperand::Kind::kImm;
    op->value = v;
    return true;
  }
  if (IsIdent(s)) {
    op->kind = PtxOperand::Kind::kReg;
    op->name = s;
    return true;
  }
  return false;
}

bool ParseVector(const std::string& text, std::vector<PtxOperand>* elems) {
  std::string s = Trim(text);
  if (s.size() < 2 || s.front() != '{' || s.back() != '}') {
    return false;
  }
  std::vector<std::string> parts;
  if (!SplitTopLevel(s.substr(1, s.size() - 2), &parts)) {
    return false;
  }
  for (const std::string& p : parts) {
    PtxOperand e;
    if (!ParseScalar(p, &e)) {
      return false;
    }
    elems->push_back(e);
  }
  return true;
}

bool ParseOperand(const std::string& text, PtxOperand* op, std::string* why) {
  std::string s = Trim(text);
  if (s.empty()) {
    *why = "empty operand";
    return false;
  }
  if (s == "_") {
    op->kind = PtxOperand::Kind::kSink;
    return true;
  }
  if (s.front() == '{') {
    op->kind = PtxOperand::Kind::kVector;
    if (!ParseVector(s, &op->elems)) {
      *why = "malformed vector operand '" + s + "'";
      return false;
    }
    return true;
  }
  if (s.front() == '[') {
    if (s.back() != ']') {
      *why = "unterminated address operand '" + s + "'";
      return false;
    }
    std::string inner = Trim(s.substr(1, s.size() - 2));
    std::vector<std::string> parts;
    if (!SplitTopLevel(inner, &parts)) {
      *why = "unbalanced brackets in '" + s + "'";
      return false;
    }
    if (parts.size() == 2) {
      op->kind = PtxOperand::Kind::kTensorAddr;
      if (!IsIdent(parts[0])) {
        *why = "tensor-map operand '" + parts[0] + "' is not a name";
        return false;
      }
      op->name = parts[0];
      if (!ParseVector(parts[1], &op->elems)) {
        *why = "malformed coordinate vector '" + parts[1] + "'";
        return false;
      }
      return true;
    }
    if (parts.size() != 1) {
      *why = "malformed address operand '" + s + "'";
      return false;
    }
    op->kind = PtxOperand::Kind::kAddr;
    int64_t v;
    if (ParseInt(inner, &v)) {
      op->value = v;
      return true;
    }
    size_t n = IdentLength(inner, 0);
    if (n == 0) {
      *why = "malformed address operand '" + s + "'";
      return false;
    }
    op->name = inner.substr(0, n);
    std::string rest = Trim(inner.substr(n));
    if (rest.empty()) {
      return true;
    }
    if ((rest[0] == '+' || rest[0] == '-') && ParseInt(rest.substr(1), &v) &&
        Trim(rest.substr(1)).front() != '-' && Trim(rest.substr(1)).front() != '+') {
      op->value = rest[0] == '-' ? -v : v;
      return true;
    }
    *why = "malformed address offset in '" + s + "'";
    return false;
  }
  if (ParseScalar(s, op)) {
    return true;
  }
  *why = "malformed operand '" + s + "'";
  return false;
}

std::string PrintOperand(const PtxOperand& op) {
  std::ostringstream os;
  auto vec = [&os](const std::vector<PtxOperand>& e) {
    os << '{';
    for (size_t i = 0; i < e.size(); ++i) {
      os << (i ? ", " : "") << PrintOperand(e[i]);
    }
    os << '}';
  };
  switch (op.kind) {
    case PtxOperand::Kind::kReg:
      os << op.name;
      break;
    case PtxOperand::Kind::kImm:
      os << op.value;
      break;
    case PtxOperand::Kind::kAddr:
      os << '[';
      if (op.name.empty()) {
        os << op.value;
      } else {
        os << op.name;
        if (op.value > 0) {
          os << '+' << op.value;
        } else if (op.value < 0) {
          os << '-' << -static_cast<uint64_t>(op.value);
        }
      }
      os << ']';
      break;
    case PtxOperand::Kind::kTensorAddr:
      os << '[' << op.name << ", ";
      vec(op.elems);
      os << ']';
      break;
    case PtxOperand::Kind::kVector:
      vec(op.elems);
      break;
    case PtxOperand::Kind::kSink:
      os << '_';
      break;
  }
  return os.str();
}

std::optional<StateSpace> ParseSpace(const std::string& t) {
  if (t == "global") {
    return StateSpace::kGlobal;
  }
  if (t == "shared::cta") {
    return StateSpace::kSharedCta;
  }
  if (t == "shared::cluster") {
    return StateSpace::kSharedCluster;
  }
  return std::nullopt;
}

std::optional<TmapField> ParseField(const std::string& t) {
  for (int i = 1; i < static_cast<int>(sizeof(kFieldNames) / sizeof(kFieldNames[0])); ++i) {
    if (t == kFieldNames[i]) {
      return static_cast<TmapField>(i);
    }
  }
  return std::nullopt;
}

bool IsBulkFamily(PtxOpcode op) {
  return op == PtxOpcode::kBulkTensor || op == PtxOpcode::kReduceBulkTensor ||
         op == PtxOpcode::kPrefetchTensor || op == PtxOpcode::kBulk ||
         op == PtxOpcode::kReduceBulk || op == PtxOpcode::kPrefetch;
}
bool IsTensor(PtxOpcode op) {
  return op == PtxOpcode::kBulkTensor || op == PtxOpcode::kReduceBulkTensor ||
         op == PtxOpcode::kPrefetchTensor;
}
bool IsPrefetch(PtxOpcode op) {
  return op == PtxOpcode::kPrefetchTensor || op == PtxOpcode::kPrefetch;
}
bool IsMbarrier(PtxOpcode op) {
  return op >= PtxOpcode::kMbarInit && op <= PtxOpcode::kMbarInval;
}

// Records one qualifier per category; reports duplicates and conflicts.
class Seen {
 public:
  Status Take(const std::string& category, const std::string& token) {
    auto it = seen_.find(category);
    if (it != seen_.end()) {
      if (it->second == token) {
        return Bad("." + token, "duplicate qualifier ." + token);
      }
      return Bad("." + token, "conflicting qualifiers ." + it->second + " and ." + token);
    }
    seen_[category] = token;
    return Status::Ok();
  }

 private:
  std::map<std::string, std::string> seen_;
};

Status ClassifyBulk(const std::string& t, PtxInstr* in, Seen* seen, int* spaces) {
  const PtxOpcode op = in->opcode;
  if (IsTensor(op) && t.size() == 2 && t[1] == 'd' && t[0] >= '1' && t[0] <= '5') {
    in->dim = t[0] - '0';
    return seen->Take("dim", t);
  }
  if (auto sp = ParseSpace(t)) {
    if (IsPrefetch(op)) {
      in->src = *sp;
      return seen->Take("src", t);
    }
    if (*spaces >= 2) {
      return Bad("." + t, "a third state space ." + t + " (only .dst and .src exist)");
    }
    (*spaces == 0 ? in->dst : in->src) = *sp;
    return seen->Take((*spaces)++ == 0 ? "dst" : "src", t);
  }
  if (t == "L2") {
    in->l2 = true;
    return seen->Take("L2", t);
  }
  if (IsTensor(op)) {
    if (auto m = ParseLoadMode(t)) {
      in->load_mode = *m;
      return seen->Take("load_mode", t);
    }
  }
  if (t == "mbarrier::complete_tx::bytes" || t == "bulk_group") {
    in->completion = t == "bulk_group" ? Completion::kBulkGroup : Completion::kMbarrier;
    return seen->Take("completion_mechanism", t);
  }
  if (t == "multicast::cluster") {
    in->multicast = true;
    return seen->Take("multicast", t);
  }
  if (t == "cta_group::1" || t == "cta_group::2") {
    in->cta_group = t.back() - '0';
    return seen->Take("cta_group", t);
  }
  if (t == "L2::cache_hint") {
    in->cache_hint = true;
    return seen->Take("level::cache_hint", t);
  }
  if (t == "cp_mask") {
    in->cp_mask = true;
    return seen->Take("cp_mask", t);
  }
  if (auto r = ParseRedOp(t)) {
    in->redop = *r;
    return seen->Take("redOp", t);
  }
  if (t == "noftz") {
    in->noftz = true;
    return seen->Take("noftz", t);
  }
  if (auto ty = ParseBulkType(t)) {
    in->type = *ty;
    return seen->Take("type", t);
  }
  return Bad("." + t, std::string("unknown qualifier .") + t + " for " + ToString(op));
}

Status ClassifyOther(const std::string& t, PtxInstr* in, Seen* seen) {
  const PtxOpcode op = in->opcode;
  if (op == PtxOpcode::kWaitGroup && t == "read") {
    in->read = true;
    return seen->Take("read", t);
  }
  if (op == PtxOpcode::kTensormapReplace) {
    if (t == "tile") {
      in->mode_tile = true;
      return seen->Take("mode", t);
    }
    if (auto f = ParseField(t)) {
      in->field = *f;
      return seen->Take("field", t);
    }
    if (t == "global" || t == "shared::cta") {
      in->space = *ParseSpace(t);
      return seen->Take("ss", t);
    }
    if (t == "b1024") {
      in->b1024 = true;
      return seen->Take("b1024", t);
    }
    if (t == "b32" || t == "b64") {
      in->type = t == "b32" ? BulkType::kB32 : BulkType::kB64;
      return seen->Take("type", t);
    }
  }
  if (IsMbarrier(op)) {
    if (op == PtxOpcode::kMbarArrive && t == "expect_tx") {
      in->expect_tx = true;
      return seen->Take("expect_tx", t);
    }
    if ((op == PtxOpcode::kMbarTestWait || op == PtxOpcode::kMbarTryWait) && t == "parity") {
      in->parity = true;
      return seen->Take("parity", t);
    }
    if (t == "release" || t == "relaxed" || t == "acquire") {
      in->sem = t;
      return seen->Take("sem", t);
    }
    if (t == "cta" || t == "cluster") {
      in->scope = t;
      return seen->Take("scope", t);
    }
    if (t == "shared" || t == "shared::cta" || t == "shared::cluster") {
      in->space = t == "shared" ? StateSpace::kShared : *ParseSpace(t);
      return seen->Take("space", t);
    }
    if (t == "b64") {
      in->b64 = true;
      return seen->Take("b64", t);
    }
  }
  return Bad("." + t, std::string("unknown qualifier .") + t + " for " + ToString(op));
}

}  // namespace

// ---- Parse ----------------------------------------------------------------------------------

PtxParseResult Parse(const std::string& text) {
  PtxParseResult r;
  PtxInstr& in = r.instr;
  std::string s = text;
  size_t cpos = s.find("//");
  if (cpos != std::string::npos) {
    s = s.substr(0, cpos);
  }
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') {
      c = ' ';
    }
  }
  s = Trim(s);
  if (!s.empty() && s.back() == ';') {
    s = Trim(s.substr(0, s.size() - 1));
  }
  if (s.find(';') != std::string::npos) {
    r.status = Bad(";", "more than one statement");
    return r;
  }
  if (s.empty()) {
    r.status = Bad("opcode", "empty statement");
    return r;
  }
  size_t pos = 0;
  if (s[0] == '@') {
    pos = 1;
    if (pos < s.size() && s[pos] == '!') {
      in.guard_negated = true;
      ++pos;
    }
    size_t n = IdentLength(s, pos);
    if (n == 0) {
      r.status = Bad("@", "malformed predicate guard");
      return r;
    }
    in.guard = s.substr(pos, n);
    pos += n;
    while (pos < s.size() && s[pos] == ' ') {
      ++pos;
    }
  }
  size_t end = s.find(' ', pos);
  const std::string opcode =
      s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  const std::string operand_text = end == std::string::npos ? "" : Trim(s.substr(end));

  std::vector<std::string> tok = Split(opcode, '.');
  for (const std::string& t : tok) {
    if (t.empty()) {
      r.status = Bad(opcode, "empty qualifier in '" + opcode + "'");
      return r;
    }
  }
  auto at = [&tok](size_t i) { return i < tok.size() ? tok[i] : std::string(); };
  size_t first = 0;
  if (at(0) == "cp" && at(1) == "async" && at(2) == "bulk") {
    if (at(3) == "tensor") {
      in.opcode = PtxOpcode::kBulkTensor, first = 4;
    } else if (at(3) == "prefetch" && at(4) == "tensor") {
      in.opcode = PtxOpcode::kPrefetchTensor, first = 5;
    } else if (at(3) == "prefetch") {
      in.opcode = PtxOpcode::kPrefetch, first = 4;
    } else if (at(3) == "commit_group") {
      in.opcode = PtxOpcode::kCommitGroup, first = 4;
    } else if (at(3) == "wait_group") {
      in.opcode = PtxOpcode::kWaitGroup, first = 4;
    } else {
      in.opcode = PtxOpcode::kBulk, first = 3;
    }
  } else if (at(0) == "cp" && at(1) == "reduce" && at(2) == "async" && at(3) == "bulk") {
    if (at(4) == "tensor") {
      in.opcode = PtxOpcode::kReduceBulkTensor, first = 5;
    } else {
      in.opcode = PtxOpcode::kReduceBulk, first = 4;
    }
  } else if (at(0) == "tensormap" && at(1) == "replace") {
    in.opcode = PtxOpcode::kTensormapReplace, first = 2;
  } else if (at(0) == "mbarrier") {
    static const std::map<std::string, PtxOpcode> kMbar = {
        {"init", PtxOpcode::kMbarInit},          {"arrive", PtxOpcode::kMbarArrive},
        {"expect_tx", PtxOpcode::kMbarExpectTx}, {"complete_tx", PtxOpcode::kMbarCompleteTx},
        {"test_wait", PtxOpcode::kMbarTestWait}, {"try_wait", PtxOpcode::kMbarTryWait},
        {"inval", PtxOpcode::kMbarInval}};
    auto it = kMbar.find(at(1));
    if (it == kMbar.end()) {
      r.status = Bad("." + at(1), "unknown mbarrier operation ." + at(1));
      return r;
    }
    in.opcode = it->second, first = 2;
  } else {
    r.status = Bad(opcode, "unknown opcode '" + opcode + "'");
    return r;
  }

  Seen seen;
  int spaces = 0;
  for (size_t i = first; i < tok.size(); ++i) {
    Status st = IsBulkFamily(in.opcode) ? ClassifyBulk(tok[i], &in, &seen, &spaces)
                                        : ClassifyOther(tok[i], &in, &seen);
    if (!st.ok()) {
      r.status = st;
      return r;
    }
  }

  if (!operand_text.empty()) {
    std::vector<std::string> parts;
    if (!SplitTopLevel(operand_text, &parts)) {
      r.status = Bad("operands", "unbalanced brackets in '" + operand_text + "'");
      return r;
    }
    for (const std::string& p : parts) {
      PtxOperand op;
      std::string why;
      if (!ParseOperand(p, &op, &why)) {
        r.status = Bad("operand " + std::to_string(in.operands.size()), why);
        return r;
      }
      in.operands.push_back(op);
    }
  }
  return r;
}

// ---- Print ----------------------------------------------------------------------------------

std::string Print(const PtxInstr& in) {
  std::string s;
  if (!in.guard.empty()) {
    s += std::string("@") + (in.guard_negated ? "!" : "") + in.guard + " ";
  }
  s += ToString(in.opcode);
  auto q = [&s](const std::string& t) { s += "." + t; };
  const PtxOpcode op = in.opcode;
  if (IsBulkFamily(op)) {
    bool redop_done = false;
    if (in.dim != 0) {
      q(std::to_string(in.dim) + "d");
    }
    if (in.l2) {
      q("L2");
    }
    if (in.dst != StateSpace::kNone) {
      q(ToString(in.dst));
    }
    if (in.src != StateSpace::kNone) {
      q(ToString(in.src));
    }
    if (op == PtxOpcode::kReduceBulkTensor && in.redop) {
      q(ToString(*in.redop));
      redop_done = true;
    }
    if (in.load_mode) {
      q(ToString(*in.load_mode));
    }
    if (in.completion != Completion::kNone) {
      q(in.completion == Completion::kBulkGroup ? "bulk_group" : "mbarrier::complete_tx::bytes");
    }
    if (in.multicast) {
      q("multicast::cluster");
    }
    if (in.cta_group != 0) {
      q("cta_group::" + std::to_string(in.cta_group));
    }
    if (in.cache_hint) {
      q("L2::cache_hint");
    }
    if (in.cp_mask) {
      q("cp_mask");
    }
    if (in.redop && !redop_done) {
      q(ToString(*in.redop));
    }
    if (in.noftz) {
      q("noftz");
    }
    if (in.type) {
      q(ToString(*in.type));
    }
  } else if (op == PtxOpcode::kWaitGroup) {
    if (in.read) {
      q("read");
    }
  } else if (op == PtxOpcode::kTensormapReplace) {
    if (in.mode_tile) {
      q("tile");
    }
    if (in.field != TmapField::kNone) {
      q(ToString(in.field));
    }
    if (in.space != StateSpace::kNone) {
      q(ToString(in.space));
    }
    if (in.b1024) {
      q("b1024");
    }
    if (in.type) {
      q(ToString(*in.type));
    }
  } else if (IsMbarrier(op)) {
    if (in.expect_tx) {
      q("expect_tx");
    }
    if (in.parity) {
      q("parity");
    }
    if (!in.sem.empty()) {
      q(in.sem);
    }
    if (!in.scope.empty()) {
      q(in.scope);
    }
    if (in.space != StateSpace::kNone) {
      q(ToString(in.space));
    }
    if (in.b64) {
      q("b64");
    }
  }
  for (size_t i = 0; i < in.operands.size(); ++i) {
    s += (i == 0 ? " " : ", ") + PrintOperand(in.operands[i]);
  }
  s += ";";
  return s;
}

std::optional<PtxRegDecl> ParseRegDecl(const std::string& text) {
  std::string s = Trim(text);
  if (!s.empty() && s.back() == ';') {
    s = Trim(s.substr(0, s.size() - 1));
  }
  if (s.rfind(".reg", 0) != 0) {
    return std::nullopt;
  }
  s = Trim(s.substr(4));
  if (s.empty() || s[0] != '.') {
    return std::nullopt;
  }
  size_t sp = s.find(' ');
  if (sp == std::string::npos) {
    return std::nullopt;
  }
  PtxRegDecl d;
  d.type = s.substr(1, sp - 1);
  if (!IsIdent(d.type)) {
    return std::nullopt;
  }
  for (const std::string& n : Split(s.substr(sp), ',')) {
    std::string t = Trim(n);
    if (!IsIdent(t)) {
      return std::nullopt;
    }
    d.names.push_back(t);
  }
  return d;
}

// ---- Check ----------------------------------------------------------------------------------

namespace {

using Kind = PtxOperand::Kind;

bool IsScalar(const PtxOperand& o) {
  return o.kind == Kind::kReg || o.kind == Kind::kImm;
}

// Operand-list checker: walks the expected operands in order.
class Operands {
 public:
  explicit Operands(const PtxInstr& in) : ops_(in.operands) {}

  Status Addr(const char* name) {
    if (i_ >= ops_.size()) {
      return Missing(name);
    }
    if (ops_[i_].kind != Kind::kAddr) {
      return Bad(name, std::string(name) + " must be an address operand [..]");
    }
    ++i_;
    return Status::Ok();
  }
  Status TensorAddr(size_t ncoords) {
    if (i_ >= ops_.size()) {
      return Missing("tensorCoords");
    }
    const PtxOperand& o = ops_[i_];
    if (o.kind != Kind::kTensorAddr) {
      return Bad("tensorMap", "expected [tensorMap, {coords}]");
    }
    if (o.elems.size() != ncoords) {
      return Bad("tensorCoords", "tensorCoords has " + std::to_string(o.elems.size()) +
                                     " elements, the form needs " + std::to_string(ncoords));
    }
    ++i_;
    return Status::Ok();
  }
  Status Vector(const char* name, size_t n) {
    if (i_ >= ops_.size()) {
      return Missing(name);
    }
    const PtxOperand& o = ops_[i_];
    if (o.kind != Kind::kVector) {
      return Bad(name, std::string(name) + " must be a vector operand {..}");
    }
    if (o.elems.size() != n) {
      return Bad(name, std::string(name) + " has " + std::to_string(o.elems.size()) +
                           " elements, the form needs " + std::to_string(n));
    }
    ++i_;
    return Status::Ok();
  }
  Status Scalar(const char* name, bool imm_only = false, bool sink_ok = false) {
    if (i_ >= ops_.size()) {
      return Missing(name);
    }
    const PtxOperand& o = ops_[i_];
    if (sink_ok && o.kind == Kind::kSink) {
      ++i_;
      return Status::Ok();
    }
    if (imm_only ? o.kind != Kind::kImm : !IsScalar(o)) {
      return Bad(name, std::string(name) + (imm_only ? " must be an integer immediate"
                                                     : " must be a register or an immediate"));
    }
    ++i_;
    return Status::Ok();
  }
  const PtxOperand* Peek() const { return i_ < ops_.size() ? &ops_[i_] : nullptr; }
  Status End() const {
    if (i_ < ops_.size()) {
      return Bad("operand " + std::to_string(i_),
                 "unexpected extra operand '" + PrintOperand(ops_[i_]) +
                     "' (a missing qualifier such as .L2::cache_hint, .multicast::cluster or "
                     ".cp_mask?)");
    }
    return Status::Ok();
  }

 private:
  static Status Missing(const char* name) {
    return Bad(name, std::string("missing operand ") + name);
  }
  const std::vector<PtxOperand>& ops_;
  size_t i_ = 0;
};

#define TMA_RETURN_IF_ERROR(expr) \
  do {                            \
    Status _s = (expr);           \
    if (!_s.ok()) {               \
      return _s;                  \
    }                             \
  } while (0)

// Qualifiers that belong to no form of this opcode.
Status RejectForeign(const PtxInstr& in) {
  const PtxOpcode op = in.opcode;
  const char* name = ToString(op);
  if (!IsTensor(op) && in.dim != 0) {
    return Bad("." + std::to_string(in.dim) + "d", std::string(name) + " takes no .dim");
  }
  if (IsTensor(op) && in.dim == 0) {
    return Bad(".dim", std::string(name) + " needs a .dim qualifier (.1d .. .5d)");
  }
  if (!IsPrefetch(op) && in.l2) {
    return Bad(".L2", std::string(".L2 belongs to the prefetch forms, not ") + name);
  }
  if (IsPrefetch(op) && !in.l2) {
    return Bad(".L2", std::string(name) + " needs the .L2 qualifier");
  }
  if (IsPrefetch(op) && in.completion != Completion::kNone) {
    return Bad(
        in.completion == Completion::kBulkGroup ? ".bulk_group" : ".mbarrier::complete_tx::bytes",
        std::string(name) + " has no completion mechanism");
  }
  const bool reduce = op == PtxOpcode::kReduceBulkTensor || op == PtxOpcode::kReduceBulk;
  if (!reduce && in.redop) {
    return Bad(std::string(".") + ToString(*in.redop),
               std::string("a .redOp belongs to cp.reduce forms, not ") + name);
  }
  if (reduce && !in.redop) {
    return Bad(".redOp", std::string(name) + " needs a .redOp qualifier");
  }
  if (op != PtxOpcode::kReduceBulk && in.type) {
    return Bad(std::string(".") + ToString(*in.type), std::string(name) + " takes no .type");
  }
  if (op == PtxOpcode::kReduceBulk && !in.type) {
    return Bad(".type", "cp.reduce.async.bulk needs a .type qualifier");
  }
  if (op != PtxOpcode::kReduceBulk && in.noftz) {
    return Bad(".noftz", std::string(".noftz belongs to cp.reduce.async.bulk, not ") + name);
  }
  if (op != PtxOpcode::kBulk && in.cp_mask) {
    return Bad(".cp_mask", std::string(".cp_mask belongs to cp.async.bulk, not ") + name);
  }
  if (in.multicast && op != PtxOpcode::kBulkTensor && op != PtxOpcode::kBulk) {
    return Bad(".multicast::cluster", std::string(name) + " has no .multicast::cluster");
  }
  if (in.cta_group != 0 && op != PtxOpcode::kBulkTensor) {
    return Bad(".cta_group::" + std::to_string(in.cta_group),
               std::string(name) + " has no .cta_group");
  }
  return Status::Ok();
}

Status CheckTensor(const PtxInstr& in, Target target) {
  const PtxOpcode op = in.opcode;
  const LoadMode mode = in.load_mode.value_or(LoadMode::kTile);
  const std::string mode_q = std::string(".") + ToString(mode);
  bool load = false;  // G->S
  if (op == PtxOpcode::kBulkTensor) {
    const bool g2s = in.src == StateSpace::kGlobal &&
                     (in.dst == StateSpace::kSharedCta || in.dst == StateSpace::kSharedCluster);
    const bool s2g = in.dst == StateSpace::kGlobal && in.src == StateSpace::kSharedCta;
    if (!g2s && !s2g) {
      return Bad(".dst", std::string("no cp.async.bulk.tensor direction .") + ToString(in.dst) +
                             "." + ToString(in.src) +
                             " (seed 001: .shared::cta.global, .shared::cluster.global, "
                             ".global.shared::cta)");
    }
    load = g2s;
  } else if (op == PtxOpcode::kReduceBulkTensor) {
    if (in.dst != StateSpace::kGlobal || in.src != StateSpace::kSharedCta) {
      return Bad(".dst", "cp.reduce.async.bulk.tensor is .global.shared::cta only (seed 003)");
    }
  } else if (in.src != StateSpace::kGlobal) {
    return Bad(".src", "cp.async.bulk.prefetch.tensor needs .src = .global (seed 000)");
  }
  const bool prefetch = op == PtxOpcode::kPrefetchTensor;
  const bool store_like = !load && !prefetch;  // store or reduce
  // Completion mechanism (seed 001 lines 19/33/47, seed 003 line 19).
  if (load && in.completion != Completion::kMbarrier) {
    return Bad(".completion_mechanism",
               "a load needs .mbarrier::complete_tx::bytes" +
                   std::string(in.completion == Completion::kBulkGroup ? ", not .bulk_group"
                                                                       : " (missing)"));
  }
  if (store_like && in.completion != Completion::kBulkGroup) {
    return Bad(".completion_mechanism",
               std::string(ToString(op)) + " to .global needs .bulk_group" +
                   (in.completion == Completion::kMbarrier ? ", not .mbarrier::complete_tx::bytes"
                                                           : " (missing)"));
  }
  // Load modes.
  const bool load_set = mode == LoadMode::kTile || mode == LoadMode::kTileGather4 ||
                        mode == LoadMode::kIm2col || mode == LoadMode::kIm2colW ||
                        mode == LoadMode::kIm2colW128;
  if ((load || prefetch) && !load_set) {
    return Bad(mode_q, mode_q +
                           " is not a load mode (seed 001 line 21: .tile, .tile::gather4, "
                           ".im2col, .im2col::w, .im2col::w::128)");
  }
  if (op == PtxOpcode::kBulkTensor && !load && mode != LoadMode::kTile &&
      mode != LoadMode::kTileScatter4 && mode != LoadMode::kIm2colNoOffs) {
    return Bad(mode_q, mode_q +
                           " is not a store mode (seed 001 line 48: .tile, "
                           ".tile::scatter4, .im2col_no_offs)");
  }
  if (op == PtxOpcode::kReduceBulkTensor && mode != LoadMode::kTile &&
      mode != LoadMode::kIm2colNoOffs) {
    return Bad(mode_q, mode_q +
                           " is not a reduction mode (seed 003 line 20: .tile, "
                           ".im2col_no_offs)");
  }
  const bool im2col_family = mode == LoadMode::kIm2col || mode == LoadMode::kIm2colW ||
                             mode == LoadMode::kIm2colW128 || mode == LoadMode::kIm2colNoOffs;
  if (im2col_family && in.dim < 3) {
    return Bad(mode_q, mode_q +
                           " needs a tensor of at least 3 dimensions (seed 001 line 130), "
                           "got ." +
                           std::to_string(in.dim) + "d");
  }
  const bool four = mode == LoadMode::kTileGather4 || mode == LoadMode::kTileScatter4;
  if (four && in.dim != 2) {
    return Bad(mode_q, mode_q +
                           " is defined on 2-dimensional tensors only (seed 001 line 122), "
                           "got ." +
                           std::to_string(in.dim) + "d");
  }
  if (in.multicast && (!load || in.dst != StateSpace::kSharedCluster)) {
    return Bad(
        ".multicast::cluster",
        std::string(".multicast::cluster needs the .shared::cluster.global direction") +
            (load ? " (a .shared::cta destination is the executing CTA only)" : " (not a store)"));
  }
  if (in.cta_group != 0 && !load) {
    return Bad(".cta_group::" + std::to_string(in.cta_group),
               ".cta_group needs the mbarrier completion mechanism (seed 001 line 107)");
  }
  // Target-only forms (seed 001 lines 200-233, seed 000 lines 91-109).
  if (target == Target::kSm90a) {
    if (mode == LoadMode::kTileGather4 || mode == LoadMode::kTileScatter4 ||
        mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128) {
      return NotOnTarget(mode_q, target, "it needs sm_100a (or sm_100f / sm_110 families)");
    }
    if (in.cta_group != 0) {
      return NotOnTarget(".cta_group::" + std::to_string(in.cta_group), target,
                         "it needs sm_100a (or sm_100f / sm_110 families)");
    }
  }
  // Operands.
  Operands ops(in);
  const size_t ncoords = four ? 5 : static_cast<size_t>(in.dim);
  const bool info =
      (load || prefetch) &&
      (mode == LoadMode::kIm2col || mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128);
  const size_t ninfo = mode == LoadMode::kIm2col ? static_cast<size_t>(in.dim - 2) : 2;
  if (load) {
    TMA_RETURN_IF_ERROR(ops.Addr("dstMem"));
    TMA_RETURN_IF_ERROR(ops.TensorAddr(ncoords));
    TMA_RETURN_IF_ERROR(ops.Addr("mbar"));
  } else if (prefetch) {
    TMA_RETURN_IF_ERROR(ops.TensorAddr(ncoords));
  } else {
    TMA_RETURN_IF_ERROR(ops.TensorAddr(ncoords));
    TMA_RETURN_IF_ERROR(ops.Addr("srcMem"));
  }
  if (info) {
    TMA_RETURN_IF_ERROR(ops.Vector("im2colInfo", ninfo));
  } else if (ops.Peek() != nullptr && ops.Peek()->kind == Kind::kVector) {
    return Bad("im2colInfo",
               "im2colInfo is only allowed with .im2col, .im2col::w and "
               ".im2col::w::128 loads (seed 001 line 131)");
  }
  if (in.multicast) {
    TMA_RETURN_IF_ERROR(ops.Scalar("ctaMask"));
  }
  if (in.cache_hint) {
    TMA_RETURN_IF_ERROR(ops.Scalar("cache-policy"));
  }
  return ops.End();
}

Status CheckBulk(const PtxInstr& in, Target target) {
  const PtxOpcode op = in.opcode;
  Operands ops(in);
  if (op == PtxOpcode::kPrefetch) {
    if (in.src != StateSpace::kGlobal) {
      return Bad(".src", "cp.async.bulk.prefetch needs .src = .global (seed 004 line 432)");
    }
    TMA_RETURN_IF_ERROR(ops.Addr("srcMem"));
    TMA_RETURN_IF_ERROR(ops.Scalar("size"));
    if (in.cache_hint) {
      TMA_RETURN_IF_ERROR(ops.Scalar("cache-policy"));
    }
    return ops.End();
  }
  BulkDir dir;
  if (in.dst == StateSpace::kSharedCta && in.src == StateSpace::kGlobal) {
    dir = BulkDir::kGlobalToSharedCta;
  } else if (in.dst == StateSpace::kSharedCluster && in.src == StateSpace::kGlobal) {
    dir = BulkDir::kGlobalToSharedCluster;
  } else if (in.dst == StateSpace::kSharedCluster && in.src == StateSpace::kSharedCta) {
    dir = BulkDir::kSharedCtaToSharedCluster;
  } else if (in.dst == StateSpace::kGlobal && in.src == StateSpace::kSharedCta) {
    dir = BulkDir::kSharedCtaToGlobal;
  } else {
    return Bad(".dst", std::string("no ") + ToString(op) + " direction ." + ToString(in.dst) + "." +
                           ToString(in.src));
  }
  const bool reduce = op == PtxOpcode::kReduceBulk;
  if (reduce && dir != BulkDir::kSharedCtaToGlobal && dir != BulkDir::kSharedCtaToSharedCluster) {
    return Bad(".dst", std::string("cp.reduce.async.bulk has no direction .") + ToString(dir) +
                           " (seed 004 lines 249-251, 273-275)");
  }
  const bool mbar = dir != BulkDir::kSharedCtaToGlobal;
  if (mbar && in.completion != Completion::kMbarrier) {
    return Bad(".completion_mechanism",
               std::string(".") + ToString(dir) + " needs .mbarrier::complete_tx::bytes");
  }
  if (!mbar && in.completion != Completion::kBulkGroup) {
    return Bad(".completion_mechanism", ".global.shared::cta needs .bulk_group");
  }
  if (in.multicast && dir != BulkDir::kGlobalToSharedCluster) {
    return Bad(".multicast::cluster",
               std::string(".multicast::cluster needs the .shared::cluster.global direction, not "
                           ".") +
                   ToString(dir));
  }
  if (in.cache_hint && dir == BulkDir::kSharedCtaToSharedCluster) {
    return Bad(".L2::cache_hint",
               ".L2::cache_hint needs .global as .src or .dst (seed 004 line 142)");
  }
  if (in.cp_mask && dir != BulkDir::kSharedCtaToGlobal) {
    return Bad(".cp_mask", ".cp_mask is only defined on .global.shared::cta (seed 004 line 72)");
  }
  if (in.cp_mask && target == Target::kSm90a) {
    return NotOnTarget(".cp_mask", target, "it needs sm_100 or higher (seed 004 line 176)");
  }
  if (reduce) {
    TMA_RETURN_IF_ERROR(BulkReduceSupported(dir, *in.redop, *in.type, in.noftz));
  }
  TMA_RETURN_IF_ERROR(ops.Addr("dstMem"));
  TMA_RETURN_IF_ERROR(ops.Addr("srcMem"));
  TMA_RETURN_IF_ERROR(ops.Scalar("size"));
  if (mbar) {
    TMA_RETURN_IF_ERROR(ops.Addr("mbar"));
  }
  if (in.multicast) {
    TMA_RETURN_IF_ERROR(ops.Scalar("ctaMask"));
  }
  if (in.cache_hint) {
    TMA_RETURN_IF_ERROR(ops.Scalar("cache-policy"));
  }
  if (in.cp_mask) {
    TMA_RETURN_IF_ERROR(ops.Scalar("byteMask"));
  }
  return ops.End();
}

Status CheckTensormapReplace(const PtxInstr& in, Target target) {
  if (!in.mode_tile) {
    return Bad(".mode", "tensormap.replace needs .mode = .tile");
  }
  if (in.field == TmapField::kNone) {
    return Bad(".field", "tensormap.replace needs a field qualifier");
  }
  if (!in.b1024) {
    return Bad(".b1024", "tensormap.replace needs .b1024");
  }
  if (!in.type) {
    return Bad(".type", "tensormap.replace needs .b32 or .b64");
  }
  const std::string fq = std::string(".") + ToString(in.field);
  const bool wide = in.field == TmapField::kGlobalAddress || in.field == TmapField::kGlobalStride;
  if (wide != (*in.type == BulkType::kB64)) {
    return Bad(std::string(".") + ToString(*in.type),
               fq + " needs ." + (wide ? "b64" : "b32") + " (seed 002, tensormap.replace)");
  }
  const bool field2 = in.field == TmapField::kBoxDim || in.field == TmapField::kGlobalDim ||
                      in.field == TmapField::kGlobalStride || in.field == TmapField::kElementStride;
  const bool field3 = in.field >= TmapField::kElemtype;
  if (in.field == TmapField::kSwizzleAtomicity && target == Target::kSm90a) {
    return NotOnTarget(fq, target, "it needs sm_100a / sm_120a (seed 002)");
  }
  Operands ops(in);
  TMA_RETURN_IF_ERROR(ops.Addr("addr"));
  if (field2) {
    const PtxOperand* o = ops.Peek();
    TMA_RETURN_IF_ERROR(ops.Scalar("ord", /*imm_only=*/true));
    if (o->value < 0 || o->value > kMaxRank - 1) {
      return Bad("ord", "ord must be 0.." + std::to_string(kMaxRank - 1) + " (got " +
                            std::to_string(o->value) + ")");
    }
  }
  const PtxOperand* nv = ops.Peek();
  TMA_RETURN_IF_ERROR(ops.Scalar("new_val", /*imm_only=*/field3));
  if (field3) {
    // Table 33: the valid immediates of each .field3.
    int64_t hi = 0;
    switch (in.field) {
      case TmapField::kElemtype:
        hi = 15;
        break;
      case TmapField::kInterleaveLayout:
        hi = 2;
        break;
      case TmapField::kSwizzleMode:
        hi = 4;
        break;
      case TmapField::kSwizzleAtomicity:
        hi = 3;
        break;
      default:  // fill_mode
        hi = 1;
        break;
    }
    const int64_t v = nv->value;
    if (v < 0 || v > hi) {
      return Bad("new_val", fq + " new_val must be 0.." + std::to_string(hi) + " (Table 33), got " +
                                std::to_string(v));
    }
    if (in.field == TmapField::kSwizzleMode && v == 4) {
      return NotOnTarget(fq + " 4", target, "96B swizzling needs sm_103a (seed 002)");
    }
    if (in.field == TmapField::kElemtype && v >= 13 && target == Target::kSm90a) {
      return NotOnTarget(fq + " " + std::to_string(v), target,
                         "sub-byte element types need sm_100a / sm_120a (seed 002)");
    }
  }
  return ops.End();
}

Status CheckMbarrier(const PtxInstr& in) {
  const PtxOpcode op = in.opcode;
  if (!in.b64) {
    return Bad(".b64", std::string(ToString(op)) + " needs .b64");
  }
  const bool remote = in.space == StateSpace::kSharedCluster;
  const bool waits = op == PtxOpcode::kMbarTestWait || op == PtxOpcode::kMbarTryWait;
  if (remote && (op == PtxOpcode::kMbarInit || op == PtxOpcode::kMbarInval || waits)) {
    return Bad(".shared::cluster", std::string(ToString(op)) +
                                       " works on the executing CTA's mbarrier only "
                                       "(tensor-semantics §11.4)");
  }
  if (in.sem == "acquire" && !waits) {
    return Bad(".acquire", ".acquire belongs to test_wait / try_wait");
  }
  if (in.sem == "release" && waits) {
    return Bad(".release", ".release belongs to arrive");
  }
  if (in.sem == "release" && (op == PtxOpcode::kMbarExpectTx || op == PtxOpcode::kMbarCompleteTx)) {
    return Bad(".release", std::string(ToString(op)) + " is .relaxed only");
  }
  if (!in.sem.empty() && (op == PtxOpcode::kMbarInit || op == PtxOpcode::kMbarInval)) {
    return Bad("." + in.sem, std::string(ToString(op)) + " takes no memory-order qualifier");
  }
  if (!in.scope.empty() && (op == PtxOpcode::kMbarInit || op == PtxOpcode::kMbarInval)) {
    return Bad("." + in.scope, std::string(ToString(op)) + " takes no scope qualifier");
  }
  Operands ops(in);
  switch (op) {
    case PtxOpcode::kMbarInit:
      TMA_RETURN_IF_ERROR(ops.Addr("addr"));
      TMA_RETURN_IF_ERROR(ops.Scalar("count"));
      break;
    case PtxOpcode::kMbarArrive: {
      const PtxOperand* st = ops.Peek();
      TMA_RETURN_IF_ERROR(ops.Scalar("state", false, /*sink_ok=*/true));
      if (remote && st->kind != Kind::kSink) {
        return Bad("state", "a remote (.shared::cluster) arrive returns no state: use _");
      }
      TMA_RETURN_IF_ERROR(ops.Addr("addr"));
      if (in.expect_tx) {
        TMA_RETURN_IF_ERROR(ops.Scalar("txCount"));
      } else if (ops.Peek() != nullptr) {
        TMA_RETURN_IF_ERROR(ops.Scalar("count"));
      }
      break;
    }
    case PtxOpcode::kMbarExpectTx:
    case PtxOpcode::kMbarCompleteTx:
      TMA_RETURN_IF_ERROR(ops.Addr("addr"));
      TMA_RETURN_IF_ERROR(ops.Scalar("txCount"));
      break;
    case PtxOpcode::kMbarTestWait:
    case PtxOpcode::kMbarTryWait: {
      const PtxOperand* p = ops.Peek();
      if (p == nullptr || p->kind != Kind::kReg) {
        return Bad("waitComplete", "the first operand must be a predicate register");
      }
      TMA_RETURN_IF_ERROR(ops.Scalar("waitComplete"));
      TMA_RETURN_IF_ERROR(ops.Addr("addr"));
      TMA_RETURN_IF_ERROR(ops.Scalar(in.parity ? "phaseParity" : "state"));
      if (op == PtxOpcode::kMbarTryWait && ops.Peek() != nullptr) {
        TMA_RETURN_IF_ERROR(ops.Scalar("suspendTimeHint"));
      }
      break;
    }
    case PtxOpcode::kMbarInval:
      TMA_RETURN_IF_ERROR(ops.Addr("addr"));
      break;
    default:
      break;
  }
  return ops.End();
}

}  // namespace

Status Check(const PtxInstr& in, Target target) {
  const PtxOpcode op = in.opcode;
  if (IsBulkFamily(op)) {
    TMA_RETURN_IF_ERROR(RejectForeign(in));
    if (IsTensor(op)) {
      return CheckTensor(in, target);
    }
    return CheckBulk(in, target);
  }
  if (op == PtxOpcode::kCommitGroup) {
    return Operands(in).End();
  }
  if (op == PtxOpcode::kWaitGroup) {
    Operands ops(in);
    const PtxOperand* n = ops.Peek();
    TMA_RETURN_IF_ERROR(ops.Scalar("N", /*imm_only=*/true));
    if (n->value < 0) {
      return Bad("N", "N must be a non-negative integer constant");
    }
    return ops.End();
  }
  if (op == PtxOpcode::kTensormapReplace) {
    return CheckTensormapReplace(in, target);
  }
  return CheckMbarrier(in);
}

// ---- Conversion -----------------------------------------------------------------------------

namespace {

Status Value(const PtxOperand& o, const PtxBindings& b, const char* what, int64_t* v) {
  int64_t base = 0;
  if (o.kind == Kind::kImm) {
    *v = o.value;
    return Status::Ok();
  }
  if (!o.name.empty()) {
    auto it = b.values.find(o.name);
    if (it == b.values.end()) {
      return Bad(o.name, std::string("no value bound for ") + o.name + " (" + what + ")");
    }
    base = it->second;
  }
  // [reg+imm]: the sum must fit 64 bits (a wrapped address would name another location).
  if (__builtin_add_overflow(base, o.kind == Kind::kAddr ? o.value : 0, v)) {
    return Bad(o.name, std::string(what) + ": register + offset overflows 64 bits");
  }
  return Status::Ok();
}

// A shared address -> (cta, offset). shared::cta addresses are in the issuer's window.
Status SharedLoc(const PtxOperand& o, const PtxBindings& b, StateSpace sp, const char* what,
                 int* cta, uint32_t* off) {
  int64_t a;
  TMA_RETURN_IF_ERROR(Value(o, b, what, &a));
  if (a < 0) {
    return Bad(what, std::string(what) + " is negative");
  }
  const uint64_t u = static_cast<uint64_t>(a);
  if (sp == StateSpace::kSharedCluster && b.cluster_window_bytes != 0) {
    if (u / b.cluster_window_bytes >= static_cast<uint64_t>(kMaxCtas)) {
      return Bad(what, std::string(what) + " names CTA " +
                           std::to_string(u / b.cluster_window_bytes) + ", beyond the " +
                           std::to_string(kMaxCtas) + " CTAs of a cluster");
    }
    *cta = static_cast<int>(u / b.cluster_window_bytes);
    *off = static_cast<uint32_t>(u % b.cluster_window_bytes);
    return Status::Ok();
  }
  if (u > 0xffffffffull) {
    return Bad(what, std::string(what) + " does not fit a 32-bit shared address");
  }
  *cta = -1;
  *off = static_cast<uint32_t>(u);
  return Status::Ok();
}

}  // namespace

TensorConversion ToTensorInstr(const PtxInstr& in, const PtxBindings& b, Target target) {
  TensorConversion r;
  if (!IsTensor(in.opcode)) {
    r.status = Bad("opcode", std::string(ToString(in.opcode)) + " is not a tensor instruction");
    return r;
  }
  r.status = Check(in, target);
  if (!r.status.ok()) {
    return r;
  }
  TensorInstr& t = r.instr;
  const bool prefetch = in.opcode == PtxOpcode::kPrefetchTensor;
  const bool load = in.opcode == PtxOpcode::kBulkTensor && in.src == StateSpace::kGlobal;
  t.op = prefetch                                    ? Op::kPrefetch
         : in.opcode == PtxOpcode::kReduceBulkTensor ? Op::kReduce
         : load                                      ? Op::kLoad
                                                     : Op::kStore;
  t.mode = in.load_mode.value_or(LoadMode::kTile);
  t.dim = in.dim;
  if (in.redop) {
    t.redop = *in.redop;
  }
  t.issuer_cta = b.issuer_cta;
  t.multicast = in.multicast;
  t.cta_group = in.cta_group;
  size_t k = 0;
  const std::vector<PtxOperand>& ops = in.operands;
  int dst_cta = -1;
  if (load) {
    t.smem_space =
        in.dst == StateSpace::kSharedCta ? SmemSpace::kSharedCta : SmemSpace::kSharedCluster;
    r.status = SharedLoc(ops[k++], b, in.dst, "dstMem", &dst_cta, &t.smem_addr);
    if (!r.status.ok()) {
      return r;
    }
  }
  const PtxOperand& tensor = ops[k++];
  for (const PtxOperand& c : tensor.elems) {
    int64_t v;
    r.status = Value(c, b, "tensorCoords", &v);
    if (!r.status.ok()) {
      return r;
    }
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      r.status = Bad("tensorCoords", "a coordinate does not fit .s32");
      return r;
    }
    t.coords.push_back(static_cast<int32_t>(v));
  }
  if (load) {
    int mbar_cta = -1;
    r.status = SharedLoc(ops[k++], b, in.dst, "mbar", &mbar_cta, &t.mbar_addr);
    if (!r.status.ok()) {
      return r;
    }
    r.mbar_cta = mbar_cta;
    t.mbar_cta = mbar_cta;  // ExecuteTensor routes .cta_group::2 complete-tx by it
    if (!in.multicast && dst_cta >= 0 && mbar_cta >= 0) {
      const bool same = mbar_cta == dst_cta;
      if (in.cta_group == 2 ? !(same || mbar_cta == (dst_cta ^ 1)) : !same) {
        r.status = Bad("mbar", std::string("mbar is in CTA ") + std::to_string(mbar_cta) +
                                   " but dstMem in CTA " + std::to_string(dst_cta) +
                                   (in.cta_group == 2 ? ": .cta_group::2 allows that CTA or its "
                                                        "peer (seed 001 line 111)"
                                                      : ": .cta_group::1 needs the same CTA "
                                                        "(seed 001 line 109)"));
        return r;
      }
    }
    t.dst_cta = in.multicast ? -1 : dst_cta;
  } else if (!prefetch) {
    t.smem_space = SmemSpace::kSharedCta;
    int cta;
    r.status = SharedLoc(ops[k++], b, StateSpace::kSharedCta, "srcMem", &cta, &t.smem_addr);
    if (!r.status.ok()) {
      return r;
    }
  }
  if (k < ops.size() && ops[k].kind == Kind::kVector) {
    for (const PtxOperand& c : ops[k].elems) {
      int64_t v;
      r.status = Value(c, b, "im2colInfo", &v);
      if (!r.status.ok()) {
        return r;
      }
      if (v < 0 || v > 0xffff) {
        r.status = Bad("im2colInfo", "an im2colInfo element does not fit 16 bits");
        return r;
      }
      t.im2col_info.push_back(static_cast<uint16_t>(v));
    }
    ++k;
  }
  if (in.multicast) {
    int64_t v;
    r.status = Value(ops[k++], b, "ctaMask", &v);
    if (!r.status.ok()) {
      return r;
    }
    if (v < 0 || v > 0xffff) {
      r.status = Bad("ctaMask", "ctaMask is a 16-bit operand");
      return r;
    }
    t.cta_mask = static_cast<uint16_t>(v);
  }
  if (in.cache_hint) {
    int64_t v;
    r.status = Value(ops[k++], b, "cache-policy", &v);
    if (!r.status.ok()) {
      return r;
    }
    t.cache_policy = static_cast<uint64_t>(v);
  }
  return r;
}

BulkCopyConversion ToBulkCopyInstr(const PtxInstr& in, const PtxBindings& b, Target target) {
  BulkCopyConversion r;
  if (in.opcode != PtxOpcode::kBulk) {
    r.status = Bad("opcode", std::string(ToString(in.opcode)) + " is not cp.async.bulk");
    return r;
  }
  r.status = Check(in, target);
  if (!r.status.ok()) {
    return r;
  }
  BulkCopyInstr& c = r.instr;
  c.issuer_cta = b.issuer_cta;
  if (in.src == StateSpace::kGlobal) {
    c.dir = in.dst == StateSpace::kSharedCta ? BulkDir::kGlobalToSharedCta
                                             : BulkDir::kGlobalToSharedCluster;
  } else {
    c.dir = in.dst == StateSpace::kGlobal ? BulkDir::kSharedCtaToGlobal
                                          : BulkDir::kSharedCtaToSharedCluster;
  }
  const std::vector<PtxOperand>& ops = in.operands;
  size_t k = 0;
  int64_t v;
  auto fail = [&r](Status s) {
    r.status = std::move(s);
    return !r.status.ok();
  };
  if (in.dst == StateSpace::kGlobal) {
    if (fail(Value(ops[k++], b, "dstMem", &v))) {
      return r;
    }
    c.dst = static_cast<uint64_t>(v);
  } else {
    int cta;
    uint32_t off;
    if (fail(SharedLoc(ops[k++], b, in.dst, "dstMem", &cta, &off))) {
      return r;
    }
    c.dst = off;
    c.dst_cta = in.multicast ? -1 : cta;
  }
  if (in.src == StateSpace::kGlobal) {
    if (fail(Value(ops[k++], b, "srcMem", &v))) {
      return r;
    }
    c.src = static_cast<uint64_t>(v);
  } else {
    int cta;
    uint32_t off;
    if (fail(SharedLoc(ops[k++], b, StateSpace::kSharedCta, "srcMem", &cta, &off))) {
      return r;
    }
    c.src = off;
  }
  if (fail(Value(ops[k++], b, "size", &v))) {
    return r;
  }
  if (v < 0 || v > 0xffffffffll) {
    r.status = Bad("size", "size is a 32-bit operand");
    return r;
  }
  c.size = static_cast<uint32_t>(v);
  if (c.dir != BulkDir::kSharedCtaToGlobal) {
    int cta;
    if (fail(SharedLoc(ops[k++], b, in.dst, "mbar", &cta, &c.mbar_addr))) {
      return r;
    }
  }
  if (in.multicast) {
    if (fail(Value(ops[k++], b, "ctaMask", &v))) {
      return r;
    }
    c.multicast = true;
    if (v < 0 || v > 0xffff) {
      r.status = Bad("ctaMask", "ctaMask is a 16-bit operand");
      return r;
    }
    c.cta_mask = static_cast<uint16_t>(v);
  }
  if (in.cache_hint) {
    if (fail(Value(ops[k++], b, "cache-policy", &v))) {
      return r;
    }
    c.cache_policy = static_cast<uint64_t>(v);
  }
  if (in.cp_mask) {
    if (fail(Value(ops[k++], b, "byteMask", &v))) {
      return r;
    }
    c.byte_mask = static_cast<uint16_t>(v);
  }
  return r;
}

BulkReduceConversion ToBulkReduceInstr(const PtxInstr& in, const PtxBindings& b, Target target) {
  BulkReduceConversion r;
  if (in.opcode != PtxOpcode::kReduceBulk) {
    r.status = Bad("opcode", std::string(ToString(in.opcode)) + " is not cp.reduce.async.bulk");
    return r;
  }
  r.status = Check(in, target);
  if (!r.status.ok()) {
    return r;
  }
  BulkReduceInstr& c = r.instr;
  c.issuer_cta = b.issuer_cta;
  c.redop = *in.redop;
  c.type = *in.type;
  c.noftz = in.noftz;
  const bool global = in.dst == StateSpace::kGlobal;
  c.dir = global ? BulkDir::kSharedCtaToGlobal : BulkDir::kSharedCtaToSharedCluster;
  const std::vector<PtxOperand>& ops = in.operands;
  int64_t v;
  int cta;
  uint32_t off;
  if (global) {
    r.status = Value(ops[0], b, "dstMem", &v);
    c.dst = static_cast<uint64_t>(v);
  } else {
    r.status = SharedLoc(ops[0], b, in.dst, "dstMem", &cta, &off);
    c.dst = off;
    c.dst_cta = cta;
  }
  if (!r.status.ok()) {
    return r;
  }
  r.status = SharedLoc(ops[1], b, StateSpace::kSharedCta, "srcMem", &cta, &c.src);
  if (!r.status.ok()) {
    return r;
  }
  r.status = Value(ops[2], b, "size", &v);
  if (!r.status.ok()) {
    return r;
  }
  if (v < 0 || v > 0xffffffffll) {
    r.status = Bad("size", "size is a 32-bit operand");
    return r;
  }
  c.size = static_cast<uint32_t>(v);
  if (!global) {
    r.status = SharedLoc(ops[3], b, in.dst, "mbar", &cta, &c.mbar_addr);
  } else if (in.cache_hint) {
    r.status = Value(ops[3], b, "cache-policy", &v);
    c.cache_policy = static_cast<uint64_t>(v);
  }
  return r;
}

BulkPrefetchConversion ToBulkPrefetchInstr(const PtxInstr& in, const PtxBindings& b,
                                           Target target) {
  BulkPrefetchConversion r;
  if (in.opcode != PtxOpcode::kPrefetch) {
    r.status = Bad("opcode", std::string(ToString(in.opcode)) + " is not cp.async.bulk.prefetch");
    return r;
  }
  r.status = Check(in, target);
  if (!r.status.ok()) {
    return r;
  }
  int64_t v;
  r.status = Value(in.operands[0], b, "srcMem", &v);
  if (!r.status.ok()) {
    return r;
  }
  r.instr.src = static_cast<uint64_t>(v);
  r.status = Value(in.operands[1], b, "size", &v);
  if (!r.status.ok()) {
    return r;
  }
  if (v < 0 || v > 0xffffffffll) {
    r.status = Bad("size", "size is a 32-bit operand");
    return r;
  }
  r.instr.size = static_cast<uint32_t>(v);
  if (in.cache_hint) {
    r.status = Value(in.operands[2], b, "cache-policy", &v);
    r.instr.cache_policy = static_cast<uint64_t>(v);
  }
  return r;
}

}  // namespace tma::model
