// SPDX-License-Identifier: Apache-2.0
//
// Golden-case format: reader, writer, generators, hashing, conversion (see golden.h).
#include "tma/golden.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <openssl/evp.h>
#include <sstream>
#include <zlib.h>

namespace tma::model {

namespace {

using nlohmann::json;

// Thrown inside the parser only; ParseGoldenCase turns it into an error string.
struct KeyError {
  std::string key;
  std::string what;
};

[[noreturn]] void Fail(const std::string& key, const std::string& what) {
  throw KeyError{key, what};
}

const json& Req(const json& obj, const std::string& key, const std::string& path) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    Fail(path + key, "missing required key");
  }
  return *it;
}

std::string GetString(const json& v, const std::string& key) {
  if (!v.is_string()) {
    Fail(key, "must be a string");
  }
  return v.get<std::string>();
}

int64_t GetInt(const json& v, const std::string& key, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) {
    Fail(key, "must be an integer");
  }
  int64_t x;
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      Fail(key, "out of range");
    }
    x = static_cast<int64_t>(u);
  } else {
    x = v.get<int64_t>();
  }
  if (x < lo || x > hi) {
    Fail(key, "out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                  std::to_string(x) + ")");
  }
  return x;
}

uint64_t GetU64(const json& v, const std::string& key) {
  if (v.is_number_unsigned()) {
    return v.get<uint64_t>();
  }
  return static_cast<uint64_t>(GetInt(v, key, 0, std::numeric_limits<int64_t>::max()));
}

template <typename T>
std::vector<T> GetIntArray(const json& v, const std::string& key, int64_t lo, int64_t hi) {
  if (!v.is_array()) {
    Fail(key, "must be an array");
  }
  std::vector<T> out;
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back(static_cast<T>(GetInt(v[i], key + "[" + std::to_string(i) + "]", lo, hi)));
  }
  return out;
}

std::vector<uint64_t> GetU64Array(const json& v, const std::string& key) {
  if (!v.is_array()) {
    Fail(key, "must be an array");
  }
  std::vector<uint64_t> out;
  for (size_t i = 0; i < v.size(); ++i) {
    out.push_back(GetU64(v[i], key + "[" + std::to_string(i) + "]"));
  }
  return out;
}

template <typename E>
E GetEnum(const json& v, const std::string& key, std::optional<E> (*parse)(const std::string&)) {
  std::string s = GetString(v, key);
  std::optional<E> e = parse(s);
  if (!e) {
    Fail(key, "unknown value \"" + s + "\"");
  }
  return *e;
}

std::optional<WideMode> ParseWideMode(const std::string& s) {
  if (s == "w") {
    return WideMode::kW;
  }
  if (s == "w128") {
    return WideMode::kW128;
  }
  return std::nullopt;
}

GoldenFill ParseFill(const json& obj, const std::string& path) {
  GoldenFill f;
  std::string kind = GetString(Req(obj, "fill", path), path + "fill");
  if (kind == "splitmix64" || kind == "values") {
    f.kind = kind == "values" ? GoldenFill::Kind::kValues : GoldenFill::Kind::kSplitmix64;
    f.seed = GetU64(Req(obj, "seed", path), path + "seed");
  } else if (kind == "const") {
    f.kind = GoldenFill::Kind::kConst;
    f.value = static_cast<uint32_t>(GetInt(Req(obj, "value", path), path + "value", 0, 255));
  } else {
    Fail(path + "fill", "unknown fill \"" + kind + "\" (splitmix64, const, values)");
  }
  return f;
}

void PutFill(const GoldenFill& f, json* obj) {
  switch (f.kind) {
    case GoldenFill::Kind::kSplitmix64:
      (*obj)["fill"] = "splitmix64";
      (*obj)["seed"] = f.seed;
      break;
    case GoldenFill::Kind::kValues:
      (*obj)["fill"] = "values";
      (*obj)["seed"] = f.seed;
      break;
    case GoldenFill::Kind::kConst:
      (*obj)["fill"] = "const";
      (*obj)["value"] = f.value;
      break;
  }
}

bool IsIm2colMode(LoadMode m) {
  return m == LoadMode::kIm2col || m == LoadMode::kIm2colW || m == LoadMode::kIm2colW128 ||
         m == LoadMode::kIm2colNoOffs;
}

bool TakesIm2colInfo(const GoldenCase& c) {
  return (c.op == Op::kLoad || c.op == Op::kPrefetch) &&
         (c.mode == LoadMode::kIm2col || c.mode == LoadMode::kIm2colW ||
          c.mode == LoadMode::kIm2colW128);
}

