// SPDX-License-Identifier: Apache-2.0
//
// Golden-case replay: memories from the generators, one engine run, comparison with expect.
#include "tma/golden_replay.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>

#include "tma/descriptor.h"
#include "tma/encoder.h"
#include "tma/swizzle.h"
#include "tma/tensor_copy.h"
#include "tma/traversal.h"

namespace tma::model {

namespace {

std::string Hex2(int v) {
  static const char kDigits[] = "0123456789abcdef";
  if (v < 0) {
    return "??";
  }
  return std::string{kDigits[(v >> 4) & 15], kDigits[v & 15]};
}

std::string JoinCoords(const std::array<int64_t, kMaxRank>& a, int n) {
  std::string s = "(";
  for (int i = 0; i < n; ++i) {
    s += (i ? "," : "") + std::to_string(a[static_cast<size_t>(i)]);
  }
  return s + ")";
}

bool IsTileLike(LoadMode m) {
  return m == LoadMode::kTile || m == LoadMode::kTileGather4 || m == LoadMode::kTileScatter4;
}

std::string DescribeVisit(const TensorMap& m, const TensorInstr& ins, const ElementVisit& v,
                          uint32_t byte_in_unit) {
  const int n_box = IsTileLike(ins.mode) ? m.rank : 2;
  std::string s =
      "element box " + JoinCoords(v.box_index, n_box) + " tensor " + JoinCoords(v.coords, m.rank);
  if (v.oob) {
    s += " (out of bounds)";
  }
  s += ", byte " + std::to_string(byte_in_unit) + " of " + std::to_string(v.bytes);
  return s;
}

// The first index where a and b differ, or -1.
int64_t FirstDiff(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = std::min(a.size(), b.size());
  if (n > 0 && std::memcmp(a.data(), b.data(), n) == 0) {
    return a.size() == b.size() ? -1 : static_cast<int64_t>(n);
  }
  for (size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) {
      return static_cast<int64_t>(i);
    }
  }
  return a.size() == b.size() ? -1 : static_cast<int64_t>(n);
}

class Checker {
 public:
  explicit Checker(ReplayResult* r) : r_(r) {}
  void Fail(const std::string& line) {
    if (r_->verdict != Verdict::kFail) {
      r_->verdict = Verdict::kFail;
      r_->reason = line;
    }
    r_->details.push_back(line);
  }

 private:
  ReplayResult* r_;
};

}  // namespace

const char* ToString(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "PASS";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kSkip:
      return "SKIP";
  }
  return "?";
}

bool FlatGlobalMemory::Read(uint64_t addr, uint8_t* dst, size_t n) {
  if (addr < base_ || addr - base_ > bytes_.size() || n > bytes_.size() - (addr - base_)) {
    return false;
  }
  if (n) {
    std::memcpy(dst, bytes_.data() + (addr - base_), n);
  }
  return true;
}

bool FlatGlobalMemory::Write(uint64_t addr, const uint8_t* src, size_t n) {
  if (addr < base_ || addr - base_ > bytes_.size() || n > bytes_.size() - (addr - base_)) {
    return false;
  }
  if (n) {
    std::memcpy(bytes_.data() + (addr - base_), src, n);
  }
  return true;
}

bool FlatSharedMemory::Read(int cta, uint32_t addr, uint8_t* dst, size_t n) {
  if (cta < 0 || cta >= NumCtas()) {
    return false;
  }
  const auto& w = windows_[static_cast<size_t>(cta)];
  if (addr > w.size() || n > w.size() - addr) {
    return false;
  }
  if (n) {
    std::memcpy(dst, w.data() + addr, n);
  }
  return true;
}

bool FlatSharedMemory::Write(int cta, uint32_t addr, const uint8_t* src, size_t n) {
  if (cta < 0 || cta >= NumCtas()) {
    return false;
  }
  auto& w = windows_[static_cast<size_t>(cta)];
  if (addr > w.size() || n > w.size() - addr) {
    return false;
  }
  if (n) {
    std::memcpy(w.data() + addr, src, n);
  }
  return true;
}

uint64_t CaseGlobalBase(const GoldenCase& c) {
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (FromHex(*c.descriptor_hex, &d) && d.size() >= 8) {
      uint64_t addr = 0;
      for (int i = 7; i >= 0; --i) {
        addr = addr << 8 | d[static_cast<size_t>(i)];
      }
      return addr - c.global.offset;
    }
  }
  return kGoldenGlobalBase;
}