GoldenTensor ParseTensor(const json& t, LoadMode mode) {
  const std::string p = "tensor.";
  if (!t.is_object()) {
    Fail("tensor", "must be an object");
  }
  GoldenTensor g;
  g.dtype = GetEnum<DType>(Req(t, "dtype", p), p + "dtype", ParseDType);
  g.rank = static_cast<int>(GetInt(Req(t, "rank", p), p + "rank", 0, 64));
  g.dims = GetU64Array(Req(t, "dims", p), p + "dims");
  g.strides = GetU64Array(Req(t, "strides", p), p + "strides");
  if (t.contains("element_strides")) {
    g.element_strides =
        GetIntArray<uint32_t>(t["element_strides"], p + "element_strides", 0, UINT32_MAX);
  }
  if (t.contains("interleave")) {
    g.interleave = GetEnum<Interleave>(t["interleave"], p + "interleave", ParseInterleave);
  }
  if (t.contains("swizzle")) {
    g.swizzle = GetEnum<Swizzle>(t["swizzle"], p + "swizzle", ParseSwizzle);
  }
  if (t.contains("l2_promotion")) {
    g.l2_promotion = GetEnum<L2Promotion>(t["l2_promotion"], p + "l2_promotion", ParseL2Promotion);
  }
  if (t.contains("oob_fill")) {
    g.oob_fill = GetEnum<OobFill>(t["oob_fill"], p + "oob_fill", ParseOobFill);
  }
  if (IsIm2colMode(mode)) {
    g.lower = GetIntArray<int32_t>(Req(t, "lower", p), p + "lower", INT32_MIN, INT32_MAX);
    g.upper = GetIntArray<int32_t>(Req(t, "upper", p), p + "upper", INT32_MIN, INT32_MAX);
    g.channels_per_pixel = static_cast<uint32_t>(
        GetInt(Req(t, "channels_per_pixel", p), p + "channels_per_pixel", 0, UINT32_MAX));
    if (mode == LoadMode::kIm2colW128 && !t.contains("pixels_per_column")) {
      g.pixels_per_column = 128;  // ::w::128 ignores ppc
    } else {
      g.pixels_per_column = static_cast<uint32_t>(
          GetInt(Req(t, "pixels_per_column", p), p + "pixels_per_column", 0, UINT32_MAX));
    }
    if (t.contains("wide_mode")) {
      g.wide_mode = GetEnum<WideMode>(t["wide_mode"], p + "wide_mode", ParseWideMode);
    } else if (mode == LoadMode::kIm2colW128) {
      g.wide_mode = WideMode::kW128;
    }
  } else {
    g.box = GetIntArray<uint32_t>(Req(t, "box", p), p + "box", 0, UINT32_MAX);
  }
  return g;
}

json TensorToJson(const GoldenTensor& g, LoadMode mode) {
  json t = json::object();
  t["dtype"] = ToString(g.dtype);
  t["rank"] = g.rank;
  t["dims"] = g.dims;
  t["strides"] = g.strides;
  if (!g.element_strides.empty()) {
    t["element_strides"] = g.element_strides;
  }
  t["interleave"] = ToString(g.interleave);
  t["swizzle"] = ToString(g.swizzle);
  t["l2_promotion"] = ToString(g.l2_promotion);
  t["oob_fill"] = ToString(g.oob_fill);
  if (IsIm2colMode(mode)) {
    t["lower"] = g.lower;
    t["upper"] = g.upper;
    t["channels_per_pixel"] = g.channels_per_pixel;
    t["pixels_per_column"] = g.pixels_per_column;
    if (mode == LoadMode::kIm2colW || mode == LoadMode::kIm2colW128) {
      t["wide_mode"] = g.wide_mode == WideMode::kW ? "w" : "w128";
    }
  } else {
    t["box"] = g.box;
  }
  return t;
}

// A string or an array of strings.
std::vector<std::string> GetStringOrArray(const json& v, const std::string& key, bool* is_array) {
  std::vector<std::string> out;
  if (v.is_string()) {
    *is_array = false;
    out.push_back(v.get<std::string>());
  } else if (v.is_array()) {
    *is_array = true;
    for (size_t i = 0; i < v.size(); ++i) {
      out.push_back(GetString(v[i], key + "[" + std::to_string(i) + "]"));
    }
  } else {
    Fail(key, "must be a string or an array of strings");
  }
  return out;
}

GoldenExpect ParseExpect(const json& e) {
  const std::string p = "expect.";
  if (!e.is_object()) {
    Fail("expect", "must be an object");
  }
  GoldenExpect x;
  if (e.contains("error")) {
    x.error = GetEnum<ErrorClass>(e["error"], p + "error", ParseErrorClass);
  }
  if (e.contains("complete_tx_bytes")) {
    const json& v = e["complete_tx_bytes"];
    if (v.is_array()) {
      x.complete_tx_is_array = true;
      x.complete_tx_bytes = GetIntArray<uint32_t>(v, p + "complete_tx_bytes", 0, UINT32_MAX);
    } else {
      x.complete_tx_bytes.push_back(
          static_cast<uint32_t>(GetInt(v, p + "complete_tx_bytes", 0, UINT32_MAX)));
    }
  }
  if (e.contains("smem")) {
    x.smem = GetStringOrArray(e["smem"], p + "smem", &x.smem_is_array);
  }
  if (e.contains("smem_sha256")) {
    x.smem_sha256 = GetStringOrArray(e["smem_sha256"], p + "smem_sha256", &x.smem_sha256_is_array);
  }
  if (e.contains("global_diff")) {
    const json& v = e["global_diff"];
    if (!v.is_array()) {
      Fail(p + "global_diff", "must be an array of [offset, \"hex\"] pairs");
    }
    std::vector<std::pair<uint64_t, std::string>> runs;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string k = p + "global_diff[" + std::to_string(i) + "]";
      if (!v[i].is_array() || v[i].size() != 2) {
        Fail(k, "must be an [offset, \"hex\"] pair");
      }
      runs.emplace_back(GetU64(v[i][0], k), GetString(v[i][1], k));
    }
    x.global_diff = std::move(runs);
  }
  if (e.contains("global_sha256")) {
    x.global_sha256 = GetString(e["global_sha256"], p + "global_sha256");
  }
  return x;
}

json ExpectToJson(const GoldenExpect& x) {
  json e = json::object();
  if (x.error) {
    e["error"] = ToString(*x.error);
  }
  if (!x.complete_tx_bytes.empty()) {
    if (x.complete_tx_is_array) {
      e["complete_tx_bytes"] = x.complete_tx_bytes;
    } else {
      e["complete_tx_bytes"] = x.complete_tx_bytes[0];
    }
  }
  if (!x.smem.empty()) {
    e["smem"] = x.smem_is_array ? json(x.smem) : json(x.smem[0]);
  }
  if (!x.smem_sha256.empty()) {
    e["smem_sha256"] = x.smem_sha256_is_array ? json(x.smem_sha256) : json(x.smem_sha256[0]);
  }
  if (x.global_diff) {
    json runs = json::array();
    for (const auto& r : *x.global_diff) {
      runs.push_back(json::array({r.first, r.second}));
    }
    e["global_diff"] = runs;
  }
  if (x.global_sha256) {
    e["global_sha256"] = *x.global_sha256;
  }
  return e;
}

const char* const kKnownKeys[] = {
    "id",     "source",     "ptx",     "op",         "redop",          "mode",   "tensor",
    "coords", "im2col",     "cluster", "global",     "smem",           "expect", "arch",
    "mbar",   "smem_space", "dst_cta", "store_clip", "descriptor_hex", "bulk"};

GoldenBulk ParseBulk(const json& b, Op op) {
  if (!b.is_object()) {
    Fail("bulk", "must be an object");
  }
  GoldenBulk r;
  r.size = static_cast<uint32_t>(GetInt(Req(b, "size", "bulk."), "bulk.size", 0, UINT32_MAX));
  const std::string dir = GetString(Req(b, "dir", "bulk."), "bulk.dir");
  bool known = op == Op::kPrefetch && dir == "L2.global";
  for (BulkDir d : {BulkDir::kGlobalToSharedCta, BulkDir::kGlobalToSharedCluster,
                    BulkDir::kSharedCtaToSharedCluster, BulkDir::kSharedCtaToGlobal}) {
    if (!known && dir == ToString(d)) {
      r.dir = d;
      known = true;
    }
  }
  if (!known) {
    Fail("bulk.dir",
         "must be shared::cta.global, shared::cluster.global, "
         "shared::cluster.shared::cta, global.shared::cta or (prefetch) L2.global");
  }
  const bool from_global =
      r.dir == BulkDir::kGlobalToSharedCta || r.dir == BulkDir::kGlobalToSharedCluster;
  if (op == Op::kPrefetch ? dir != "L2.global" : (op == Op::kLoad) != from_global) {
    Fail("bulk.dir", "\"" + dir + "\" does not go with op \"" + ToString(op) + "\"");
  }
  r.src = b.contains("src") ? GetU64(b["src"], "bulk.src") : 0;
  r.dst = b.contains("dst") ? GetU64(b["dst"], "bulk.dst") : 0;
  if (op == Op::kReduce) {
    r.type = GetEnum<BulkType>(Req(b, "type", "bulk."), "bulk.type", ParseBulkType);
  }
  if (b.contains("noftz")) {
    if (!b["noftz"].is_boolean()) {
      Fail("bulk.noftz", "must be true or false");
    }
    r.noftz = b["noftz"].get<bool>();
  }
  if (b.contains("cp_mask")) {
    r.cp_mask = static_cast<uint16_t>(GetInt(b["cp_mask"], "bulk.cp_mask", 0, 0xFFFF));
  }
  if (b.contains("size_check")) {
    const std::string sc = GetString(b["size_check"], "bulk.size_check");
    if (sc != "silicon" && sc != "ptx") {
      Fail("bulk.size_check", "must be \"silicon\" or \"ptx\"");
    }
    r.ptx_size_check = sc == "ptx";
  }
  return r;
}

json BulkToJson(const GoldenBulk& b, Op op) {
  json j = json::object();
  j["dir"] = op == Op::kPrefetch ? "L2.global" : ToString(b.dir);
  j["size"] = b.size;
  j["src"] = b.src;
  if (op != Op::kPrefetch) {
    j["dst"] = b.dst;
  }
  if (b.type) {
    j["type"] = ToString(*b.type);
  }
  if (b.noftz) {
    j["noftz"] = true;
  }
  if (b.cp_mask) {
    j["cp_mask"] = *b.cp_mask;
  }
  if (b.ptx_size_check) {
    j["size_check"] = "ptx";
  }
  return j;
}