Status CaseMap(const GoldenCase& c, TensorMap* map) {
  if (c.descriptor_hex) {
    std::vector<uint8_t> d;
    if (!FromHex(*c.descriptor_hex, &d) || d.size() != kDescriptorBytes) {
      return Status::Error(ErrorClass::kInvalidDescriptor, "descriptor_hex",
                           "not 128 bytes of hex");
    }
    return DecodeDescriptor(d.data(), map);
  }
  return CaseTensorMap(c, kGoldenGlobalBase, map);
}

namespace {

// A `bulk` case through the model's bulk_copy API: global operands are buffer offsets.
CaseOutcome RunBulk(const GoldenCase& c, GlobalMemoryIf& global, SharedMemoryIf& smem) {
  const GoldenBulk& b = *c.bulk;
  const uint64_t base = CaseGlobalBase(c);
  const int dst_cta = c.dst_cta ? *c.dst_cta : -1;
  BulkResult r;
  if (c.op == Op::kPrefetch) {
    BulkPrefetchInstr in;
    in.src = base + b.src;
    in.size = b.size;
    in.ptx_size_check = b.ptx_size_check;
    r = ExecuteBulkPrefetch(in);
  } else if (c.op == Op::kReduce) {
    BulkReduceInstr in;
    in.dir = b.dir;
    in.redop = c.redop;
    in.type = b.type.value_or(BulkType::kU32);
    in.noftz = b.noftz;
    in.dst = b.dir == BulkDir::kSharedCtaToGlobal ? base + b.dst : b.dst;
    in.src = static_cast<uint32_t>(b.src);
    in.size = b.size;
    in.mbar_addr = c.Mbar();
    in.issuer_cta = c.Issuer();
    in.dst_cta = dst_cta;
    in.ptx_size_check = b.ptx_size_check;
    r = ExecuteBulkReduce(in, global, smem);
  } else {
    BulkCopyInstr in;
    in.dir = b.dir;
    const bool from_global =
        b.dir == BulkDir::kGlobalToSharedCta || b.dir == BulkDir::kGlobalToSharedCluster;
    in.src = from_global ? base + b.src : b.src;
    in.dst = b.dir == BulkDir::kSharedCtaToGlobal ? base + b.dst : b.dst;
    in.size = b.size;
    in.mbar_addr = c.Mbar();
    in.issuer_cta = c.Issuer();
    in.dst_cta = dst_cta;
    if (c.cluster && c.cluster->cta_mask) {
      in.multicast = true;
      in.cta_mask = *c.cluster->cta_mask;
    }
    in.byte_mask = b.cp_mask;
    in.ptx_size_check = b.ptx_size_check;
    r = ExecuteBulkCopy(in, global, smem);
  }
  CaseOutcome out;
  out.status = r.status;
  out.complete_tx = r.complete_tx;
  return out;
}

}  // namespace

CaseOutcome ModelEngine::Run(const GoldenCase& c, GlobalMemoryIf& global, SharedMemoryIf& smem) {
  CaseOutcome out;
  std::optional<Arch> arch = ParseArch(c.arch);
  if (!arch) {
    out.supported = false;
    out.skip_reason = "the model does not know arch \"" + c.arch + "\"";
    return out;
  }
  if (c.bulk) {
    return RunBulk(c, global, smem);
  }
  TensorMap map;
  out.status = CaseMap(c, &map);
  if (!out.status.ok()) {
    return out;
  }
  ExecOptions o;
  o.arch = *arch;
  o.element_exact_store_clip = c.store_clip_element;
  o.on_effect = on_effect_;
  ExecResult r = ExecuteTensor(map, CaseInstr(c), global, smem, o);
  out.status = r.status;
  out.complete_tx = r.complete_tx;
  return out;
}

std::string DescribeSmemByte(const GoldenCase& c, uint64_t offset) {
  if (c.bulk) {
    return offset >= c.bulk->dst && offset - c.bulk->dst < c.bulk->size
               ? "byte " + std::to_string(offset - c.bulk->dst) + " of the bulk destination"
               : "outside the bulk destination";
  }
  TensorMap m;
  if (!CaseMap(c, &m).ok() || !c.smem) {
    return "";
  }
  TensorInstr ins = CaseInstr(c);
  std::string found;
  ForEachElement(m, ins, [&](const ElementVisit& v) {
    if (!found.empty()) {
      return;
    }
    for (uint32_t k = 0; k < v.bytes; ++k) {
      uint32_t a = SwizzleAddress(ins.smem_addr + v.smem_offset + k, m.swizzle);
      if (a == offset) {
        found = DescribeVisit(m, ins, v, k);
        return;
      }
    }
  });
  if (found.empty()) {
    return "no element of the box is placed there (outside the box or swizzle padding)";
  }
  return found;
}