void ParseCaseBody(const json& j, GoldenCase* c) {
  c->source = j.contains("source") ? GetString(j["source"], "source") : "";
  c->ptx = j.contains("ptx") ? GetString(j["ptx"], "ptx") : "";
  c->op = GetEnum<Op>(Req(j, "op", ""), "op", ParseOp);
  if (c->op == Op::kReduce) {
    c->redop = GetEnum<RedOp>(Req(j, "redop", ""), "redop", ParseRedOp);
  } else if (j.contains("redop")) {
    c->redop = GetEnum<RedOp>(j["redop"], "redop", ParseRedOp);
  }
  c->mode =
      j.contains("mode") ? GetEnum<LoadMode>(j["mode"], "mode", ParseLoadMode) : LoadMode::kTile;
  if (j.contains("bulk")) {
    // A non-tensor bulk operation: no tensor map, no coordinates. The fill's element type
    // ("values") is the reduction's .type.
    c->bulk = ParseBulk(j["bulk"], c->op);
    if (c->bulk->type) {
      c->tensor.dtype = BulkTypeDType(*c->bulk->type);
    }
  } else {
    c->tensor = ParseTensor(Req(j, "tensor", ""), c->mode);
    c->coords = GetIntArray<int32_t>(Req(j, "coords", ""), "coords", INT32_MIN, INT32_MAX);
  }
  if (TakesIm2colInfo(*c)) {
    c->im2col = GetIntArray<int32_t>(Req(j, "im2col", ""), "im2col", 0, 65535);
  } else if (j.contains("im2col")) {
    c->im2col = GetIntArray<int32_t>(j["im2col"], "im2col", 0, 65535);
  }
  if (j.contains("cluster")) {
    const json& k = j["cluster"];
    if (!k.is_object()) {
      Fail("cluster", "must be an object");
    }
    GoldenCluster cl;
    cl.ctas = static_cast<int>(GetInt(Req(k, "ctas", "cluster."), "cluster.ctas", 1, kMaxCtas));
    if (k.contains("issuer")) {
      cl.issuer = static_cast<int>(GetInt(k["issuer"], "cluster.issuer", 0, kMaxCtas - 1));
    }
    if (k.contains("cta_mask")) {
      cl.cta_mask = static_cast<uint16_t>(GetInt(k["cta_mask"], "cluster.cta_mask", 0, 0xFFFF));
    }
    if (k.contains("cta_group")) {
      cl.cta_group = static_cast<int>(GetInt(k["cta_group"], "cluster.cta_group", 0, 2));
    }
    if (k.contains("mbar_cta")) {
      cl.mbar_cta = static_cast<int>(GetInt(k["mbar_cta"], "cluster.mbar_cta", 0, kMaxCtas - 1));
    }
    c->cluster = cl;
  }
  const json& g = Req(j, "global", "");
  c->global.bytes = GetU64(Req(g, "bytes", "global."), "global.bytes");
  c->global.offset = g.contains("offset") ? GetU64(g["offset"], "global.offset") : 0;
  c->global.fill = ParseFill(g, "global.");
  if (c->op != Op::kPrefetch || j.contains("smem")) {
    const json& s = Req(j, "smem", "");
    GoldenSmem sm;
    sm.bytes = static_cast<uint32_t>(GetInt(Req(s, "bytes", "smem."), "smem.bytes", 0, 1 << 30));
    sm.dst = static_cast<uint32_t>(GetInt(Req(s, "dst", "smem."), "smem.dst", 0, UINT32_MAX));
    sm.fill = ParseFill(s, "smem.");
    c->smem = sm;
  }
  c->expect = ParseExpect(Req(j, "expect", ""));
  // Extensions.
  if (j.contains("arch")) {
    c->arch = GetString(j["arch"], "arch");
  }
  if (j.contains("mbar")) {
    c->mbar = static_cast<uint32_t>(GetInt(j["mbar"], "mbar", 0, UINT32_MAX));
  }
  if (j.contains("smem_space")) {
    std::string s = GetString(j["smem_space"], "smem_space");
    if (s == "cluster") {
      c->smem_space = SmemSpace::kSharedCluster;
    } else if (s == "cta") {
      c->smem_space = SmemSpace::kSharedCta;
    } else {
      Fail("smem_space", "must be \"cluster\" or \"cta\"");
    }
  }
  if (j.contains("dst_cta")) {
    c->dst_cta = static_cast<int>(GetInt(j["dst_cta"], "dst_cta", 0, kMaxCtas - 1));
  }
  if (j.contains("store_clip")) {
    std::string s = GetString(j["store_clip"], "store_clip");
    if (s != "granule" && s != "element") {
      Fail("store_clip", "must be \"granule\" or \"element\"");
    }
    c->store_clip_element = s == "element";
  }
  if (j.contains("descriptor_hex")) {
    std::string h = GetString(j["descriptor_hex"], "descriptor_hex");
    std::vector<uint8_t> bytes;
    if (!FromHex(h, &bytes) || bytes.size() != kDescriptorBytes) {
      Fail("descriptor_hex", "must be 256 hex digits (128 bytes)");
    }
    c->descriptor_hex = h;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const char* k : kKnownKeys) {
      known = known || it.key() == k;
    }
    if (!known) {
      c->extra[it.key()] = it.value();
    }
  }
}

bool IsFloatForValues(DType t) {
  switch (t) {
    case DType::kF16:
    case DType::kBF16:
    case DType::kF32:
    case DType::kF32Ftz:
    case DType::kTF32:
    case DType::kTF32Ftz:
    case DType::kF64:
      return true;
    default:
      return false;
  }
}

// Round-to-nearest-even of a finite double to a binary format with `mant` explicit
// mantissa bits and exponent bias `bias`, max biased exponent `emax_biased` (all ones = inf).
uint32_t RoundToSmallFloat(double v, int mant, int exp_bits) {
  const int bias = (1 << (exp_bits - 1)) - 1;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  uint32_t sign = std::signbit(v) ? 1u : 0u;
  uint32_t sign_bit = sign << (mant + exp_bits);
  if (std::isnan(v)) {
    return sign_bit | (exp_all << mant) | (1u << (mant - 1));
  }
  double a = std::fabs(v);
  if (std::isinf(a)) {
    return sign_bit | (exp_all << mant);
  }
  if (a == 0.0) {
    return sign_bit;
  }
  int e;
  std::frexp(a, &e);     // a = f * 2^e, f in [0.5, 1)
  int unbiased = e - 1;  // a = 1.xxx * 2^unbiased
  const int emin = 1 - bias;
  // Quantum (value of one unit in the last place) for this binade, subnormals share emin's.
  int q_exp = (unbiased < emin ? emin : unbiased) - mant;
  double scaled = std::ldexp(a, -q_exp);  // integer significand, exact in double here
  double r = std::nearbyint(scaled);      // default rounding mode: to nearest even
  uint64_t sig = static_cast<uint64_t>(r);
  int be = (unbiased < emin ? 0 : unbiased + bias);
  if (be == 0) {
    // Subnormal (sig < 2^mant) or rounded up into the smallest normal (sig == 2^mant).
    return sign_bit | static_cast<uint32_t>(sig);
  }
  if (sig >= (2ull << mant)) {  // rounding carried into the next binade
    sig >>= 1;
    ++be;
  }
  if (be >= static_cast<int>(exp_all)) {
    return sign_bit | (exp_all << mant);
  }
  return sign_bit | (static_cast<uint32_t>(be) << mant) |
         (static_cast<uint32_t>(sig) & ((1u << mant) - 1));
}

}  // namespace

uint32_t GoldenCase::Mbar() const {
  if (mbar) {
    return *mbar;
  }
  uint32_t bytes = smem ? smem->bytes : 0;
  return (bytes + 7u) & ~7u;
}

bool ParseGoldenCase(const json& j, GoldenCase* out, std::string* error) {
  GoldenCase c;
  if (!j.is_object()) {
    *error = "case is not a JSON object";
    return false;
  }
  auto id = j.find("id");
  if (id == j.end() || !id->is_string()) {
    *error = "case without an \"id\" string: missing required key 'id'";
    return false;
  }
  c.id = id->get<std::string>();
  if (c.id.size() > kGoldenMaxIdChars) {
    *error = "case id of " + std::to_string(c.id.size()) + " characters (at most " +
             std::to_string(kGoldenMaxIdChars) + "): '" + c.id.substr(0, 40) + "...'";
    return false;
  }
  try {
    ParseCaseBody(j, &c);
  } catch (const KeyError& e) {
    *error = "case '" + c.id + "': " + e.what + ": '" + e.key + "'";
    return false;
  } catch (const json::exception& e) {
    *error = "case '" + c.id + "': " + e.what();
    return false;
  }
  *out = std::move(c);
  return true;
}

json GoldenCaseToJson(const GoldenCase& c) {
  json j = json::object();
  j["id"] = c.id;
  j["source"] = c.source;
  if (!c.ptx.empty()) {
    j["ptx"] = c.ptx;
  }
  j["op"] = ToString(c.op);
  if (c.op == Op::kReduce) {
    j["redop"] = ToString(c.redop);
  }
  if (c.bulk) {
    j["bulk"] = BulkToJson(*c.bulk, c.op);
  } else {
    j["mode"] = ToString(c.mode);
    j["tensor"] = TensorToJson(c.tensor, c.mode);
    j["coords"] = c.coords;
  }
  if (!c.im2col.empty() || TakesIm2colInfo(c)) {
    j["im2col"] = c.im2col;
  }
  if (c.cluster) {
    json k = json::object();
    k["ctas"] = c.cluster->ctas;
    k["issuer"] = c.cluster->issuer;
    if (c.cluster->cta_mask) {
      k["cta_mask"] = *c.cluster->cta_mask;
    }
    if (c.cluster->cta_group) {
      k["cta_group"] = c.cluster->cta_group;
    }
    if (c.cluster->mbar_cta) {
      k["mbar_cta"] = *c.cluster->mbar_cta;
    }
    j["cluster"] = k;
  }
  json g = json::object();
  g["bytes"] = c.global.bytes;
  g["offset"] = c.global.offset;
  PutFill(c.global.fill, &g);
  j["global"] = g;
  if (c.smem) {
    json s = json::object();
    s["bytes"] = c.smem->bytes;
    s["dst"] = c.smem->dst;
    PutFill(c.smem->fill, &s);
    j["smem"] = s;
  }
  j["expect"] = ExpectToJson(c.expect);
  if (c.arch != "sm_90") {
    j["arch"] = c.arch;
  }
  if (c.mbar) {
    j["mbar"] = *c.mbar;
  }
  if (c.smem_space == SmemSpace::kSharedCta) {
    j["smem_space"] = "cta";
  }
  if (c.dst_cta) {
    j["dst_cta"] = *c.dst_cta;
  }
  if (c.store_clip_element) {
    j["store_clip"] = "element";
  }
  if (c.descriptor_hex) {
    j["descriptor_hex"] = *c.descriptor_hex;
  }
  for (auto it = c.extra.begin(); it != c.extra.end(); ++it) {
    j[it.key()] = it.value();
  }
  return j;
}