std::string DescribeGlobalByte(const GoldenCase& c, uint64_t offset) {
  if (c.bulk) {
    return offset >= c.bulk->dst && offset - c.bulk->dst < c.bulk->size
               ? "byte " + std::to_string(offset - c.bulk->dst) + " of the bulk destination"
               : "outside the bulk destination";
  }
  TensorMap m;
  if (!CaseMap(c, &m).ok()) {
    return "";
  }
  TensorInstr ins = CaseInstr(c);
  const uint64_t addr = CaseGlobalBase(c) + offset;
  const uint32_t esize = static_cast<uint32_t>(ElementBytes(m.dtype));
  std::string found;
  ForEachElement(m, ins, [&](const ElementVisit& v) {
    if (!found.empty()) {
      return;
    }
    uint64_t ga = v.global_addr;
    if (v.oob) {
      // Out-of-bounds elements have no address from the traversal; a tile store may still
      // write them (16-byte granules, D7). Compute the address the tensor formula gives.
      if (!IsTileLike(ins.mode) || m.interleave != Interleave::kNone) {
        return;
      }
      bool negative = false;
      ga = m.global_address;
      for (int d = 0; d < m.rank; ++d) {
        int64_t x = v.coords[static_cast<size_t>(d)];
        negative = negative || x < 0;
        ga += static_cast<uint64_t>(x) * (d == 0 ? esize : m.strides[static_cast<size_t>(d - 1)]);
      }
      if (negative) {
        return;
      }
    }
    uint32_t n = v.bytes ? v.bytes : esize;
    if (addr >= ga && addr < ga + n) {
      found = DescribeVisit(m, ins, v, static_cast<uint32_t>(addr - ga));
    }
  });
  if (found.empty()) {
    return "no element of the box lives there";
  }
  return found;
}