bool CheckGoldenLimits(const GoldenCase& c, const GoldenLimits& limits, std::string* error) {
  // Each term is at most 2^64 - 1 and the product at most 16 x 2^30: no overflow below.
  const uint64_t smem = c.smem ? static_cast<uint64_t>(c.smem->bytes) * c.NumCtas() : 0;
  const uint64_t g = c.global.bytes;
  if (g > limits.max_case_bytes || smem > limits.max_case_bytes - g) {
    *error = "case '" + c.id + "': declares " +
             (g > limits.max_case_bytes
                  ? "global.bytes " + std::to_string(g)
                  : std::to_string(g) + " global + " + std::to_string(smem) + " shared bytes") +
             ", more than the limit of " + std::to_string(limits.max_case_bytes) +
             " bytes per case (--max-case-bytes raises it)";
    return false;
  }
  return true;
}

bool ForEachGoldenCase(const std::string& path, const GoldenLimits& limits,
                       const std::function<bool(GoldenCase&&)>& fn, std::string* error) {
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files transparently
  if (f == nullptr) {
    *error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::string line;  // the current line, up to limits.max_line_bytes
  int64_t line_no = 0;
  bool blank = true;  // only blanks so far on this line (nothing of it is kept)
  bool ok = true;
  bool stop = false;
  // One complete line: parse it unless it is blank or a comment.
  auto finish = [&]() {
    ++line_no;
    const bool skip = line[0] == '#';  // line starts with its first non-blank character
    std::string text;
    text.swap(line);
    blank = true;
    if (skip) {
      return true;
    }
    json j;
    try {
      j = json::parse(text);
    } catch (const json::exception& e) {
      *error = path + ":" + std::to_string(line_no) + ": not valid JSON: " + e.what();
      return false;
    }
    text.clear();
    text.shrink_to_fit();
    GoldenCase c;
    std::string err;
    if (!ParseGoldenCase(j, &c, &err) || !CheckGoldenLimits(c, limits, &err)) {
      *error = path + ":" + std::to_string(line_no) + ": " + err;
      return false;
    }
    stop = !fn(std::move(c));
    return true;
  };
  static constexpr size_t kChunk = size_t{1} << 16;
  std::vector<char> buf(kChunk);
  int n = 0;
  while (ok && !stop && (n = gzread(f, buf.data(), static_cast<unsigned>(kChunk))) > 0) {
    for (int i = 0; i < n && ok && !stop;) {
      if (blank) {  // blank lines and leading blanks are skipped here, nothing of them kept
        while (i < n && (buf[i] == '\n' || buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r')) {
          line_no += buf[i] == '\n';
          ++i;
        }
        if (i == n) {
          break;
        }
        blank = false;
      }
      const char* p = buf.data() + i;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(n - i)));
      const size_t len = nl ? static_cast<size_t>(nl - p) : static_cast<size_t>(n - i);
      if (line.size() + len > limits.max_line_bytes) {
        *error = path + ":" + std::to_string(line_no + 1) + ": line longer than the limit of " +
                 std::to_string(limits.max_line_bytes) + " bytes (--max-line-bytes raises it)";
        ok = false;
        break;
      }
      line.append(p, len);
      i += static_cast<int>(len) + (nl ? 1 : 0);
      if (nl) {
        ok = finish();
      }
    }
  }
  if (ok && !stop) {
    int errnum = 0;
    const char* zmsg = gzerror(f, &errnum);
    if (n < 0 || (errnum != Z_OK && errnum != Z_STREAM_END)) {
      *error = path + ": read error: " + (zmsg ? zmsg : "?");
      ok = false;
    } else if (!blank) {
      ok = finish();  // a last line without '\n'
    }
  }
  gzclose(f);
  return ok;
}

bool ReadGoldenFile(const std::string& path, std::vector<GoldenCase>* out, std::string* error,
                    const GoldenLimits& limits) {
  return ForEachGoldenCase(
      path, limits,
      [out](GoldenCase&& c) {
        out->push_back(std::move(c));
        return true;
      },
      error);
}

bool WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases,
                     std::string* error) {
  std::string text;
  for (const GoldenCase& c : cases) {
    text += GoldenCaseToJson(c).dump();
    text += '\n';
  }
  bool gz = path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  gzFile f = gzopen(path.c_str(), gz ? "wb9" : "wbT");  // "T": plain (transparent) write
  if (f == nullptr) {
    *error = path + ": cannot open for writing: " + std::strerror(errno);
    return false;
  }
  size_t done = 0;
  while (done < text.size()) {
    unsigned chunk = static_cast<unsigned>(std::min<size_t>(text.size() - done, 1u << 20));
    int w = gzwrite(f, text.data() + done, chunk);
    if (w <= 0) {
      int errnum = 0;
      *error = path + ": write error: " + gzerror(f, &errnum);
      gzclose(f);
      return false;
    }
    done += static_cast<size_t>(w);
  }
  if (gzclose(f) != Z_OK) {
    *error = path + ": close failed";
    return false;
  }
  return true;
}

namespace {
// SplitMix64's output function, inlined into the fill loops (a fill of a large buffer runs it
// once per byte).
inline uint64_t Mix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
}  // namespace

uint64_t SplitMix64(uint64_t x) {
  return Mix64(x);
}

uint16_t DoubleToF16(double v) {
  return static_cast<uint16_t>(RoundToSmallFloat(v, 10, 5));
}
uint16_t DoubleToBf16(double v) {
  return static_cast<uint16_t>(RoundToSmallFloat(v, 7, 8));
}

bool GenerateFill(const GoldenFill& fill, DType dtype, size_t bytes, std::vector<uint8_t>* out,
                  std::string* error) {
  out->assign(bytes, 0);
  switch (fill.kind) {
    case GoldenFill::Kind::kConst:
      std::fill(out->begin(), out->end(), static_cast<uint8_t>(fill.value));
      return true;
    case GoldenFill::Kind::kSplitmix64: {
      uint8_t* p = out->data();
      for (size_t i = 0; i < bytes; ++i) {
        p[i] = static_cast<uint8_t>(Mix64(fill.seed + i) & 0xFF);
      }
      return true;
    }
    case GoldenFill::Kind::kValues:
      break;
  }
  if (!IsFloatForValues(dtype)) {
    *error =
        std::string("fill \"values\" needs a floating-point dtype (got ") + ToString(dtype) + ")";
    return false;
  }
  const size_t esize = dtype == DType::kF64                              ? 8
                       : (dtype == DType::kF16 || dtype == DType::kBF16) ? 2
                                                                         : 4;
  for (size_t i = 0; i * esize < bytes; ++i) {
    int k = static_cast<int>(SplitMix64(fill.seed + i) % 2001) - 1000;
    double v = static_cast<double>(k) / 8.0;
    uint64_t bits = 0;
    if (dtype == DType::kF16) {
      bits = DoubleToF16(v);
    } else if (dtype == DType::kBF16) {
      bits = DoubleToBf16(v);
    } else if (dtype == DType::kF64) {
      std::memcpy(&bits, &v, 8);
    } else {
      float f = static_cast<float>(v);  // exact: |k| <= 1000 needs 10 significant bits
      uint32_t u;
      std::memcpy(&u, &f, 4);
      bits = u;
    }
    for (size_t b = 0; b < esize && i * esize + b < bytes; ++b) {
      (*out)[i * esize + b] = static_cast<uint8_t>(bits >> (8 * b));
    }
  }
  return true;
}

std::string Sha256Hex(const uint8_t* data, size_t n) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  EVP_DigestUpdate(ctx, data, n);
  EVP_DigestFinal_ex(ctx, md, &len);
  EVP_MD_CTX_free(ctx);
  return ToHex(md, len);
}

std::string ToHex(const uint8_t* data, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = kDigits[data[i] >> 4];
    s[2 * i + 1] = kDigits[data[i] & 15];
  }
  return s;
}