ReplayResult ReplayCase(const GoldenCase& c, CaseEngine& engine) {
  ReplayResult res;
  Checker check(&res);
  const DType dtype = c.tensor.dtype;
  std::string err;
  std::vector<uint8_t> g0, s0;
  if (!GenerateFill(c.global.fill, dtype, c.global.bytes, &g0, &err)) {
    check.Fail("global: " + err);
    return res;
  }
  if (c.smem && !GenerateFill(c.smem->fill, dtype, c.smem->bytes, &s0, &err)) {
    check.Fail("smem: " + err);
    return res;
  }
  const int ctas = c.NumCtas();
  FlatGlobalMemory global(CaseGlobalBase(c), g0);
  FlatSharedMemory smem(ctas, s0);

  CaseOutcome out = engine.Run(c, global, smem);
  if (!out.supported) {
    res.verdict = Verdict::kSkip;
    res.reason = engine.Name() + " does not support this case: " + out.skip_reason;
    return res;
  }
  const GoldenExpect& x = c.expect;
  const std::optional<ErrorClass> want_err = x.error;
  // The skip policy (docs/verification.md): an engine declines a case only before it runs,
  // through `supported` (a case outside what it claims). An `unsupported` answer from a case it
  // ran is a failure like any other wrong answer, so an engine that answered `unsupported` to
  // everything could not pass.
  if (out.status.cls == ErrorClass::kUnsupported &&
      (!want_err || *want_err != ErrorClass::kUnsupported)) {
    check.Fail(engine.Name() + " answered " + out.status.ToString() +
               " to a case it claims (expected " +
               (want_err ? std::string(ToString(*want_err)) : std::string("success")) + ")");
    return res;
  }
  if (want_err) {
    if (out.status.cls != *want_err) {
      check.Fail(std::string("error: expected ") + ToString(*want_err) + ", got " +
                 (out.status.ok() ? std::string("success") : out.status.ToString()));
    }
    return res;
  }
  if (!out.status.ok()) {
    check.Fail("error: expected success, got " + out.status.ToString());
    return res;
  }

  // ---- complete-tx ----
  const std::vector<int> dests = DestinationCtas(c);
  const uint32_t mbar = c.Mbar();
  const bool writes_smem = CaseWritesSmem(c);
  if (!writes_smem) {
    if (!out.complete_tx.empty()) {
      check.Fail("complete_tx: a " + std::string(ToString(c.op)) + " signalled " +
                 std::to_string(out.complete_tx.size()) + " complete-tx (expected none)");
    }
  } else if (!x.complete_tx_bytes.empty()) {
    // cta_group::2 with the CTA holding mbar known: every CTA's barrier is compared with what
    // the peer routing of §10 sends it. Without mbar_cta only the total is compared.
    const bool routed = c.cluster && c.cluster->cta_group == 2 && c.cluster->mbar_cta;
    std::map<int, uint64_t> got;
    uint64_t total = 0;
    for (const CompleteTx& t : out.complete_tx) {
      got[t.cta] += t.bytes;
      total += t.bytes;
      if (t.mbar_addr != mbar && (!c.cluster || c.cluster->cta_group != 2 || routed)) {
        check.Fail("complete_tx: signalled the mbarrier at offset " + std::to_string(t.mbar_addr) +
                   " of CTA " + std::to_string(t.cta) + " (expected offset " +
                   std::to_string(mbar) + ")");
      }
    }
    auto want_for = [&](int cta) -> uint64_t {
      if (x.complete_tx_is_array) {
        return static_cast<size_t>(cta) < x.complete_tx_bytes.size()
                   ? x.complete_tx_bytes[static_cast<size_t>(cta)]
                   : 0;
      }
      return x.complete_tx_bytes[0];
    };
    if (routed) {
      // Number form: each destination d's bytes go to the CTA of d's pair {2k, 2k+1} with
      // mbar_cta's parity, written out here rather than taken from the model (RouteCompleteTx).
      // Array form: the bytes each CTA's barrier receives, routing already applied.
      std::map<int, uint64_t> want;
      if (x.complete_tx_is_array) {
        for (size_t i = 0; i < x.complete_tx_bytes.size(); ++i) {
          want[static_cast<int>(i)] = x.complete_tx_bytes[i];
        }
      } else {
        for (int d : dests) {
          want[(d & ~1) | (*c.cluster->mbar_cta & 1)] += x.complete_tx_bytes[0];
        }
      }
      for (int cta = 0; cta < std::max(ctas, 1); ++cta) {
        const uint64_t w = want.count(cta) ? want[cta] : 0;
        const uint64_t have = got.count(cta) ? got[cta] : 0;
        if (w != have) {
          check.Fail("complete_tx: CTA " + std::to_string(cta) + " expected " + std::to_string(w) +
                     " bytes (cta_group::2, mbar in CTA " + std::to_string(*c.cluster->mbar_cta) +
                     "), got " + std::to_string(have));
        }
      }
      for (const auto& [cta, have] : got) {
        if (cta < 0 || cta >= std::max(ctas, 1)) {
          check.Fail("complete_tx: signalled CTA " + std::to_string(cta) +
                     ", outside the cluster (" + std::to_string(have) + " bytes)");
        }
      }
    } else if (c.cluster && c.cluster->cta_group == 2) {
      uint64_t want_total = 0;
      for (int d : dests) {
        want_total += want_for(d);
      }
      if (total != want_total) {
        check.Fail("complete_tx: total " + std::to_string(total) +
                   " bytes over the CTA pair(s), "
                   "expected " +
                   std::to_string(want_total));
      }
    } else {
      for (int cta = 0; cta < std::max(ctas, 1); ++cta) {
        bool is_dest = std::find(dests.begin(), dests.end(), cta) != dests.end();
        uint64_t want = is_dest ? want_for(cta) : 0;
        uint64_t have = got.count(cta) ? got[cta] : 0;
        if (want != have) {
          check.Fail("complete_tx: CTA " + std::to_string(cta) + " expected " +
                     std::to_string(want) + " bytes, got " + std::to_string(have));
        }
      }
    }
  }

  // ---- shared memory ----
  auto smem_mismatch = [&](int cta, const std::vector<uint8_t>& want) {
    const std::vector<uint8_t>& have = smem.window(cta);
    int64_t i = FirstDiff(want, have);
    if (i < 0) {
      return;
    }
    ByteMismatch bm;
    bm.where = ByteMismatch::Where::kSmem;
    bm.cta = cta;
    bm.offset = static_cast<uint64_t>(i);
    bm.expected = static_cast<size_t>(i) < want.size() ? want[static_cast<size_t>(i)] : -1;
    bm.actual = static_cast<size_t>(i) < have.size() ? have[static_cast<size_t>(i)] : -1;
    bm.element = DescribeSmemByte(c, bm.offset);
    size_t ndiff = 0;
    for (size_t k = 0; k < std::min(want.size(), have.size()); ++k) {
      ndiff += want[k] != have[k];
    }
    check.Fail("smem: CTA " + std::to_string(cta) + " differs in " + std::to_string(ndiff) +
               " byte(s); first at offset " + std::to_string(bm.offset) + ": expected " +
               Hex2(bm.expected) + " got " + Hex2(bm.actual) + " -- " + bm.element);
    if (!res.first_byte) {
      res.first_byte = bm;
    }
  };
  const bool loads_smem = writes_smem;
  if (c.smem) {
    for (int cta = 0; cta < ctas; ++cta) {
      bool is_dest = std::find(dests.begin(), dests.end(), cta) != dests.end();
      std::optional<std::vector<uint8_t>> want;
      std::optional<std::string> want_sha;
      if (!x.smem.empty()) {
        std::string h;
        if (x.smem_is_array) {
          if (static_cast<size_t>(cta) < x.smem.size()) {
            h = x.smem[static_cast<size_t>(cta)];
          }
        } else if (is_dest || ctas == 1) {
          h = x.smem[0];
        }
        std::vector<uint8_t> bytes;
        if (h.empty()) {
          want = s0;  // "" = untouched
        } else if (!FromHex(h, &bytes)) {
          check.Fail("expect.smem[" + std::to_string(cta) + "] is not hex");
        } else {
          if (bytes.size() != s0.size()) {
            check.Fail("expect.smem for CTA " + std::to_string(cta) + " has " +
                       std::to_string(bytes.size()) + " bytes, the window " +
                       std::to_string(s0.size()));
          }
          want = std::move(bytes);
        }
      } else if (!x.smem_sha256.empty()) {
        if (x.smem_sha256_is_array) {
          if (static_cast<size_t>(cta) < x.smem_sha256.size()) {
            want_sha = x.smem_sha256[static_cast<size_t>(cta)];
          }
        } else if (is_dest || ctas == 1) {
          want_sha = x.smem_sha256[0];
        }
        if (want_sha && want_sha->empty()) {
          want_sha.reset();
          want = s0;
        }
        if (!want_sha && !want && !is_dest) {
          want = s0;
        }
      } else if (!loads_smem || !is_dest) {
        want = s0;  // stores, reductions, CTAs outside the destination set: untouched
      }
      if (want) {
        smem_mismatch(cta, *want);
      }
      if (want_sha) {
        const std::vector<uint8_t>& have = smem.window(cta);
        std::string got = Sha256Hex(have.data(), have.size());
        if (got != *want_sha) {
          check.Fail("smem: CTA " + std::to_string(cta) + " sha256 " + got + " expected " +
                     *want_sha + " (no hex in the case to locate the difference)");
        }
      }
    }
  }

  // ---- global memory ----
  std::vector<uint8_t> want_g = g0;
  bool have_want_g = true;
  if ((c.op == Op::kStore || c.op == Op::kReduce) && !writes_smem) {
    if (x.global_diff) {
      for (const auto& run : *x.global_diff) {
        std::vector<uint8_t> b;
        if (!FromHex(run.second, &b) || run.first > want_g.size() ||
            b.size() > want_g.size() - run.first) {
          check.Fail("expect.global_diff run at " + std::to_string(run.first) +
                     " is not hex or lies outside the buffer");
          continue;
        }
        std::copy(b.begin(), b.end(), want_g.begin() + static_cast<int64_t>(run.first));
      }
    } else {
      have_want_g = false;
    }
  }
  if (have_want_g) {
    const std::vector<uint8_t>& have = global.bytes();
    int64_t i = FirstDiff(want_g, have);
    if (i >= 0) {
      ByteMismatch bm;
      bm.where = ByteMismatch::Where::kGlobal;
      bm.offset = static_cast<uint64_t>(i);
      bm.expected = want_g[static_cast<size_t>(i)];
      bm.actual = have[static_cast<size_t>(i)];
      bm.element = DescribeGlobalByte(c, bm.offset);
      size_t ndiff = 0;
      for (size_t k = 0; k < have.size(); ++k) {
        ndiff += want_g[k] != have[k];
      }
      check.Fail("global: " + std::to_string(ndiff) + " byte(s) differ; first at buffer offset " +
                 std::to_string(bm.offset) + ": expected " + Hex2(bm.expected) + " got " +
                 Hex2(bm.actual) + " -- " + bm.element);
      if (!res.first_byte) {
        res.first_byte = bm;
      }
    }
  }
  if (x.global_sha256) {
    const std::vector<uint8_t>& have = global.bytes();
    std::string got = Sha256Hex(have.data(), have.size());
    if (got != *x.global_sha256) {
      check.Fail("global: sha256 " + got + " expected " + *x.global_sha256);
    }
  }
  return res;
}

}  // namespace tma::model