bool FromHex(const std::string& hex, std::vector<uint8_t>* out) {
  if (hex.size() % 2 != 0) {
    return false;
  }
  auto nib = [](char ch) -> int {
    if (ch >= '0' && ch <= '9') {
      return ch - '0';
    }
    if (ch >= 'a' && ch <= 'f') {
      return ch - 'a' + 10;
    }
    if (ch >= 'A' && ch <= 'F') {
      return ch - 'A' + 10;
    }
    return -1;
  };
  out->assign(hex.size() / 2, 0);
  for (size_t i = 0; i < out->size(); ++i) {
    int hi = nib(hex[2 * i]);
    int lo = nib(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      return false;
    }
    (*out)[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

Status CaseTensorMap(const GoldenCase& c, uint64_t global_base, TensorMap* map) {
  const GoldenTensor& t = c.tensor;
  auto bad = [](const std::string& field, const std::string& msg) {
    return Status::Error(ErrorClass::kInvalidDescriptor, field, msg);
  };
  if (t.rank < 1 || t.rank > kMaxRank) {
    return bad("tensorRank", "must be 1..5 (got " + std::to_string(t.rank) + ")");
  }
  const size_t r = static_cast<size_t>(t.rank);
  if (t.dims.size() != r) {
    return bad("globalDim", "the case gives " + std::to_string(t.dims.size()) + " dims for rank " +
                                std::to_string(r));
  }
  if (t.strides.size() != r - 1) {
    return bad("globalStrides", "the case gives " + std::to_string(t.strides.size()) +
                                    " strides for rank " + std::to_string(r));
  }
  if (!t.element_strides.empty() && t.element_strides.size() != r) {
    return bad("elementStrides", "the case gives " + std::to_string(t.element_strides.size()) +
                                     " element strides for rank " + std::to_string(r));
  }
  TensorMap m;
  switch (c.mode) {
    case LoadMode::kIm2col:
    case LoadMode::kIm2colNoOffs:
      m.mode = MapMode::kIm2col;
      break;
    case LoadMode::kIm2colW:
    case LoadMode::kIm2colW128:
      m.mode = MapMode::kIm2colWide;
      break;
    default:
      m.mode = MapMode::kTiled;
      break;
  }
  m.global_address = global_base + c.global.offset;
  m.rank = t.rank;
  m.dtype = t.dtype;
  for (size_t i = 0; i < r; ++i) {
    m.dims[i] = t.dims[i];
    m.element_strides[i] = t.element_strides.empty() ? 1 : t.element_strides[i];
  }
  for (size_t i = 0; i + 1 < r; ++i) {
    m.strides[i] = t.strides[i];
  }
  m.interleave = t.interleave;
  m.swizzle = t.swizzle;
  m.l2_promotion = t.l2_promotion;
  m.oob_fill = t.oob_fill;
  if (m.mode == MapMode::kTiled) {
    if (t.box.size() != r) {
      return bad("boxDim", "the case gives " + std::to_string(t.box.size()) +
                               " box dims for rank " + std::to_string(r));
    }
    for (size_t i = 0; i < r; ++i) {
      m.box[i] = t.box[i];
    }
  } else {
    const size_t corners = m.mode == MapMode::kIm2colWide ? 1 : (r >= 2 ? r - 2 : 0);
    if (t.lower.size() != corners || t.upper.size() != corners) {
      return bad("pixelBoxLowerCorner", "the case gives " + std::to_string(t.lower.size()) + "/" +
                                            std::to_string(t.upper.size()) + " corners; rank " +
                                            std::to_string(r) + " needs " +
                                            std::to_string(corners));
    }
    for (size_t i = 0; i < corners && i < m.lower.size(); ++i) {
      m.lower[i] = t.lower[i];
      m.upper[i] = t.upper[i];
    }
    m.channels_per_pixel = t.channels_per_pixel;
    m.pixels_per_column = t.pixels_per_column;
    m.wide_mode = t.wide_mode;
  }
  *map = m;
  return Status::Ok();
}

TensorInstr CaseInstr(const GoldenCase& c) {
  TensorInstr in;
  in.op = c.op;
  in.mode = c.mode;
  in.dim = c.tensor.rank;
  // The first ".tensor.Nd" of the ptx text, N in 1..9 (a plain scan: no recursion on long text).
  static constexpr char kTensor[] = ".tensor.";
  static constexpr size_t kLen = sizeof(kTensor) - 1;
  for (size_t at = c.ptx.find(kTensor); at != std::string::npos; at = c.ptx.find(kTensor, at + 1)) {
    if (at + kLen + 1 < c.ptx.size() && c.ptx[at + kLen] >= '1' && c.ptx[at + kLen] <= '9' &&
        c.ptx[at + kLen + 1] == 'd') {
      in.dim = c.ptx[at + kLen] - '0';
      break;
    }
  }
  in.redop = c.redop;
  in.coords = c.coords;
  for (int32_t v : c.im2col) {
    in.im2col_info.push_back(static_cast<uint16_t>(v));
  }
  in.smem_space = c.smem_space;
  in.smem_addr = c.smem ? c.smem->dst : 0;
  in.mbar_addr = c.Mbar();
  in.issuer_cta = c.Issuer();
  in.dst_cta = c.dst_cta ? *c.dst_cta : -1;
  if (c.cluster && c.cluster->cta_mask) {
    in.multicast = true;
    in.cta_mask = *c.cluster->cta_mask;
  }
  in.cta_group = c.cluster ? c.cluster->cta_group : 0;
  in.mbar_cta = c.op == Op::kLoad && c.cluster && c.cluster->mbar_cta ? *c.cluster->mbar_cta : -1;
  return in;
}

DType BulkTypeDType(BulkType t) {
  switch (t) {
    case BulkType::kB32:
    case BulkType::kU32:
      return DType::kU32;
    case BulkType::kS32:
      return DType::kS32;
    case BulkType::kB64:
    case BulkType::kU64:
      return DType::kU64;
    case BulkType::kS64:
      return DType::kS64;
    case BulkType::kF16:
      return DType::kF16;
    case BulkType::kBF16:
      return DType::kBF16;
    case BulkType::kF32:
      return DType::kF32;
    case BulkType::kF64:
      return DType::kF64;
  }
  return DType::kU8;
}

bool CaseWritesSmem(const GoldenCase& c) {
  if (c.bulk && c.op != Op::kPrefetch) {
    return c.bulk->dir != BulkDir::kSharedCtaToGlobal;
  }
  return c.op == Op::kLoad;
}

std::vector<int> DestinationCtas(const GoldenCase& c) {
  std::vector<int> out;
  if (!CaseWritesSmem(c)) {
    return out;
  }
  if (c.cluster && c.cluster->cta_mask) {
    for (int i = 0; i < kMaxCtas; ++i) {
      if ((*c.cluster->cta_mask >> i) & 1) {
        out.push_back(i);
      }
    }
    return out;
  }
  out.push_back(c.dst_cta ? *c.dst_cta : c.Issuer());
  return out;
}

}  // namespace tma::model
